//! Where a game's physical components are (issue 34): an engine that has countable components
//! (load chits, trains, certificates, …) may list them per place ([`Game::inventory`](super::Game::inventory)),
//! and the conformance harness then checks after every action that each component is in
//! exactly one place and that none appears from nowhere or vanishes. The same check can judge a
//! GM's correction. Pure data: the engine fills it, [`Inventory::check`] and
//! [`Inventory::check_since`] judge it.

use std::collections::BTreeMap;

/// The components of one kind, per place (a multiset of component ids per place).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Components {
    /// Each component may be in at most one place at a time (a numbered chit, a train); when
    /// false, several alike may be counted (e.g. event chits of one kind).
    pub unique: bool,
    /// Components may leave play for good (a destroyed train), so later inventories may hold
    /// fewer of them; otherwise every component is always somewhere.
    pub may_leave_play: bool,
    /// Per place (in words, e.g. "seat 2's train 3"), the components there (in words, e.g.
    /// "load 51").
    pub places: BTreeMap<String, Vec<String>>,
}

impl Components {
    /// Puts component `id` in `place`.
    pub fn put(&mut self, place: impl Into<String>, id: impl Into<String>) {
        self.places.entry(place.into()).or_default().push(id.into());
    }

    /// How many of each component there are, with the places each is in.
    fn census(&self) -> BTreeMap<&str, Vec<&str>> {
        let mut out: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (place, ids) in &self.places {
            for id in ids {
                out.entry(id.as_str()).or_default().push(place.as_str());
            }
        }
        out
    }
}

/// Every kind of component of a game state, by kind name ("load chit", "train").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inventory {
    pub kinds: BTreeMap<&'static str, Components>,
}

impl Inventory {
    /// The components of `kind`, created empty with its rules on first use.
    pub fn kind(&mut self, kind: &'static str, unique: bool, may_leave_play: bool) -> &mut Components {
        self.kinds.entry(kind).or_insert_with(|| Components {
            unique,
            may_leave_play,
            places: BTreeMap::new(),
        })
    }

    /// Every unique component is in exactly one place.
    pub fn check(&self) -> Result<(), String> {
        for (kind, c) in self.kinds.iter().filter(|(_, c)| c.unique) {
            if let Some((id, places)) = c.census().into_iter().find(|(_, p)| p.len() > 1) {
                return Err(format!(
                    "{kind} {id} is in {} places at once: {}",
                    places.len(),
                    places.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// [`Inventory::check`], and against `before` (the inventory one action earlier): no
    /// component appeared from nowhere, and none vanished unless its kind may leave play.
    pub fn check_since(&self, before: &Inventory) -> Result<(), String> {
        self.check()?;
        let empty = Components::default();
        for (kind, was) in &before.kinds {
            let now = self.kinds.get(kind).unwrap_or(&empty);
            let (old, new) = (was.census(), now.census());
            for (id, places) in &old {
                let left = new.get(id).map_or(0, Vec::len);
                if left < places.len() && !was.may_leave_play {
                    return Err(format!("{kind} {id} vanished (it was in {})", places.join(", ")));
                }
            }
            for (id, places) in &new {
                if places.len() > old.get(id).map_or(0, Vec::len) {
                    return Err(format!("{kind} {id} appeared from nowhere in {}", places.join(", ")));
                }
            }
        }
        if let Some(kind) = self.kinds.keys().find(|k| !before.kinds.contains_key(*k)) {
            return Err(format!("components of a new kind {kind} appeared"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loads(places: &[(&str, &[&str])]) -> Inventory {
        let mut inv = Inventory::default();
        let k = inv.kind("load chit", true, false);
        for (place, ids) in places {
            for id in *ids {
                k.put(*place, *id);
            }
        }
        inv
    }

    #[test]
    fn a_load_chit_in_two_places_at_once_is_caught() {
        let inv = loads(&[("seat 1's train 3", &["load 51"]), ("seat 2's train 3", &["load 51"])]);
        let err = inv.check().expect_err("duplicated");
        assert!(err.contains("load chit load 51 is in 2 places"), "{err}");
    }

    #[test]
    fn a_load_chit_that_vanishes_is_caught() {
        let before = loads(&[("the draw pile", &["load 23", "load 25"])]);
        let after = loads(&[("the draw pile", &["load 25"])]);
        let err = after.check_since(&before).expect_err("vanished");
        assert!(err.contains("load 23 vanished (it was in the draw pile)"), "{err}");
    }

    #[test]
    fn a_component_that_appears_from_nowhere_is_caught() {
        let before = loads(&[("the draw pile", &["load 25"])]);
        let after = loads(&[("the draw pile", &["load 25"]), ("the display", &["load 7"])]);
        assert!(after.check_since(&before).expect_err("appeared").contains("appeared from nowhere"));
    }

    #[test]
    fn a_component_that_may_leave_play_may_vanish_but_not_be_duplicated() {
        let mut before = Inventory::default();
        before.kind("train", true, true).put("Atlanta", "seat 1's train 1");
        let after = Inventory {
            kinds: [("train", Components { unique: true, may_leave_play: true, ..Components::default() })]
                .into(),
        };
        assert_eq!(after.check_since(&before), Ok(()));
        let moved = loads(&[("the display", &["load 1"]), ("the discards", &["load 2"])]);
        let mut again = moved.clone();
        again.kind("load chit", true, false).put("the discards", "load 1");
        assert!(again.check_since(&moved).is_err());
    }
}
