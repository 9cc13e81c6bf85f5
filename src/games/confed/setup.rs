//! Preparing for play (RT 3.0-3.7): options (the Extended Game: `{"extended": true}`), money, the initiative roll, the Special Event
//! counters dealt, the RRC choice order; then, as actions, the deal of the other RRCs, train
//! placement and the starting loads, and the Round's initiative (RT 4.0, RULING F10).

use super::Confed;
use super::board;
use super::chits;
use super::data::{Dropoff, Setup as SetupRaw};
use super::state::{Chit, Player, Stage, State};
use crate::engine::{Event, GameRng, Seat, Setup, SetupError, SetupSpec};
use std::collections::{BTreeMap, BTreeSet};

/// Rolls one die on the action's dice stream, which players can check after the turn
/// (`GameRng::roll`, `engine::dice`).
pub fn d6(rng: &mut GameRng) -> u32 {
    u32::from(rng.roll(6))
}

/// RT 3.3 (and RULING F10 each Round): every seat rolls 1d6, tied high rollers roll again; the
/// high roller has the initiative. Returns the seat and the rolls in words.
pub fn roll_initiative(seats: usize, rng: &mut GameRng) -> (Seat, String) {
    let mut contenders: Vec<Seat> = (0..seats).map(Seat::from_index).collect();
    let mut words = Vec::new();
    for _ in 0..50 {
        let rolls: Vec<(Seat, u32)> = contenders.iter().map(|s| (*s, d6(rng))).collect();
        words.push(rolls.iter().map(|(s, r)| format!("{s} {r}")).collect::<Vec<_>>().join(", "));
        let high = rolls.iter().map(|(_, r)| *r).max().unwrap_or(0);
        contenders = rolls.into_iter().filter(|(_, r)| *r == high).map(|(s, _)| s).collect();
        if contenders.len() <= 1 {
            break;
        }
    }
    let seat = contenders.first().copied().unwrap_or(Seat(1));
    (seat, format!("initiative rolls: {}; {seat} has the initiative", words.join("; re-roll: ")))
}

/// The options `extended_option` reads, for the GM's "New game" form (issue 37).
pub const OPTIONS: &[crate::engine::OptionSpec] = &[crate::engine::OptionSpec {
    name: "extended",
    help: "play the Extended Game, with the years before the War (RT 1.1)",
    kind: crate::engine::OptionKind::Flag,
}];

/// Reads `SetupSpec.options`: `{"extended": true}` plays the Extended Game (RT 1.1); no option,
/// or `false`, the standard game with the War from the start. Unknown keys are refused.
pub fn extended_option(v: &serde_json::Value) -> Result<bool, SetupError> {
    let map = match v {
        serde_json::Value::Null => return Ok(false),
        serde_json::Value::Object(m) => m,
        _ => return Err(SetupError("Confederate Rails options are a JSON object".into())),
    };
    let mut extended = false;
    for (k, val) in map {
        match (k.as_str(), val.as_bool()) {
            ("extended", Some(b)) => extended = b,
            _ => {
                return Err(SetupError(format!(
                    "unknown Confederate Rails option \"{k}\" (known: \"extended\": true or false)"
                )));
            }
        }
    }
    Ok(extended)
}

impl Confed {
    pub(super) fn setup_for(&self, seats: u8) -> Option<&SetupRaw> {
        self.data.tables.setup.iter().find(|x| x.players == seats)
    }

    /// RT 3.4 (Extended Game): each seat is dealt its RRCs at random; the rest are bid for.
    fn deal_extended(&self, s: &mut State, cfg: &SetupRaw, rng: &mut GameRng) {
        let mut deck: Vec<u8> = (1..=24u8).collect();
        rng.shuffle(&mut deck);
        for seat in s.order.clone() {
            let got: Vec<u8> = (0..cfg.extended_dealt).filter_map(|_| deck.pop()).collect();
            if let Some(p) = s.player_mut(seat) {
                p.rrcs.extend(got);
            }
        }
        s.stage = Stage::Place;
    }

