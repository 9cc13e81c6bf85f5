//! The Prussian's formation, exchanges and HR 10, one rule per test, on the four-player sold
//! packet with the papers dealt round the table (`dealt`).

use super::super::R1835;
use super::super::actions::{Action, Refusal};
use super::super::board::BoardState;
use super::super::board::state::Token;
use super::super::state::PrussianMoment;
use super::super::state::{Entity, Loc, Round, State};
use super::super::tests::{engine, sold_packet};
use super::PrussianAt;
use super::papers::take_over_token;
use crate::engine::Event;
use serde_json::json;

/// Owners (seat index) of M1–M6, then of BB and HB.
const OWNERS: [(&str, u8); 8] =
    [("M1", 0), ("M2", 1), ("M3", 2), ("M4", 3), ("M5", 1), ("M6", 2), ("BB", 0), ("HB", 3)];

/// The sold packet in operating round 4.1, the papers dealt as in `OWNERS`, every minor with
/// 50 M and M2 holding a 3-train, the queue M1–M6 then BY.
pub(super) fn dealt(g: &R1835) -> State {
    let mut s = sold_packet(g, json!({}));
    for (id, seat) in OWNERS {
        if let Some(m) = g.data().minor_index(id) {
            s.minors[m].owner = Some(seat);
            let diff = 50 - s.minors[m].cash;
            s.minors[m].cash += diff;
            s.bank -= diff;
        } else if let Some(x) = g.data().private_index(id) {
            s.privates[x].owner = Some(seat);
        }
    }
    let m2 = minor(g, "M2");
    s.minors[m2].trains.push("3".to_string());
    s.depot.rusted = s.depot.rusted.saturating_sub(1);
    s.round = Round::Operating { set: 4, n: 1, of: 2 };
    s.or.queue = (0..6).map(Entity::Minor).collect();
    s.or.queue.push(Entity::Major(u8::try_from(g.data().major_index("BY").unwrap_or(0)).unwrap_or(0)));
    s
}

pub(super) fn minor(g: &R1835, id: &str) -> usize {
    g.data().minor_index(id).unwrap_or(usize::MAX)
}

fn moment(g: &R1835, s: &mut State, m: PrussianMoment, at: PrussianAt) -> Vec<Event> {
    s.prussian_due.push(m);
    let mut ev = Vec::new();
    g.prussian_moments(s, at, &mut ev);
    ev
}

fn answer(g: &R1835, s: &mut State, p: u8, a: Action) -> Result<Vec<Event>, Refusal> {
    let mut ev = Vec::new();
    g.prussian_answer(s, p, &a, &mut ev).map(|_| ev)
}

fn form(g: &R1835, s: &mut State, p: u8) {
    answer(g, s, p, Action::FormPrussian { form: true }).expect("formation accepted");
}

fn exchange(paper: &str, accept: bool) -> Action {
    Action::ExchangeForPrussian { paper: paper.to_string(), accept }
}

/// Where the Prussian's certificate reserved for `paper` is now.
fn cert_of(g: &R1835, s: &State, paper: &str) -> Option<Loc> {
    let pr = g.pr();
    let i = g.data().majors[pr].certificates.iter().position(|c| {
        c.reserved_for.is_some_and(|r| match r {
            super::super::data::Paper::Minor(m) => g.data().minors[m].id == paper,
            super::super::data::Paper::Private(x) => g.data().privates[x].id == paper,
        })
    })?;
    s.majors[pr].certs.get(i).map(|c| c.at)
}

fn asked(s: &State) -> Vec<(u8, String)> {
    s.prussian.asks.iter().map(|a| (a.seat, a.paper.clone())).collect()
}

fn pr_entity(g: &R1835) -> Entity {
    Entity::Major(u8::try_from(g.pr()).unwrap_or(0))
}

#[test]
fn house_rule_10_lets_the_m2_owner_decide_first() {
    let g = engine();
    let mut s = dealt(&g);
    s.prussian.may_form = true;
    moment(&g, &mut s, PrussianMoment::MayForm, PrussianAt::OperatingRoundStart);
    assert_eq!(g.prussian_pending(&s), Some(1), "M2's owner is asked first");
    let mut legal = Vec::new();
    g.legal_prussian(&s, &mut legal);
    assert_eq!(legal, vec![Action::FormPrussian { form: true }, Action::FormPrussian { form: false }]);
    assert!(answer(&g, &mut s, 1, exchange("M5", true)).is_err(), "no exchange before the formation");
    assert!(answer(&g, &mut s, 0, Action::FormPrussian { form: true }).is_err(), "only M2's owner forms");
    form(&g, &mut s, 1);
    let order: Vec<u8> = s.prussian.asks.iter().map(|a| a.seat).collect();
    assert_eq!(order, vec![1, 2, 2, 3, 3, 0, 0], "then round the table from the new director (HR 10)");
}

