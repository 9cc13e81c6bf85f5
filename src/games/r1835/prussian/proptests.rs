//! Property tests over random sequences of Prussian moments, round starts and answers (legal
//! ones, defaults and answers from the wrong seat) from constructed states: money and trains
//! are conserved, every exchanged paper's certificate has left the reserve and no other has,
//! the director's certificate is out exactly when the Prussian has formed and its holder holds
//! the most, a refused answer changes nothing, and the default is always a legal answer.

use super::super::actions::Action;
use super::super::state::PrussianMoment;
use super::super::state::{Entity, Loc, Round, State};
use super::super::tests::{engine, sold_packet};
use super::PrussianAt;
use crate::engine::Event;
use proptest::prelude::*;
use serde_json::json;

const PAPERS: [&str; 8] = ["M1", "M2", "M3", "M4", "M5", "M6", "BB", "HB"];
const TRAINS: [&str; 5] = ["2", "2+2", "3", "4", "4+4"];

/// The sold packet with the papers dealt by `owners`, minors funded and given trains, some
/// public Prussian shares sold, in an operating round whose first `done` minors have operated.
fn start(owners: &[u8], cash: &[i64], trains: &[usize], sold: usize, done: usize) -> State {
    let g = engine();
    let mut s = sold_packet(&g, json!({}));
    for (k, id) in PAPERS.iter().enumerate() {
        let seat = owners.get(k).copied().unwrap_or(0) % 4;
        if let Some(m) = g.data().minor_index(id) {
            s.minors[m].owner = Some(seat);
            let diff = cash.get(m).copied().unwrap_or(0) - s.minors[m].cash;
            s.minors[m].cash += diff;
            s.bank -= diff;
            for t in trains.iter().skip(m * 2).take(2).filter(|t| **t < TRAINS.len()) {
                s.minors[m].trains.push(TRAINS[*t].to_string());
                s.depot.rusted = s.depot.rusted.saturating_sub(1);
            }
        } else if let Some(x) = g.data().private_index(id) {
            s.privates[x].owner = Some(seat);
        }
    }
    let pr = g.pr();
    let publics: Vec<usize> = (0..s.majors[pr].certs.len())
        .filter(|i| g.data().majors[pr].certificates[*i].reserved_for.is_none())
        .collect();
    for (k, i) in publics.iter().take(sold).enumerate() {
        s.majors[pr].certs[*i].at =
            if k == 3 { Loc::Pool } else { Loc::Player(u8::try_from(k).unwrap_or(0)) };
    }
    s.round = Round::Operating { set: 4, n: 1, of: 2 };
    s.or.queue = (0..6).map(Entity::Minor).skip(done).collect();
    s
}

fn trains(s: &State) -> usize {
    s.majors.iter().map(|c| c.trains.len()).sum::<usize>()
        + s.minors.iter().map(|m| m.trains.len()).sum::<usize>()
        + s.depot.pool.len()
        + usize::try_from(s.depot.rusted).unwrap_or(0)
}

/// Papers not yet exchanged (M2 counts until the formation).
fn open_papers(s: &State) -> usize {
    let minors = s.minors.iter().filter(|m| !m.closed).count();
    let privates = s.privates.iter().filter(|x| (x.id == "BB" || x.id == "HB") && !x.closed).count();
    minors + privates
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn prussian_sequences_conserve_money_certificates_and_trains(
        owners in prop::collection::vec(0u8..4, 8),
        cash in prop::collection::vec(0i64..300, 6),
        dealt in prop::collection::vec(0usize..8, 12),
        sold in 0usize..5,
        done in 0usize..6,
        steps in prop::collection::vec(0u16..400, 1..40),
    ) {
        let g = engine();
        let mut s = start(&owners, &cash, &dealt, sold, done);
        let (money, count) = (s.money(), trains(&s));
        let pr = g.pr();
        for v in steps {
            let mut ev: Vec<Event> = Vec::new();
            let pending = g.prussian_pending(&s);
            match (v % 7, pending) {
                (0, _) => { s.prussian_due.push(PrussianMoment::MayForm); g.prussian_moments(&mut s, PrussianAt::TrainBought, &mut ev) }
                (1, _) => { s.prussian_due.push(PrussianMoment::MustForm); g.prussian_moments(&mut s, PrussianAt::TrainBought, &mut ev) }
                (2, _) if v % 3 == 0 => { s.prussian_due.push(PrussianMoment::ForcedExchange); g.prussian_moments(&mut s, PrussianAt::TrainBought, &mut ev) }
                (3, _) => g.prussian_moments(&mut s, PrussianAt::OperatingRoundStart, &mut ev),
                (4, _) => g.prussian_moments(&mut s, PrussianAt::StockRoundStart, &mut ev),
                (5, Some(p)) => {
                    let before = s.clone();
                    let wrong = (p + 1) % 4;
                    let mut legal = Vec::new();
                    g.legal_prussian(&s, &mut legal);
                    for a in legal {
                        prop_assert!(g.prussian_answer(&mut s, wrong, &a, &mut ev).is_err());
                    }
                    prop_assert!(g.prussian_answer(&mut s, p, &Action::Pass, &mut ev).is_err());
                    prop_assert_eq!(&s, &before, "a refused answer changes nothing");
                }
                (_, Some(p)) => {
                    let mut legal = Vec::new();
                    g.legal_prussian(&s, &mut legal);
                    prop_assert!(!legal.is_empty(), "a pending seat has answers");
                    let d = g.default_prussian(&s);
                    prop_assert!(d.as_ref().is_some_and(|d| legal.contains(d)), "the default is legal");
                    let a = legal[usize::from(v / 7) % legal.len()].clone();
                    prop_assert!(g.prussian_answer(&mut s, p, &a, &mut ev).is_ok(), "{:?} refused", a);
                }
                _ => {}
            }
            prop_assert_eq!(s.money(), money, "money is conserved");
            prop_assert_eq!(trains(&s), count, "trains are conserved");
            let reserved = s.majors[pr].certs.iter().filter(|c| c.at == Loc::Reserved).count();
            prop_assert_eq!(reserved, open_papers(&s), "a certificate leaves the reserve with its paper");
            let formed = g.pr_formed(&s);
            prop_assert_eq!(g.pr_president(&s).is_some(), formed);
            if let Some(p) = g.pr_president(&s) {
                let mine = g.percent_of(&s, pr, p);
                prop_assert!((0..4).all(|q| g.percent_of(&s, pr, q) <= mine), "the president holds the most");
            }
            let me = Entity::Major(u8::try_from(pr).unwrap_or(0));
            if formed && s.or.queue.first() != Some(&me) {
                prop_assert!(s.majors[pr].trains.len() <= g.train_limit(&s, me), "PR within its limit");
            }
        }
    }
}
