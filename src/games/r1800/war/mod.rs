//! The 1800 war procedure (issue 18), pure and deterministic: how wars start, the war phase's
//! actions by communications technology, moves, conscription, military cards, battles with
//! supporting regiments and ties, losses, and how a war ends (rules "Wars"; FACTS §5.2 and the
//! reconstructed procedure of §10; rulings E40–E69 in docs/RULINGS.md, "1800 — war").
//!
//! The war reads and changes the game only through [`board::WarBoard`], which the engine's state
//! implements.

pub mod board;
#[cfg(test)]
pub mod testboard;

#[cfg(test)]
mod board_tests {
    use super::board::{Owner, WarBoard, control};
    use super::testboard::*;

    #[test]
    fn a_regiment_controls_its_province_whatever_the_pops() {
        let mut b = TestBoard::new();
        b.set_pops(Owner::Power(FRANCE), "Champagne", 2);
        b.put(PRUSSIA, "Champagne");
        assert_eq!(control(&b, b.at("Champagne")), Some(Owner::Power(PRUSSIA)));
    }

    #[test]
    fn without_a_regiment_the_most_pops_control_and_a_tie_leaves_nobody() {
        let mut b = TestBoard::new();
        assert_eq!(control(&b, b.at("Hesse")), Some(Owner::Power(PRUSSIA)));
        b.set_pops(Owner::Power(FRANCE), "Hesse", 1);
        assert_eq!(control(&b, b.at("Hesse")), None);
        b.set_pops(Owner::Power(FRANCE), "Hesse", 2);
        assert_eq!(control(&b, b.at("Hesse")), Some(Owner::Power(FRANCE)));
        assert_eq!(control(&b, b.at("Flanders")), Some(Owner::Neutral));
    }

    #[test]
    fn provinces_are_named_in_any_case_and_spacing() {
        let b = TestBoard::new();
        assert_eq!(b.province_named("pommer-ania"), Some(b.at("Pommerania")));
        assert_eq!(b.province_named("Atlantis"), None);
    }
}
