//! The track step (FACTS §7.4): lays per turn by kind and phase (phase 1: a share company two
//! new yellow tiles, a minor one; later one lay or upgrade), the terrain cost paid from the
//! treasury (a company that cannot pay cannot lay), and the privates' free extra lays for their
//! owner acting as president of a share company (OBB on M15/M17, one hex per operating round;
//! PfB's green tile on L6, which does not close it: HR 5). RULING K32. Under the option
//! `unconnected_lays` (Rails) a lay that does not connect is accepted and named unconnected
//! (RULING K92).

use super::refuse;
use crate::engine::Event;
use crate::games::r1835::R1835;
use crate::games::r1835::actions::{Action, Refusal, illegal};
use crate::games::r1835::board::{
    Connection, LayError, check_lay, check_private_lay, legal_lays, legal_private_lays,
};
use crate::games::r1835::holdings::{Holder, pay};
use crate::games::r1835::state::{Entity, State, Step};

impl R1835 {
    /// Normal tile lays allowed this turn (FACTS §7.4 table; the phase's `major_yellow_lays`).
    pub(crate) fn lays_allowed(&self, s: &State, e: Entity) -> u8 {
        match e {
            Entity::Minor(_) => 1,
            Entity::Major(_) => self.phase_now(s).map_or(1, |p| p.major_yellow_lays.max(1)),
        }
    }

    /// The private whose free lay a tile on a hex would use: owned by the president of the
    /// operating share company, open, its power for this hex and the tile's colour, and (OBB)
    /// not yet used this operating round.
    pub(crate) fn private_lay(&self, s: &State, e: Entity, hex: &str, tile: &str) -> Option<usize> {
        let Entity::Major(c) = e else { return None };
        let president = self.president(s, usize::from(c))?;
        let colour = self.data.tiles.iter().find(|t| t.id == tile).map(|t| t.colour.as_str())?;
        (0..self.data.privates.len()).find(|i| {
            let (data, st) = (&self.data.privates[*i], &s.privates[*i]);
            let Some(power) = data.power.as_ref() else { return false };
            st.owner == Some(president)
                && !st.closed
                && ["free_tiles", "tile_and_token"].contains(&power.kind.as_str())
                && power.hexes.iter().any(|h| h.eq_ignore_ascii_case(hex))
                && power.colour.as_deref().is_none_or(|c| c == colour)
                && !s.or.powers_used.contains(&data.id)
        })
    }

    /// Lays or upgrades a tile for the operating entity in its track step.
    pub(crate) fn lay_tile(
        &self,
        s: &mut State,
        e: Entity,
        (tile, hex, rotation): (&str, &str, u8),
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        self.advance_to(s, Step::Track, ev)?;
        let id = self.entity_id(s, e);
        let hex = hex.trim().to_ascii_uppercase();
        let phase = self.phase_now(s)?;
        if let Some(p) = self.private_lay(s, e, &hex, tile) {
            // A private's free extra lay: no connection, no terrain cost (RULING K32).
            let lay =
                check_private_lay(&self.data, &s.board, phase, p, (&hex, tile, rotation)).map_err(refuse)?;
            s.board.lay(&self.data, &hex, tile, rotation).map_err(refuse)?;
            let private = &self.data.privates[p];
            if private.power.as_ref().is_some_and(|w| w.kind == "free_tiles") {
                s.or.powers_used.push(private.id.clone());
            }
            ev.push(Event::public(format!(
                "{id} lays tile {} on {} (rotation {}) free with the {}'s power",
                lay.tile, lay.hex, lay.rotation, private.name
            )));
            self.close_built_privates(s, ev);
            return Ok(());
        }
        let allowed = self.lays_allowed(s, e);
        if s.or.turn.lays >= allowed {
            return illegal(format!(
                "{id} has laid its {allowed} tile{} this turn (FACTS §7.4)",
                if allowed == 1 { "" } else { "s" }
            ));
        }
        let at = (hex.as_str(), tile, rotation);
        // Rails does not check the connection: under the option a lay it would accept is carried
        // out and reported as unconnected (RULING K92).
        let (lay, unconnected) = match check_lay(&self.data, &s.board, phase, &id, at, Connection::Required) {
            Err(LayError::NotConnected { .. }) if s.options.unconnected_lays => {
                (check_lay(&self.data, &s.board, phase, &id, at, Connection::Waived).map_err(refuse)?, true)
            }
            other => (other.map_err(refuse)?, false),
        };
        if allowed > 1 && lay.upgrade {
            return illegal(format!(
                "in phase {} a share company lays {allowed} new yellow tiles and upgrades nothing (FACTS §7.4)",
                phase.id
            ));
        }
        let cash = self.entity_cash(s, e);
        if lay.cost > cash {
            return illegal(format!(
                "building on {hex} costs {} M and {id} has {cash} M in its treasury (FACTS §7.4)",
                lay.cost
            ));
        }
        pay(s, Self::treasury(e), Holder::Bank, lay.cost);
        s.board.lay(&self.data, &hex, tile, rotation).map_err(refuse)?;
        s.or.turn.lays += 1;
        let cost =
            if lay.cost > 0 { format!(", paying {} M for the terrain", lay.cost) } else { String::new() };
        let unconnected = if unconnected {
            format!(
                "; an unconnected lay: {id} cannot trace track from its stations to {hex} (accepted as Rails does, option unconnected_lays)"
            )
        } else {
            String::new()
        };
        ev.push(Event::public(format!(
            "{id} lays tile {tile} on {hex} (rotation {rotation}){cost}{unconnected}"
        )));
        self.close_built_privates(s, ev);
        Ok(())
    }

    /// The OBB closes when both its hexes are built on, by anyone (FACTS §3).
    fn close_built_privates(&self, s: &mut State, ev: &mut Vec<Event>) {
        for (i, p) in self.data.privates.iter().enumerate() {
            let Some(power) = p.power.as_ref().filter(|w| w.kind == "free_tiles") else { continue };
            let built = power.hexes.iter().all(|h| s.board.tiles.contains_key(h));
            if built && !s.privates[i].closed {
                s.privates[i].closed = true;
                ev.push(Event::public(format!(
                    "{} closes: {} are built on",
                    p.name,
                    power.hexes.join(" and ")
                )));
            }
        }
    }

    /// The tile lays the operating entity may make now: normal lays while some are left (that
    /// it can pay for), and the privates' free lays.
    pub(crate) fn legal_lay_actions(&self, s: &State, e: Entity, out: &mut Vec<Action>) {
        let Ok(phase) = self.phase_now(s) else { return };
        let id = self.entity_id(s, e);
        let allowed = self.lays_allowed(s, e);
        let cash = self.entity_cash(s, e);
        let mut push = |hex: &str, tile: &str, rotation: u8| {
            let a = Action::LayTile { company: id.clone(), tile: tile.into(), hex: hex.into(), rotation };
            if !out.contains(&a) {
                out.push(a);
            }
        };
        if s.or.turn.lays < allowed {
            for lay in legal_lays(&self.data, &s.board, phase, &id) {
                if !(allowed > 1 && lay.upgrade) && lay.cost <= cash {
                    push(&lay.hex, &lay.tile, lay.rotation);
                }
            }
        }
        let Entity::Major(_) = e else { return };
        for p in 0..self.data.privates.len() {
            for lay in legal_private_lays(&self.data, &s.board, phase, p) {
                if self.private_lay(s, e, &lay.hex, &lay.tile) == Some(p) {
                    push(&lay.hex, &lay.tile, lay.rotation);
                }
            }
        }
    }
}