#[test]
fn declining_the_formation_asks_again_at_the_start_of_the_next_round() {
    let g = engine();
    let mut s = dealt(&g);
    moment(&g, &mut s, PrussianMoment::MayForm, PrussianAt::TrainBought);
    answer(&g, &mut s, 1, Action::FormPrussian { form: false }).expect("declining is legal");
    assert_eq!(g.prussian_pending(&s), None);
    assert!(!g.pr_formed(&s));
    let mut ev = Vec::new();
    g.prussian_moments(&mut s, PrussianAt::StockRoundStart, &mut ev);
    assert_eq!(asked(&s), vec![(1, "M2".to_string())]);
}

#[test]
fn formation_gives_the_m2_owner_the_director_certificate_and_154_per_public_share_sold() {
    let g = engine();
    let mut s = dealt(&g);
    let pr = g.pr();
    let publics: Vec<usize> = (0..s.majors[pr].certs.len())
        .filter(|i| g.data().majors[pr].certificates[*i].reserved_for.is_none())
        .collect();
    s.majors[pr].certs[publics[0]].at = Loc::Player(0);
    s.majors[pr].certs[publics[1]].at = Loc::Pool;
    let money = s.money();
    moment(&g, &mut s, PrussianMoment::MayForm, PrussianAt::TrainBought);
    form(&g, &mut s, 1);
    assert_eq!(cert_of(&g, &s, "M2"), Some(Loc::Player(1)));
    assert!(s.majors[pr].certs.iter().find(|c| c.director).is_some_and(|c| c.at == Loc::Player(1)));
    assert_eq!(s.majors[pr].cash, 2 * 154 + 50, "two public shares at 154 plus M2's treasury");
    assert_eq!(s.majors[pr].trains, vec!["3".to_string()]);
    assert_eq!(s.majors[pr].price.map(|x| x.to_string()), Some("I4".to_string()));
    assert!(s.majors[pr].floated && s.minors[minor(&g, "M2")].closed);
    assert_eq!(s.money(), money);
}

#[test]
fn house_rule_10_keeps_a_prussian_formed_after_m2_operated_out_of_this_round() {
    let g = engine();
    let mut s = dealt(&g);
    s.or.queue.drain(..2); // M1 and M2 have operated; M3 operates now and buys the first 4
    moment(&g, &mut s, PrussianMoment::MayForm, PrussianAt::TrainBought);
    form(&g, &mut s, 1);
    assert!(!g.prussian_operates_this_or(&s));
    assert!(!s.or.queue.contains(&pr_entity(&g)), "not slotted into this round");
    let mut ev = Vec::new();
    g.prussian_moments(&mut s, PrussianAt::OperatingRoundStart, &mut ev);
    assert!(g.prussian_operates_this_or(&s), "it operates from the next round");
}

#[test]
fn a_prussian_formed_before_m2_operated_operates_in_this_round_before_cheaper_majors() {
    let g = engine();
    let mut s = dealt(&g);
    let by = s.or.queue[6];
    if let Entity::Major(c) = by {
        s.majors[usize::from(c)].price = Some(g.data().majors[usize::from(c)].start_space);
    }
    // M1 operates now and buys the first 4: M2 is still to operate.
    moment(&g, &mut s, PrussianMoment::MayForm, PrussianAt::TrainBought);
    form(&g, &mut s, 1);
    assert!(g.prussian_operates_this_or(&s));
    let at = s.or.queue.iter().position(|e| *e == pr_entity(&g));
    let by_at = s.or.queue.iter().position(|e| *e == by);
    assert!(
        at.is_some() && at < by_at,
        "PR at 154 goes before BY at its lower start price: {:?}",
        s.or.queue
    );
    assert!(!s.or.queue.contains(&Entity::Minor(1)), "M2 no longer operates");
}

