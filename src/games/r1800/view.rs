//! What each viewer sees: the board, every seat's tableau, prosperity and the sizes of its
//! hands, the draft and the face-up discard piles for everyone; a seat's own admin and military
//! cards and ambition only for that seat (and the GM). JSON for the API, text for pages and mail.

use super::R1800;
use super::board;
use super::state::*;
use super::war::board::PowerId;
use crate::engine::counted;
use crate::engine::{Scoring, Seat, View, Viewer};
use serde_json::{Value, json};
use std::fmt::Write;

impl R1800 {
    /// A seat's public standing in words, as the text view and the picture both say it: pops,
    /// provinces, hand sizes and the next collection (`ctl`: the position's controllers, read
    /// once for every seat).
    pub(super) fn standing_words(&self, s: &State, ctl: &board::Control, i: usize) -> String {
        let pl = &s.players[i];
        let y = board::collection_under(s, self.data(), i, ctl);
        format!(
            "{}, {}; {}, {}; next collection {} F {} P {} C",
            counted(s.pops_of(usize::from(pl.power)) as usize, "pop"),
            counted(ctl.provinces(s, i) as usize, "province"),
            counted(pl.admin.len(), "admin card"),
            counted(pl.military.len(), "military card"),
            i64::from(y.food_out) - i64::from(y.food_use),
            y.production,
            y.commerce,
        )
    }
}

impl View for R1800 {
    /// The JSON view.
    fn view(&self, s: &State, viewer: Viewer) -> Value {
        let d = self.data();
        let provinces: Vec<Value> = s
            .provinces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.pops.iter().any(|n| *n > 0) || p.factories > 0 || p.regiment.is_some())
            .map(|(i, p)| {
                let pops: serde_json::Map<String, Value> = p
                    .pops
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(o, n)| (owner_code(self, o), json!(n)))
                    .collect();
                json!({
                    "province": d.provinces[i].name,
                    "kind": d.provinces[i].kind,
                    "pops": pops,
                    "factories": p.factories,
                    "regiment": p.regiment.map(|r| owner_code(self, r.owner.map(usize::from).unwrap_or(NEUTRAL))),
                    "controller": s.controller(i as u16).map(|o| owner_code(self, o)),
                })
            })
            .collect();
        let players: Vec<Value> = (0..s.players.len())
            .map(|i| {
                let pl = &s.players[i];
                let mine = viewer.may_see(Seat::from_index(i));
                let cards: Vec<Value> = pl
                    .cards
                    .iter()
                    .enumerate()
                    .filter(|(_, h)| !h.covered)
                    .map(|(k, h)| json!({"n": k + 1, "card": d.dev_name(h.card), "resources": h.res, "used": h.used}))
                    .collect();
                let mut v = json!({
                    "seat": i + 1,
                    "power": d.powers[usize::from(pl.power)].name,
                    "prosperity": pl.prosperity,
                    "cards": cards,
                    "supply": pl.supply,
                    "admin_cards": pl.admin.len(),
                    "military_cards": pl.military.len(),
                    "overseas_routes": pl.overseas.iter().map(|r| d.routes[usize::from(*r)].clone()).collect::<Vec<_>>(),
                    "european_partners": pl.european.iter().map(|o| o + 1).collect::<Vec<_>>(),
                    "tradition": pl.tradition.map(|t| d.military[usize::from(t)].name.clone()),
                });
                if mine || s.over() || pl.revealed {
                    v["ambition"] = json!(d.ambitions[usize::from(pl.ambition)].name);
                }
                if mine {
                    v["admin"] = json!(pl.admin.iter().map(|c| d.admin[usize::from(*c)].name.clone()).collect::<Vec<_>>());
                    v["military"] = json!(pl.military.iter().map(|c| d.military[usize::from(*c)].name.clone()).collect::<Vec<_>>());
                }
                v
            })
            .collect();
        json!({
            "round": s.round + 1,
            "era": s.era(),
            "dealer": s.dealer + 1,
            "event": s.event.map(|e| d.events[usize::from(e)].name.clone()),
            "stage": stage_words(s),
            "offer": s.offer.iter().map(|c| d.dev_name(*c)).collect::<Vec<_>>(),
            "development_deck": s.dev_deck.len(),
            "development_discard": s.dev_discard.iter().map(|c| d.dev_name(*c)).collect::<Vec<_>>(),
            "admin_deck": s.admin_deck.len(),
            "admin_discard": s.admin_discard.iter().map(|c| d.admin[usize::from(*c)].name.clone()).collect::<Vec<_>>(),
            "military_deck": s.military_deck.len(),
            "military_discard": s.military_discard.iter().map(|c| d.military[usize::from(*c)].name.clone()).collect::<Vec<_>>(),
            "players": players,
            "provinces": provinces,
            "reconstructed": d.reconstructed,
        })
    }

    /// The text view.
    fn describe(&self, s: &State, viewer: Viewer) -> String {
        let d = self.data();
        let mut t = String::new();
        let _ = writeln!(t, "1800 — round {} of 24, era {}; {}.", s.round + 1, s.era(), stage_words(s));
        if let Some(e) = s.event {
            let _ = writeln!(t, "Global event: {}.", d.events[usize::from(e)].name);
        }
        // RULING E62: this round's wars and revealed ambitions are public.
        let wars = self.war_lines(s);
        if !wars.is_empty() {
            let _ = writeln!(t, "Wars: {}.", wars.join("; "));
        }
        let offer: Vec<&str> = s.offer.iter().map(|c| d.dev_name(*c)).collect();
        let _ = writeln!(
            t,
            "Draft: {}.",
            if offer.is_empty() { "nothing".to_string() } else { offer.join(", ") }
        );
        let ctl = board::Control::of(s);
        for (i, pl) in s.players.iter().enumerate() {
            let _ = writeln!(
                t,
                "\n{} (seat {}): prosperity {}; {}{}",
                d.powers[usize::from(pl.power)].name,
                i + 1,
                pl.prosperity,
                self.standing_words(s, &ctl, i),
                if s.dealer as usize == i { "; dealer" } else { "" },
            );
            for (k, h) in pl.cards.iter().enumerate().filter(|(_, h)| !h.covered) {
                let c = &d.dev[usize::from(h.card)];
                let _ = writeln!(t, "  #{} {} {}", k + 1, c.name, squares(h.res, c.slots));
            }
            if viewer.may_see(Seat::from_index(i)) {
                let names = |v: &[u8], f: &dyn Fn(u8) -> String| {
                    v.iter().map(|c| f(*c)).collect::<Vec<_>>().join(", ")
                };
                let _ = writeln!(
                    t,
                    "  Your admin cards: {}",
                    names(&pl.admin, &|c| d.admin[usize::from(c)].name.clone())
                );
                let _ = writeln!(
                    t,
                    "  Your military cards: {}",
                    names(&pl.military, &|c| d.military[usize::from(c)].name.clone())
                );
                let _ = writeln!(t, "  Your ambition: {}", d.ambitions[usize::from(pl.ambition)].name);
            } else if pl.revealed || s.over() {
                let _ = writeln!(t, "  Ambition (revealed): {}", d.ambitions[usize::from(pl.ambition)].name);
            }
        }
        let _ = writeln!(t, "\nProvinces (pops by power; F = factories; R = regiment):");
        for (i, p) in s.provinces.iter().enumerate() {
            if p.pops.iter().all(|n| *n == 0) && p.regiment.is_none() && p.factories == 0 {
                continue;
            }
            let pops: Vec<String> = p
                .pops
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(o, n)| format!("{} {n}", owner_code(self, o)))
                .collect();
            let reg = p
                .regiment
                .map(|r| format!(" R {}", owner_code(self, r.owner.map(usize::from).unwrap_or(NEUTRAL))));
            let _ = writeln!(
                t,
                "  {}: {}{}{}",
                d.provinces[i].name,
                pops.join(", "),
                if p.factories > 0 { format!(" F{}", p.factories) } else { String::new() },
                reg.unwrap_or_default()
            );
        }
        if let Some(st) = self.standings(s) {
            let _ = writeln!(t, "\nFinal standings:");
            for x in st {
                let _ = writeln!(t, "  {}. {} — {}", x.place, self.power_name(s, x.seat.index()), x.score);
            }
        }
        t
    }
}

