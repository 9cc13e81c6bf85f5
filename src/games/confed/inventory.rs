//! Where Confederate Rails' components are (issue 34), for the contract's
//! [`Game::inventory`](crate::engine::Game::inventory): every load and event chit (the draw
//! pile, the Available Loads Display, the starting loads face up, a train, abandoned on the map,
//! set aside, discarded, or in hand while a decision about it is open) and every train (not yet
//! placed, in reserve, the E train not yet in play, on the map or in the Raleigh Repair Box;
//! destroyed trains leave play).

use super::Confed;
use super::board::name;
use super::chits::{event_name, train_name};
use super::state::{Chit, E_TRAIN, Place, Stage, State};
use crate::engine::{Inventory, Seat};

impl Confed {
    /// The state's components per place.
    pub(super) fn components(&self, s: &State) -> Inventory {
        let mut inv = Inventory::default();
        self.chits(s, &mut inv);
        self.trains(s, &mut inv);
        inv
    }

    /// Load chits are numbered (each is unique); event chits of one kind are alike.
    fn chits(&self, s: &State, inv: &mut Inventory) {
        let d = &self.data;
        let put = |inv: &mut Inventory, place: &str, c: Chit| match c {
            Chit::Load(n) => inv.kind("load chit", true, false).put(place, format!("load {n}")),
            Chit::Event(k) => inv.kind("event chit", false, false).put(place, event_name(d, k)),
        };
        // Both kinds exist from the start, even when one place holds none of them.
        inv.kind("load chit", true, false);
        inv.kind("event chit", false, false);
        let lists: [(&str, &[Chit]); 3] = [
            ("the draw pile", &s.pile),
            ("the set-aside chits", &s.set_aside),
            ("the discards", &s.discarded),
        ];
        for (place, list) in lists {
            list.iter().for_each(|c| put(inv, place, *c));
        }
        s.display.iter().for_each(|n| put(inv, "the Available Loads Display", Chit::Load(*n)));
        s.offer.iter().for_each(|n| put(inv, "the starting loads", Chit::Load(*n)));
        for a in &s.abandoned {
            put(inv, &format!("abandoned at {}", name(d, a.at)), Chit::Load(a.chit));
        }
        for (i, p) in s.players.iter().enumerate() {
            for t in &p.trains {
                if let Some(c) = &t.load {
                    put(inv, &format!("{}'s {}", Seat::from_index(i), train_name(t.id)), Chit::Load(c.chit));
                }
            }
        }
        // A chit drawn or chosen, whose undertaking is still being decided (RT 5.1.2-5.2.1).
        // While a War Progress roll's tasks are answered (RT 5.1.4) the stage still names the
        // chit it was decided for, which a train then holds: it is in hand only if nowhere else.
        let elsewhere = |n: u32| {
            inv.kinds
                .get("load chit")
                .is_some_and(|k| k.places.values().flatten().any(|x| *x == format!("load {n}")))
        };
        let held = match &s.stage {
            Stage::ChooseLoad { drawn, .. } | Stage::Contract { drawn } => Some(*drawn),
            Stage::Dropoff { chit, setup: false, .. } | Stage::TroopsPickup { chit, .. } => Some(*chit),
            _ => None,
        };
        if let Some(n) = held.filter(|n| s.tasks.is_empty() || !elsewhere(*n)) {
            put(inv, &format!("{}'s hand (being undertaken)", s.active()), Chit::Load(n));
        }
    }

    /// Trains are each unique and may leave play (destroyed, RT 5.8, 5.9.2).
    fn trains(&self, s: &State, inv: &mut Inventory) {
        let d = &self.data;
        let k = inv.kind("train", true, true);
        for (i, p) in s.players.iter().enumerate() {
            let seat = Seat::from_index(i);
            let id = |t: u8| format!("{seat}'s {}", train_name(t));
            p.unplaced.iter().for_each(|t| k.put("not yet placed", id(*t)));
            p.reserve.iter().for_each(|t| k.put("in reserve", id(*t)));
            if p.e_available {
                k.put("not yet in play", id(E_TRAIN));
            }
            for t in &p.trains {
                let place = match t.at {
                    Place::Station(st) => format!("at {}", name(d, st)),
                    Place::RepairBox => "in the Raleigh Repair Box".into(),
                };
                k.put(place, id(t.id));
            }
        }
    }
}