#[test]
fn the_first_4_4_forms_the_prussian() {
    let g = engine();
    let mut s = dealt(&g);
    moment(&g, &mut s, PrussianMoment::MustForm, PrussianAt::TrainBought);
    assert!(g.pr_formed(&s), "formed without asking");
    assert_eq!(cert_of(&g, &s, "M2"), Some(Loc::Player(1)));
    assert_eq!(g.prussian_pending(&s), Some(1), "then everyone may exchange, from the director");
    assert!(s.prussian.asks.iter().all(|a| a.paper != "M2"));
}

#[test]
fn the_first_5_exchanges_every_remaining_paper() {
    let g = engine();
    let mut s = dealt(&g);
    moment(&g, &mut s, PrussianMoment::MustForm, PrussianAt::TrainBought);
    answer(&g, &mut s, 1, exchange("M5", true)).expect("M5 exchanged");
    moment(&g, &mut s, PrussianMoment::ForcedExchange, PrussianAt::TrainBought);
    assert!(s.minors.iter().all(|m| m.closed), "every minor exchanged");
    let held: Vec<u32> = (0..4).map(|p| g.percent_of(&s, g.pr(), p)).collect();
    assert_eq!(held, vec![15, 15, 10, 20], "M1+BB, M2+M5, M3+M6, M4+HB");
    assert_eq!(g.pr_president(&s), Some(3), "then the presidency is re-checked");
    let closed = |id: &str| g.data().private_index(id).is_some_and(|x| s.privates[x].closed);
    assert!(closed("BB") && closed("HB"));
    assert_eq!(g.prussian_pending(&s), None, "nothing left to ask");
    assert!(!s.majors[g.pr()].certs.iter().any(|c| c.at == Loc::Reserved));
}

#[test]
fn an_exchange_moves_a_minors_cash_and_trains_to_the_prussian() {
    let g = engine();
    let mut s = dealt(&g);
    let m4 = minor(&g, "M4");
    s.minors[m4].trains.push("2+2".to_string());
    s.depot.rusted = s.depot.rusted.saturating_sub(1);
    moment(&g, &mut s, PrussianMoment::MustForm, PrussianAt::TrainBought);
    let before = s.majors[g.pr()].cash;
    s.prussian.asks.retain(|a| a.seat == 3);
    answer(&g, &mut s, 3, exchange("M4", true)).expect("M4 exchanged");
    assert_eq!(s.majors[g.pr()].cash, before + 50);
    assert!(s.majors[g.pr()].trains.contains(&"2+2".to_string()));
    assert!(s.minors[m4].closed && s.minors[m4].cash == 0 && s.minors[m4].trains.is_empty());
    assert_eq!(cert_of(&g, &s, "M4"), Some(Loc::Player(3)));
    assert!(!s.or.queue.contains(&Entity::Minor(3)), "an exchanged minor no longer operates");
}

#[test]
fn an_exchange_that_gives_a_player_more_prussian_than_the_director_changes_the_presidency() {
    let g = engine();
    let mut s = dealt(&g);
    moment(&g, &mut s, PrussianMoment::MustForm, PrussianAt::TrainBought);
    s.prussian.asks.retain(|a| a.seat == 3);
    answer(&g, &mut s, 3, exchange("M4", true)).expect("M4");
    assert_eq!(g.pr_president(&s), Some(1), "10 % against 10 %: the director keeps it");
    answer(&g, &mut s, 3, exchange("HB", true)).expect("HB");
    assert_eq!(g.pr_president(&s), Some(3), "20 % against 10 %: seat 4 presides at once (RR §15.6)");
}

#[test]
fn ruling_k49_the_prussian_keeps_its_most_valuable_trains() {
    let g = engine();
    let mut s = dealt(&g);
    s.phase = u8::try_from(g.data().phases.iter().position(|p| p.id == "4").unwrap_or(0)).unwrap_or(0);
    let limit = g.train_limit(&s, pr_entity(&g));
    for (m, t) in [(0, "2"), (2, "4"), (3, "3"), (4, "2+2"), (5, "4")] {
        s.minors[m].trains.push(t.to_string());
        s.depot.rusted = s.depot.rusted.saturating_sub(1);
    }
    s.round = Round::Stock { n: 5 };
    moment(&g, &mut s, PrussianMoment::ForcedExchange, PrussianAt::TrainBought);
    let kept = &s.majors[g.pr()].trains;
    assert_eq!(kept.len(), limit);
    assert!(kept.iter().filter(|t| *t == "4").count() == 2 && kept.contains(&"3".to_string()), "{kept:?}");
    assert!(s.depot.pool.contains(&"2".to_string()));
}