    /// RT 3.4: once the choices are made, the other RRCs are dealt at random from the
    /// initiative player on (in 5 players the initiative player gets one fewer).
    pub(super) fn deal_rrcs(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        let Some(cfg) = self.setup_for(s.players.len() as u8).cloned() else { return };
        let mut deck: Vec<u8> = (1..=24u8).filter(|l| s.owner_of(*l).is_none()).collect();
        rng.shuffle(&mut deck);
        for (k, seat) in s.order.clone().into_iter().enumerate() {
            let count = if k == 0 { cfg.rrc_dealt_initiative } else { cfg.rrc_dealt };
            let mut got = Vec::new();
            for _ in 0..count {
                if let Some(l) = deck.pop() {
                    got.push(l);
                }
            }
            got.sort_unstable();
            if let Some(p) = s.player_mut(seat) {
                p.rrcs.extend(got.iter().copied());
            }
            let names: Vec<String> = got.iter().map(|l| format!("#{l}")).collect();
            ev.push(Event::public(format!("RT 3.4: {seat} is dealt RRCs {}", names.join(", "))));
        }
        s.stage = Stage::Place;
    }

    /// RT 3.7: once every train is placed, as many loads as trains are turned face up.
    pub(super) fn open_offer(&self, s: &mut State, ev: &mut Vec<Event>) {
        let trains: usize = s.players.iter().map(|p| p.trains.len()).sum();
        for _ in 0..trains {
            if let Some(Chit::Load(n)) = s.pile.pop() {
                s.offer.push(n);
            }
        }
        let names: Vec<String> = s.offer.iter().map(|n| chits::label(&self.data, *n)).collect();
        ev.push(Event::public(format!("RT 3.7: starting loads turned up: {}", names.join(", "))));
        s.stage = Stage::SelectLoads;
    }

    /// RT 3.7: the dropoff choices of a load (the player designates among several).
    pub(super) fn dropoff_options(&self, s: &State, chit: u32, pickup: usize) -> Vec<usize> {
        let d = &self.data;
        let near = |limit: u32| -> Vec<usize> {
            let dist = board::union_distance(d, s);
            (0..d.map.stations.len())
                .filter(|i| !s.occupied.contains(i) && *i != pickup)
                .filter(|i| dist.get(*i).copied().flatten().is_some_and(|x| x <= limit))
                .collect()
        };
        if chits::is_troops(d, chit) {
            return near(d.troops.dropoff_max_distance);
        }
        match chits::load(d, chit).map(|l| &l.dropoff) {
            Some(Dropoff::Stations(v)) => {
                let free: Vec<usize> = v.iter().copied().filter(|x| !s.occupied.contains(x)).collect();
                if free.is_empty() { v.clone() } else { free }
            }
            Some(Dropoff::NearUnion) => {
                // RT 5.1.3: not on the pickup's RRC(s), unless no other station is available.
                let all = near(d.troops.dropoff_max_distance);
                let pick_lines = d.map.stations.get(pickup).map(|x| x.lines.clone()).unwrap_or_default();
                let off: Vec<usize> = all
                    .iter()
                    .copied()
                    .filter(|i| d.map.stations.get(*i).is_some_and(|x| x.lines.is_disjoint(&pick_lines)))
                    .collect();
                if off.is_empty() { all } else { off }
            }
            None => Vec::new(),
        }
    }

    /// RT 3.7: the starting loads are chosen; 8 more go to the display and the set-aside chits
    /// are mixed into the pile. The first Round begins.
    pub(super) fn finish_setup(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        s.discarded.extend(s.offer.drain(..).map(Chit::Load));
        for _ in 0..8 {
            if let Some(Chit::Load(n)) = s.pile.pop() {
                s.display.push(n);
            }
        }
        let names: Vec<String> = s.display.iter().map(|n| chits::label(&self.data, *n)).collect();
        if s.pre_war {
            ev.push(Event::public(format!(
                "RT 3.7: Available Loads: {}; the Troops, Blockade Runners and Events wait for the War",
                names.join(", ")
            )));
        } else {
            s.pile.append(&mut s.set_aside);
            rng.shuffle(&mut s.pile);
            ev.push(Event::public(format!(
                "RT 3.7: Available Loads: {}; the Troops, Blockade Runners and Events join the pile ({} chits)",
                names.join(", "),
                s.pile.len()
            )));
        }
        // RT 3.3: the set-up's high roller is the Initiative Player of Round 1.
        self.first_round(s, ev);
    }
}

