//! What each viewer sees: the public table (per line and station: trains, loads, occupation,
//! congestion, disruption; the display, the money, the War), and for a seat its own hand of
//! Special Events. The draw pile's order and the other seats' hands are never shown; loads
//! undertaken are public (RULING F33).

use super::Confed;
use super::board::{self, name, segment_name};
use super::chits::{self, train_name};
use super::state::{Place, Stage, State, Train};
use crate::engine::counted;
use crate::engine::{Rules, Scoring, Seat, Standing, View, Viewer};
use serde_json::{Value, json};

impl Confed {
    fn train_json(&self, s: &State, t: &Train) -> Value {
        let d = &self.data;
        json!({
            "train": train_name(t.id),
            "at": match t.at { Place::Station(x) => name(d, x).to_string(), Place::RepairBox => "Raleigh Repair Box".into() },
            "load": t.load.as_ref().map(|c| json!({
                "chit": c.chit, "goods": chits::goods(d, c.chit),
                "pickup": name(d, c.pickup), "dropoff": name(d, c.dropoff), "picked_up": c.picked,
                "payout": chits::payout(d, s, c.chit),
            })),
        })
    }
}

impl View for Confed {
    /// The JSON view.
    fn view(&self, s: &State, viewer: Viewer) -> Value {
        let d = &self.data;
        let names =
            |v: &mut dyn Iterator<Item = usize>| v.map(|x| name(d, x).to_string()).collect::<Vec<_>>();
        let players: Vec<Value> = s
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let seat = Seat::from_index(i);
                let mut v = json!({
                    "seat": seat.0, "money": p.money, "rrcs": p.rrcs, "special_events_held": p.specials.len(),
                    "trains": p.trains.iter().map(|t| self.train_json(s, t)).collect::<Vec<_>>(),
                    "e_train_available": p.e_available, "trains_in_reserve": p.reserve.len(),
                });
                if viewer.may_see(seat) {
                    v["special_events"] =
                        json!(p.specials.iter().map(|n| chits::special_name(d, *n)).collect::<Vec<_>>());
                }
                v
            })
            .collect();
        json!({
            "round": s.round,
            "extended_game": s.extended,
            "war_started": !s.pre_war,
            "rrcs_for_sale": self.unowned(s),
            "auction": match &s.stage {
                Stage::Bidding { rrc, high, bid, .. } => json!({"rrc": rrc, "high_bidder": high.0, "bid": bid}),
                _ => Value::Null,
            },
            "order": s.order.iter().map(|x| x.0).collect::<Vec<_>>(),
            "active": s.active().0,
            "waiting_for": self.next_decision(s).map(|x| json!({"seat": x.seat.0, "prompt": x.prompt})),
            "players": players,
            "display": s.display.iter().map(|n| chits::label(d, *n)).collect::<Vec<_>>(),
            "starting_loads_offered": s.offer.iter().map(|n| chits::label(d, *n)).collect::<Vec<_>>(),
            "abandoned": s.abandoned.iter().map(|a| json!({"load": chits::label(d, a.chit), "at": name(d, a.at), "dropoff": name(d, a.dropoff), "only_for": a.reserved.map(|x| x.0)})).collect::<Vec<_>>(),
            "iron_diversions": s.diversions.iter().map(|v| json!({"seat": v.seat.0, "line": v.line})).collect::<Vec<_>>(),
            "draw_pile": s.pile.len() + s.set_aside.len(),
            "discarded": s.discarded.iter().map(|c| chits::chit_label(d, *c)).collect::<Vec<_>>(),
            "union_occupied": names(&mut s.occupied.iter().copied()),
            "victory_depots_occupied": board::vds_occupied(d, s),
            "congested": names(&mut s.congested.iter().copied()),
            "bad_rails": s.bad_rails,
            "bridges_out": s.bridges_out.iter().map(|g| segment_name(d, *g)).collect::<Vec<_>>(),
            "ripped_up": s.ripped.iter().map(|(g, k)| json!({"segment": segment_name(d, *g), "markers": k})).collect::<Vec<_>>(),
            "built": s.built.iter().map(|g| segment_name(d, *g)).collect::<Vec<_>>(),
            "new_depots": names(&mut s.new_depots.iter().copied()),
            "blockade_increase": s.blockade, "cotton_embargo": s.embargo, "railroad_conventions": s.conventions,
            "through_freight_law": s.through_freight, "collisions_pending": s.collisions,
            "moving": match s.stage { Stage::Move { train } => json!({"train": train_name(train), "mp_left": s.mp}), _ => Value::Null },
            "ended": s.ended,
        })
    }

    /// The plain-text table: per line, its stations with trains, loads, markers.
    fn describe(&self, s: &State, viewer: Viewer) -> String {
        let d = &self.data;
        let mut out = Vec::new();
        out.push(format!(
            "Confederate Rails, Round {}; Union holds {}; draw pile {}",
            s.round,
            counted(board::vds_occupied(d, s), "Victory Depot"),
            counted(s.pile.len() + s.set_aside.len(), "chit")
        ));
        if let Some(why) = &s.ended {
            out.push(format!("The game is over: {why}"));
        } else if let Some(dec) = self.next_decision(s) {
            out.push(format!("Waiting for {}: {}", dec.seat, dec.prompt));
        }
        for (i, p) in s.players.iter().enumerate() {
            let seat = Seat::from_index(i);
            let lines: Vec<String> = p.rrcs.iter().map(|l| format!("#{l}")).collect();
            out.push(format!(
                "{seat}: ${}, RRCs {}, {} Special Events",
                p.money,
                lines.join(" "),
                p.specials.len()
            ));
            if viewer.may_see(seat) {
                let held: Vec<String> = p.specials.iter().map(|n| chits::special_name(d, *n)).collect();
                out.push(format!(
                    "  your Special Events: {}",
                    if held.is_empty() { "none".into() } else { held.join(", ") }
                ));
            }
            for t in &p.trains {
                let at = t
                    .station()
                    .map(|x| name(d, x).to_string())
                    .unwrap_or_else(|| "Raleigh Repair Box".into());
                let load = t
                    .load
                    .as_ref()
                    .map(|c| {
                        format!(
                            ", {} {} -> {}{}",
                            chits::label(d, c.chit),
                            name(d, c.pickup),
                            name(d, c.dropoff),
                            if c.picked { " (aboard)" } else { "" }
                        )
                    })
                    .unwrap_or_default();
                out.push(format!("  {} at {at}{load}", train_name(t.id)));
            }
        }
        out.push(format!(
            "Available Loads: {}",
            s.display.iter().map(|n| chits::label(d, *n)).collect::<Vec<_>>().join(", ")
        ));
        out.push("Lines (station [markers] {trains} <abandoned loads>):".into());
        for line in &d.map.lines {
            let mut cells = Vec::new();
            for &st in &line.stations {
                let mut marks = Vec::new();
                if s.occupied.contains(&st) {
                    marks.push("Union".to_string());
                }
                if s.congested.contains(&st) {
                    marks.push("Congested".into());
                }
                if s.new_depots.contains(&st) {
                    marks.push("New Depot".into());
                }
                let trains: Vec<String> = s
                    .players
                    .iter()
                    .enumerate()
                    .flat_map(|(i, p)| {
                        p.trains
                            .iter()
                            .filter(move |t| t.station() == Some(st))
                            .map(move |t| format!("{}:{}", i + 1, train_name(t.id)))
                    })
                    .collect();
                let loads: Vec<String> =
                    s.abandoned.iter().filter(|a| a.at == st).map(|a| a.chit.to_string()).collect();
                let mut cell = name(d, st).to_string();
                if !marks.is_empty() {
                    cell.push_str(&format!(" [{}]", marks.join(", ")));
                }
                if !trains.is_empty() {
                    cell.push_str(&format!(" {{{}}}", trains.join(" ")));
                }
                if !loads.is_empty() {
                    cell.push_str(&format!(" <{}>", loads.join(" ")));
                }
                cells.push(cell);
            }
            let bad = if s.bad_rails.contains(&line.number) { " (Bad Rails)" } else { "" };
            out.push(format!("  #{} {}{bad}: {}", line.number, line.abbr, cells.join(" - ")));
        }
        out.extend(board::disrupted(d, s));
        out.join("\n")
    }
}

impl Scoring for Confed {
    /// RT 1.0 (RULING F29): the most money wins; ties share the place.
    fn standings(&self, s: &State) -> Option<Vec<Standing>> {
        s.ended.as_ref()?;
        let mut seats: Vec<(Seat, u32)> =
            s.players.iter().enumerate().map(|(i, p)| (Seat::from_index(i), p.money)).collect();
        seats.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut out: Vec<Standing> = Vec::new();
        for (k, (seat, money)) in seats.iter().enumerate() {
            let place = match out.last() {
                Some(prev) if seats.get(k - 1).is_some_and(|p| p.1 == *money) => prev.place,
                _ => (k + 1) as u8,
            };
            out.push(Standing { seat: *seat, place, score: format!("${money}") });
        }
        Some(out)
    }
}