#[test]
fn house_rule_10_withholds_the_prussian_income_of_a_paper_that_already_paid() {
    let g = engine();
    let mut s = dealt(&g);
    s.or.queue.drain(..4); // M1–M4 operated; M5 operates now and buys the first 4+4
    g.prussian_note_paid(&mut s, 2); // M3 ran a train and paid; M1 had none and paid nothing
    moment(&g, &mut s, PrussianMoment::MustForm, PrussianAt::TrainBought);
    assert!(!g.prussian_operates_this_or(&s), "M2 operated: PR sits out");
    s.prussian.sits_out = false; // the withholding is recorded whether or not PR operates
    for (p, paper) in asked(&s) {
        answer(&g, &mut s, p, exchange(&paper, true)).expect("accepted");
    }
    assert_eq!(g.prussian_withheld(&s, 2), 5, "M3 paid: its 5 % earns nothing; M6 had not operated");
    assert_eq!(g.prussian_withheld(&s, 0), 10, "BB paid at the start of the round; M1 paid nothing");
    assert_eq!(g.prussian_withheld(&s, 3), 10, "HB paid; M4 did not");
    let mut ev = Vec::new();
    g.prussian_moments(&mut s, PrussianAt::OperatingRoundStart, &mut ev);
    assert_eq!(g.prussian_withheld(&s, 0), 0, "only for that round");
}

#[test]
fn exchanges_at_the_start_of_a_round_withhold_nothing() {
    let g = engine();
    let mut s = dealt(&g);
    s.prussian.may_form = true;
    g.prussian_note_paid(&mut s, 2);
    let mut ev = Vec::new();
    g.prussian_moments(&mut s, PrussianAt::OperatingRoundStart, &mut ev);
    form(&g, &mut s, 1);
    for (p, paper) in asked(&s) {
        answer(&g, &mut s, p, exchange(&paper, true)).expect("accepted");
    }
    assert!((0..4).all(|p| g.prussian_withheld(&s, p) == 0));
}

#[test]
fn ruling_k50_a_seat_without_orders_declines() {
    let g = engine();
    let mut s = dealt(&g);
    moment(&g, &mut s, PrussianMoment::MayForm, PrussianAt::TrainBought);
    assert_eq!(g.default_prussian(&s), Some(Action::FormPrussian { form: false }));
    moment(&g, &mut s, PrussianMoment::MustForm, PrussianAt::TrainBought);
    assert_eq!(g.default_prussian(&s), Some(exchange("M5", false)));
    let mut legal = Vec::new();
    g.legal_prussian(&s, &mut legal);
    assert_eq!(legal, vec![exchange("M5", true), exchange("M5", false)]);
}

#[test]
fn a_minors_token_becomes_the_prussians_unless_it_already_has_one_there() {
    let tok = |c: &str, stop: u8| Token { company: c.to_string(), stop, bank: 0 };
    let mut board = BoardState::default();
    board.tokens.insert("E19".to_string(), vec![tok("M2", 1), tok("M5", 2)]);
    board.tokens.insert("G5".to_string(), vec![tok("M4", 0)]);
    take_over_token(&mut board, "M2", "PR");
    take_over_token(&mut board, "M5", "PR");
    take_over_token(&mut board, "M4", "PR");
    assert_eq!(board.tokens.get("E19"), Some(&vec![tok("PR", 1)]), "M5 in Berlin is removed");
    assert_eq!(board.tokens.get("G5"), Some(&vec![tok("PR", 0)]));
}

#[test]
fn later_exchanges_are_asked_once_around_the_table_from_the_priority_deal_in_a_stock_round() {
    let g = engine();
    let mut s = dealt(&g);
    moment(&g, &mut s, PrussianMoment::MustForm, PrussianAt::TrainBought);
    for (p, paper) in asked(&s) {
        answer(&g, &mut s, p, exchange(&paper, false)).expect("declined");
    }
    s.round = Round::Stock { n: 5 };
    s.priority = 2;
    let mut ev = Vec::new();
    g.prussian_moments(&mut s, PrussianAt::StockRoundStart, &mut ev);
    let order: Vec<u8> = s.prussian.asks.iter().map(|a| a.seat).collect();
    assert_eq!(order, vec![2, 2, 3, 3, 0, 0, 1], "from seat 3, the priority deal, once round (RULING K46)");
    g.prussian_moments(&mut s, PrussianAt::OperatingRoundStart, &mut ev);
    assert_eq!(g.prussian_pending(&s), Some(1), "in an operating round from the director (HR 10)");
}