impl Setup for Confed {
    /// A new game: options checked, money, initiative, specials dealt, RRC choice order (or,
    /// in the Extended Game, the RRCs dealt).
    fn setup(&self, spec: &SetupSpec, rng: &mut GameRng) -> Result<State, SetupError> {
        let extended = extended_option(&spec.options)?;
        let cfg = self
            .setup_for(spec.seats)
            .ok_or_else(|| {
                SetupError(format!("Confederate Rails is for 2 to 5 players, not {}", spec.seats))
            })?
            .clone();
        let d = &self.data;
        let n = usize::from(spec.seats);
        let (init, _) = roll_initiative(n, rng);
        // RT 3.6: specials dealt at random, some removed in the 5-player game.
        let mut specials: Vec<u8> = d
            .tables
            .specials
            .iter()
            .filter(|x| !cfg.specials_removed.contains(&x.number))
            .flat_map(|x| std::iter::repeat_n(x.number, x.count as usize))
            .collect();
        rng.shuffle(&mut specials);
        let mut players: Vec<Player> = (0..n)
            .map(|_| {
                // RT 3.2, 3.5: the Extended Game starts with more money and fewer trains placed.
                let (money, placed) = if extended {
                    (cfg.extended_money, cfg.extended_trains_placed.min(cfg.trains))
                } else {
                    (cfg.money, cfg.trains)
                };
                Player {
                    money,
                    rrcs: BTreeSet::new(),
                    specials: Vec::new(),
                    trains: Vec::new(),
                    unplaced: (1..=placed).collect(),
                    placed_on: Vec::new(),
                    e_available: true,
                    played_this_turn: Vec::new(),
                    reserve: (placed + 1..=cfg.trains).collect(),
                }
            })
            .collect();
        for p in players.iter_mut() {
            for _ in 0..cfg.specials_each {
                p.specials.extend(specials.pop());
            }
            p.specials.sort_unstable();
        }
        // RT 3.7: the 66 ordinary loads make the first pile; Troops, Blockade Runners and the
        // Event chits are set aside.
        let mut pile: Vec<Chit> = d
            .loads
            .iter()
            .filter(|l| !chits::is_blockade(d, l.number))
            .map(|l| Chit::Load(l.number))
            .collect();
        rng.shuffle(&mut pile);
        let mut set_aside: Vec<Chit> =
            (d.troops.first_number..d.troops.first_number + d.troops.count).map(Chit::Load).collect();
        set_aside
            .extend(d.loads.iter().filter(|l| chits::is_blockade(d, l.number)).map(|l| Chit::Load(l.number)));
        for (k, e) in d.tables.events.iter().enumerate() {
            set_aside.extend(std::iter::repeat_n(Chit::Event(k), e.count as usize));
        }
        let order: Vec<Seat> = (0..n).map(|k| Seat::from_index((init.index() + k) % n)).collect();
        // RT 3.4: 2 players choose I, O, O, I; 3-5 players one each from the initiative.
        let choose = if cfg.rrc_chosen == 2 {
            let other = order.get(1).copied().unwrap_or(init);
            vec![init, other, other, init]
        } else {
            order.clone()
        };
        let mut s = State {
            players,
            pile,
            display: Vec::new(),
            offer: Vec::new(),
            abandoned: Vec::new(),
            discarded: Vec::new(),
            occupied: BTreeSet::new(),
            congested: BTreeSet::new(),
            bad_rails: BTreeSet::new(),
            bridges_out: BTreeSet::new(),
            ripped: BTreeMap::new(),
            built: BTreeSet::new(),
            new_depots: BTreeSet::new(),
            blockade: 0,
            embargo: false,
            conventions: 0,
            through_freight: false,
            collisions: 0,
            congestion_rolled: false,
            vd_retaken: false,
            round: 0,
            order,
            turn: 0,
            to_move: Vec::new(),
            mp: 0,
            moved_in: false,
            set_aside,
            activations_this_round: 0,
            stage: Stage::ChooseRrc { order: choose },
            tasks: Vec::new(),
            bank_out: 0,
            bank_in: 0,
            ended: None,
            extended,
            pre_war: extended,
            diversions: Vec::new(),
            offers: Vec::new(),
            fees_paid: Vec::new(),
        };
        if extended {
            self.deal_extended(&mut s, &cfg, rng);
        }
        Ok(s)
    }
}