impl R1800 {
    /// This round's wars in words, for the text and the drawing: each declaration with its cause
    /// and each battle waiting to be resolved (all public: declarations and moves are announced).
    pub(super) fn war_lines(&self, s: &State) -> Vec<String> {
        let d = self.data();
        let power = |p: PowerId| d.powers.get(usize::from(p.0)).map(|x| x.name.as_str()).unwrap_or("?");
        let mut out: Vec<String> = s
            .war
            .declarations
            .iter()
            .map(|x| {
                format!("{} declared war on {} ({})", power(x.declarer), power(x.target), x.cause.words())
            })
            .collect();
        for b in s.war.phase.iter().flat_map(|p| &p.battles) {
            let at = d.provinces.get(b.at.index()).map(|p| p.name.as_str()).unwrap_or("?");
            out.push(format!("battle in {at}: {} attacks {}", power(b.attacker), power(b.defender)));
        }
        out
    }
}

fn owner_code(g: &R1800, o: usize) -> String {
    g.data().powers.get(o).map(|p| p.code.clone()).unwrap_or_else(|| "neutral".into())
}

fn squares(res: [u8; 3], slots: [u8; 3]) -> String {
    let parts: Vec<String> =
        (0..3).filter(|&r| slots[r] > 0).map(|r| format!("{}{}/{}", RES[r], res[r], slots[r])).collect();
    if parts.is_empty() { String::new() } else { format!("[{}]", parts.join(" ")) }
}

pub(super) fn stage_words(s: &State) -> String {
    match &s.stage {
        Stage::Call { .. } => "the development draft is about to begin".into(),
        Stage::Draft { .. } => "the development draft".into(),
        Stage::Reprisal { .. } => "the end of the round: wronged powers may declare war".into(),
        Stage::Turn { seat, .. } => format!("seat {}'s turn", seat + 1),
        Stage::War => "the war phase".into(),
        Stage::Over => "the game is over".into(),
    }
}
