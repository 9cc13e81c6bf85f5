//! Whole scripted games (issue 14): the fixtures under `tests/fixtures/1835/`, made by the
//! directed driver (`directed.rs`), replayed through the engine from the start packet to the
//! final ranking. The events are found in what the engine did (its events and the states before
//! and after each action), not taken from the driver; a few moments are checked by hand against
//! the rules (FACTS §8, §9, §13).

use super::data::Paper;
use super::directed::{self, Script};
use super::ledger;
use super::state::{Loc, Round, State};
use super::tests::engine;
use super::{Action, R1835};
use crate::engine::prelude::*;
use crate::engine::{GameRng, SetupSpec, Viewer};
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The main fixture: ends by the bank breaking.
const WHOLE: &str = "whole_game";
/// The second fixture: M2's owner forms the Prussian at the first 4.
const EARLY: &str = "early_prussian_game";
/// The shorter fixture: ends by a bankruptcy.
const BANKRUPT: &str = "bankruptcy_game";
/// Every fixture.
const ALL: [&str; 3] = [WHOLE, EARLY, BANKRUPT];

/// The script of each fixture (the seeds were searched once for a game with every event).
fn script(name: &str) -> Script {
    let players = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect();
    match name {
        WHOLE => Script {
            players: players(&["Ann", "Bob", "Cy", "Di"]),
            options: json!({}),
            seed: 14,
            choices: WHOLE_CHOICES,
            form_at_first_4: false,
            starved_seat: 0,
            concentrate: true,
            title: "1835, a whole game to the bank break: M2's owner declines at the first 4, the Prussian forms at the first 4+4, every paper converts at the first 5".into(),
        },
        BANKRUPT => Script {
            choices: BANKRUPT_CHOICES,
            title: "1835, a shorter whole game: a president cannot pay for a compulsory train and goes bankrupt".into(),
            ..script(WHOLE)
        },
        _ => Script {
            players: players(&["Ann", "Bob", "Cy"]),
            options: json!({}),
            seed: 14,
            choices: EARLY_CHOICES,
            form_at_first_4: true,
            starved_seat: 0,
            concentrate: false,
            title: "1835, a second whole game to the bank break: M2's owner forms the Prussian at the first 4".into(),
        },
    }
}

const WHOLE_CHOICES: u64 = 21;
const EARLY_CHOICES: u64 = 4;
const BANKRUPT_CHOICES: u64 = 15;

fn fixture_path(name: &str, ext: &str) -> String {
    format!("{}/tests/fixtures/1835/{name}.{ext}", env!("CARGO_MANIFEST_DIR"))
}

/// The game file beside a log: players, options, seed (what `replay` needs).
fn game_file(s: &Script) -> String {
    let v = json!({"players": s.players, "options": s.options, "seed": s.seed});
    format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
}

/// A fixture as committed: its log and its game file.
struct Fixture {
    log: String,
    players: Vec<String>,
    options: Value,
    seed: u64,
}

fn fixture(name: &str) -> Fixture {
    let log = std::fs::read_to_string(fixture_path(name, "jsonl")).expect("the fixture's log");
    let game: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture_path(name, "json")).expect("the game file"))
            .expect("JSON");
    let players =
        game["players"].as_array().expect("players").iter().map(|x| x.as_str().unwrap_or("").to_string());
    Fixture {
        log,
        players: players.collect(),
        options: game["options"].clone(),
        seed: game["seed"].as_u64().expect("seed"),
    }
}

/// One action of a replayed game: the state before and after, and the engine's event texts.
struct Step {
    before: State,
    seat: u8,
    action: Action,
    after: State,
    events: Vec<String>,
}

/// Replays a fixture action by action through the engine (not the ledger), keeping every step.
fn steps(g: &R1835, f: &Fixture) -> Vec<Step> {
    let seats = u8::try_from(f.players.len()).expect("seats");
    let spec = SetupSpec { seats, options: f.options.clone() };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(f.seed)).expect("setup");
    let mut out = Vec::new();
    for (seq, line) in f.log.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).enumerate() {
        let v: Value = serde_json::from_str(line).expect("a log line");
        let action: Action = serde_json::from_value(v["action"].clone()).expect("an action");
        let seat = u8::try_from(v["seat"].as_u64().expect("seat")).expect("seat");
        let d = g.next_decision(&s).expect("the game awaits an action");
        assert_eq!(d.seat.0, seat, "line {seq}: the seat to act");
        let before = s.clone();
        let ev = g.apply(&mut s, &action, &mut GameRng::for_action(f.seed, seq as u64)).expect("replays");
        let events = ev.iter().map(|e| e.public.clone()).collect();
        out.push(Step { before, seat, action, after: s.clone(), events });
    }
    out
}

/// The steps of a committed fixture, replayed once per test binary.
fn replayed(name: &str) -> &'static [Step] {
    static WHOLE_STEPS: OnceLock<Vec<Step>> = OnceLock::new();
    static EARLY_STEPS: OnceLock<Vec<Step>> = OnceLock::new();
    static BANKRUPT_STEPS: OnceLock<Vec<Step>> = OnceLock::new();
    let cell = match name {
        WHOLE => &WHOLE_STEPS,
        EARLY => &EARLY_STEPS,
        _ => &BANKRUPT_STEPS,
    };
    cell.get_or_init(|| steps(&engine(), &fixture(name)))
}

/// Trains of `name` held by companies, minors and the pool.
fn held(s: &State, name: &str) -> usize {
    let count = |ts: &Vec<String>| ts.iter().filter(|t| *t == name).count();
    s.majors.iter().map(|c| count(&c.trains)).sum::<usize>()
        + s.minors.iter().map(|m| count(&m.trains)).sum::<usize>()
        + count(&s.depot.pool)
}

fn pr(g: &R1835) -> usize {
    g.data().majors.iter().position(|m| m.prussian).expect("PR")
}

fn formed(g: &R1835, s: &State) -> bool {
    s.majors[pr(g)].floated
}

fn bought_from_bank(st: &Step) -> Option<&str> {
    match &st.action {
        Action::BuyTrain { train, from, .. } if from == "bank" => Some(train),
        _ => None,
    }
}

/// The step of a fixture in which the first `train` was bought from the bank.
fn first_purchase(name: &str, train: &str) -> &'static Step {
    let found = replayed(name).iter().find(|st| bought_from_bank(st) == Some(train));
    found.unwrap_or_else(|| panic!("{name} has a first {train}"))
}

/// Which of issue 14's event kinds the game shows, found in the engine's states and events.
#[derive(Debug, Default, PartialEq, Eq)]
struct Found {
    declined_at_first_4: bool,
    formed_at_first_4: bool,
    formed_at_first_4_4: bool,
    converted_at_first_5: bool,
    rusted: Vec<String>,
    president_paid: bool,
    emergency_sale: bool,
    nationalised: bool,
    bank_broke: bool,
    bankrupt: bool,
    ranked: bool,
}

fn find(g: &R1835, steps: &[Step]) -> Found {
    let mut f = Found::default();
    for st in steps {
        let (b, a) = (&st.before, &st.after);
        match &st.action {
            Action::FormPrussian { form: false } if !formed(g, a) && a.prussian.may_form => {
                f.declined_at_first_4 = true
            }
            Action::FormPrussian { form: true } if !formed(g, b) && formed(g, a) => {
                f.formed_at_first_4 = true
            }
            Action::Sell { .. } if matches!(b.round, Round::Operating { .. }) => f.emergency_sale = true,
            Action::Nationalise { .. } => f.nationalised = true,
            _ => {}
        }
        if bought_from_bank(st) == Some("4+4") && !formed(g, b) && formed(g, a) {
            f.formed_at_first_4_4 = true;
        }
        let open_papers = |s: &State| s.minors.iter().filter(|m| m.owner.is_some() && !m.closed).count();
        if bought_from_bank(st) == Some("5") && open_papers(b) > 0 && open_papers(a) == 0 {
            f.converted_at_first_5 = true;
        }
        if let Some(by) = bought_from_bank(st) {
            for t in &g.data().trains {
                if t.rusts_on.as_deref() == Some(by) && held(b, &t.name) > 0 && held(a, &t.name) == 0 {
                    f.rusted.push(t.name.clone());
                }
            }
        }
        if matches!(st.action, Action::BuyTrain { .. }) && matches!(b.round, Round::Operating { .. }) {
            let p = usize::from(st.seat - 1);
            f.president_paid |= a.players[p].cash < b.players[p].cash;
        }
        f.bank_broke |= b.end.is_none() && a.end.is_some() && a.bank <= 0;
        f.bankrupt |= st.events.iter().any(|e| e.contains("is bankrupt"));
    }
    f.ranked =
        steps.last().is_some_and(|st| st.after.round == Round::Over && g.standings(&st.after).is_some());
    f
}

/// Plays a script with the directed driver.
fn regenerate(g: &R1835, name: &str) -> directed::Played {
    directed::play(g, &script(name)).expect("the driver plays the game to the end")
}

#[test]
#[ignore = "writes the fixtures: REGENERATE=1 cargo test --lib tests_whole_game::write -- --ignored"]
fn write_the_fixtures() {
    let g = engine();
    for name in ALL {
        let played = regenerate(&g, name);
        if std::env::var("REGENERATE").is_ok() {
            std::fs::write(fixture_path(name, "jsonl"), &played.log).expect("write the log");
            std::fs::write(fixture_path(name, "json"), game_file(&script(name)))
                .expect("write the game file");
        }
    }
}

#[test]
#[ignore = "searches choice seeds: cargo test --lib tests_whole_game::search -- --ignored --nocapture"]
fn search_for_choice_seeds() {
    let g = engine();
    let names = std::env::var("NAMES").unwrap_or_else(|_| format!("{WHOLE},{EARLY}"));
    for name in names.split(',') {
        let start = std::env::var("START").ok().and_then(|x| x.parse().ok()).unwrap_or(0u64);
        for choices in start..std::env::var("SEEDS").ok().and_then(|x| x.parse().ok()).unwrap_or(4u64) {
            let mut sc = script(name);
            sc.choices = choices;
            sc.concentrate = std::env::var("CONCENTRATE").is_ok_and(|x| x == "1");
            let Ok(played) = directed::play(&g, &sc) else { continue };
            let f = Fixture {
                log: played.log,
                players: sc.players.clone(),
                options: sc.options.clone(),
                seed: sc.seed,
            };
            let found = find(&g, &steps(&g, &f));
            let end = &played.state;
            let phase = &g.data().phases[usize::from(end.phase)].id;
            println!("{name} {choices}: {} lines, phase {phase}, {found:?}", f.log.lines().count());
        }
    }
}

#[test]
fn regenerating_the_fixtures_with_the_directed_driver_gives_the_committed_bytes() {
    let g = engine();
    for name in ALL {
        let played = regenerate(&g, name);
        let committed = std::fs::read_to_string(fixture_path(name, "jsonl")).expect("the fixture");
        assert!(played.log == committed, "{name}.jsonl differs from what the driver plays now");
        let file = std::fs::read_to_string(fixture_path(name, "json")).expect("the game file");
        assert_eq!(file, game_file(&script(name)), "{name}.json");
    }
}

#[test]
fn the_whole_game_fixture_replays_through_the_engine_to_the_final_ranking() {
    let g = engine();
    let f = fixture(WHOLE);
    let r = ledger::replay(&g, &f.players, &f.options, f.seed, &f.log).expect("the fixture replays");
    assert_eq!(r.state.round, Round::Over);
    let finals = r.finals.as_ref().expect("standings at the end");
    assert_eq!(finals.len(), f.players.len());
    assert_eq!(finals.iter().filter(|x| x.1 == 1).count(), 1, "one winner: {finals:?}");
    // K12: the worth is cash plus certificates at the market price.
    for (p, name) in f.players.iter().enumerate() {
        let worth = g.worth(&r.state, u8::try_from(p).expect("seat"));
        let line = format!("\nfinal,{name},{worth}\n");
        assert!(r.csv().contains(&line), "{line} in the ledger");
    }
}

#[test]
fn replayed_twice_the_whole_games_give_byte_identical_ledgers() {
    let g = engine();
    for name in ALL {
        let f = fixture(name);
        let a = ledger::replay(&g, &f.players, &f.options, f.seed, &f.log).expect("replays");
        let b = ledger::replay(&g, &f.players, &f.options, f.seed, &f.log).expect("replays again");
        assert_eq!(a.csv(), b.csv());
        assert_eq!(a.state, b.state);
        // The ledger's replay and the step-by-step replay reach the same end.
        assert_eq!(replayed(name).last().map(|st| &st.after), Some(&a.state));
    }
}

#[test]
fn the_whole_game_shows_every_event_kind_issue_14_asks_for() {
    let g = engine();
    let found = find(&g, replayed(WHOLE));
    assert!(found.declined_at_first_4, "M2's owner asked at the first 4 (declines): {found:?}");
    assert!(found.formed_at_first_4_4, "the Prussian formed at the first 4+4: {found:?}");
    assert!(found.converted_at_first_5, "every paper converted at the first 5: {found:?}");
    let mut rusted = found.rusted.clone();
    rusted.sort();
    assert_eq!(rusted, ["2", "2+2", "3", "3+3"], "every generation that rusts rusted once");
    assert!(found.president_paid, "a forced purchase with the director's cash (HR 9): {found:?}");
    assert!(found.emergency_sale, "an emergency sale (FACTS §13): {found:?}");
    assert!(found.nationalised, "a nationalisation (FACTS §6): {found:?}");
    assert!(
        found.bank_broke && !found.bankrupt && found.ranked,
        "the bank broke, then the ranking: {found:?}"
    );
}

#[test]
fn in_the_second_game_m2s_owner_forms_the_prussian_at_the_first_4() {
    let g = engine();
    let steps = replayed(EARLY);
    let found = find(&g, steps);
    assert!(found.formed_at_first_4 && !found.formed_at_first_4_4, "{found:?}");
    assert!(found.converted_at_first_5 && found.ranked, "{found:?}");
    // FACTS §9: the answer comes right after the first 4, before anything else happens.
    let k = steps.iter().position(|st| bought_from_bank(st) == Some("4")).expect("a first 4");
    let next = &steps[k + 1];
    assert_eq!(next.action, Action::FormPrussian { form: true });
    assert!(next.events.iter().any(|e| e.contains("forms the Prussian with M2")), "{:?}", next.events);
}

#[test]
fn the_shorter_game_ends_by_a_bankruptcy_with_the_players_certificates_in_the_pool() {
    let g = engine();
    let steps = replayed(BANKRUPT);
    let found = find(&g, steps);
    assert!(found.bankrupt && found.ranked && !found.bank_broke, "{found:?}");
    // RULING K39: the president's cash went into the train, the bank paid the rest, every
    // certificate the player held went to the pool, and the game ended at once.
    let last = steps.last().expect("a step");
    let p = last.seat - 1;
    assert!(matches!(last.action, Action::BuyTrain { .. }), "{:?}", last.action);
    assert!(
        last.events.iter().any(|e| e.contains(&format!("seat {} cannot pay", p + 1))),
        "{:?}",
        last.events
    );
    assert!(last.after.majors.iter().all(|c| c.certs.iter().all(|x| x.at != Loc::Player(p))));
    assert_eq!(last.after.players[usize::from(p)].cash, 0);
    assert_eq!(last.after.round, Round::Over);
    let ranking = g.standings(&last.after).expect("the final ranking");
    let bankrupt = ranking.iter().find(|x| x.seat.0 == last.seat).expect("the bankrupt seat is ranked");
    assert_eq!(bankrupt.score, "0 M");
}

#[test]
fn money_certificates_and_trains_are_conserved_after_every_action_of_the_whole_games() {
    let g = engine();
    for name in ALL {
        for (i, st) in replayed(name).iter().enumerate() {
            let s = &st.after;
            assert_eq!(s.money(), 12000, "{name}: money after action {i} ({:?})", st.action);
            assert_eq!(g.trains_accounted(s), 33, "{name}: trains after action {i} ({:?})", st.action);
            for (co, c) in s.majors.iter().enumerate() {
                let spec = &g.data().majors[co].certificates;
                let total: u32 = c.certs.iter().map(|x| u32::from(x.percent)).sum();
                assert_eq!(c.certs.len(), spec.len(), "{name}: {}'s certificates", c.id);
                assert_eq!(total, 100, "{name}: {}'s certificates", c.id);
            }
        }
    }
}

#[test]
fn facts_8_the_first_4_rusts_every_2_train_in_companies_and_the_pool() {
    let g = engine();
    let st = first_purchase(WHOLE, "4");
    let before = held(&st.before, "2");
    assert!(before > 0, "2-trains were running before the first 4");
    assert_eq!(held(&st.after, "2"), 0);
    assert_eq!(st.after.depot.rusted, st.before.depot.rusted + u32::try_from(before).expect("count"));
    assert!(st.events.iter().any(|e| e.contains("rust")), "{:?}", st.events);
    // The first 4 starts phase 2.3 (trains.toml, FACTS §8).
    assert_eq!(g.data().phases[usize::from(st.after.phase)].id, "2.3");
}

#[test]
fn facts_9_at_the_first_4_4_the_prussian_forms_from_m2_with_its_cash_trains_and_berlin_token() {
    let g = engine();
    let st = first_purchase(WHOLE, "4+4");
    let (b, a, pr) = (&st.before, &st.after, pr(&g));
    assert!(!formed(&g, b) && formed(&g, a), "the Prussian forms at the first 4+4");
    let m2 = g.data().minors.iter().position(|m| m.forms_prussian).expect("M2");
    let owner = b.minors[m2].owner.expect("M2 has an owner");
    assert!(a.minors[m2].closed, "M2's charter is returned (FACTS §9 step 1)");
    // Step 1: M2's owner gets PR's 10 % director's certificate; the presidency is then settled
    // at once (RR §15.6): a player holding more PR takes the director's certificate and hands
    // the owner 10 % for it. No other reserved certificate moves.
    let percent = |s: &State, p: u8| g.percent_of(s, pr, p);
    assert_eq!(percent(a, owner), percent(b, owner) + 10, "M2's owner gains 10 % of PR");
    let president = g.president(a, pr).expect("PR has a president");
    let most = (0..a.n()).map(|p| percent(a, p)).max().unwrap_or(0);
    assert_eq!(percent(a, president), most, "the largest holder directs PR");
    for (i, spec) in g.data().majors[pr].certificates.iter().enumerate() {
        let (was, now) = (b.majors[pr].certs[i].at, a.majors[pr].certs[i].at);
        if spec.reserved_for == Some(Paper::Minor(m2)) {
            assert!(spec.director && spec.percent == 10);
            assert_eq!((was, now), (Loc::Reserved, Loc::Player(president)));
        } else if spec.reserved_for.is_some() {
            assert_eq!(was, now, "reserved certificate {i} of PR stays in the reserve");
        } else if was != now {
            let swapped = (was, now) == (Loc::Player(president), Loc::Player(owner));
            assert!(swapped && president != owner, "certificate {i}: {was:?} to {now:?}");
        }
    }
    // Step 2: on its start space (154), floated.
    assert_eq!(a.majors[pr].price, Some(g.data().majors[pr].start_space));
    let price = g.data().market.price(g.data().majors[pr].start_space);
    assert_eq!(price, 154);
    // Step 3: 154 per public 10 % already sold, plus M2's treasury and trains.
    let public = g.data().majors[pr]
        .certificates
        .iter()
        .zip(&b.majors[pr].certs)
        .filter(|(spec, c)| spec.reserved_for.is_none() && matches!(c.at, Loc::Player(_) | Loc::Pool))
        .count();
    let buyer_is_m2 = b.or.queue.first() == Some(&super::state::Entity::Minor(u8::try_from(m2).expect("M2")));
    let price_4_4 = match &st.action {
        Action::BuyTrain { price, .. } => *price,
        _ => 0,
    };
    let m2_cash = b.minors[m2].cash - if buyer_is_m2 { price_4_4 } else { 0 };
    assert_eq!(a.majors[pr].cash, b.majors[pr].cash + 154 * i64::try_from(public).expect("n") + m2_cash);
    // M2's trains, less those the 4+4 rusted (2+2), are PR's (FACTS §8: 2s rusted at the first 4).
    let mut m2_trains: Vec<String> = b.minors[m2].trains.iter().filter(|t| *t != "2+2").cloned().collect();
    if buyer_is_m2 {
        m2_trains.push("4+4".into());
    }
    let mut pr_trains = a.majors[pr].trains.clone();
    let pool_gain = a.depot.pool.len().saturating_sub(b.depot.pool.len());
    assert_eq!(pr_trains.len() + pool_gain.min(m2_trains.len()), m2_trains.len().max(pr_trains.len()));
    pr_trains.sort();
    m2_trains.sort();
    assert!(pr_trains.iter().all(|t| m2_trains.contains(t)), "PR {pr_trains:?} from M2 {m2_trains:?}");
    // M2's token in Berlin (E19) is PR's home station.
    let home = &g.data().minors[m2].home;
    let tokens = a.board.tokens.get(home.as_str()).expect("Berlin's tokens");
    assert!(tokens.iter().any(|t| t.company == "PR") && !tokens.iter().any(|t| t.company == "M2"));
}

#[test]
fn facts_9_at_the_first_5_every_remaining_paper_becomes_its_reserved_prussian_certificate() {
    let g = engine();
    let st = first_purchase(WHOLE, "5");
    let (b, a, pr) = (&st.before, &st.after, pr(&g));
    let mut papers = 0;
    for (i, spec) in g.data().majors[pr].certificates.iter().enumerate() {
        let owner = match spec.reserved_for {
            Some(Paper::Minor(m)) => b.minors[m].owner.filter(|_| !b.minors[m].closed),
            Some(Paper::Private(x)) => b.privates[x].owner.filter(|_| !b.privates[x].closed),
            None => None,
        };
        let Some(owner) = owner else { continue };
        papers += 1;
        // M4, BB, HB give 10 %, M1, M3, M5, M6 5 % (FACTS §9).
        let id = match spec.reserved_for {
            Some(Paper::Minor(m)) => g.data().minors[m].id.clone(),
            Some(Paper::Private(x)) => g.data().privates[x].id.clone(),
            None => String::new(),
        };
        let want = if ["M4", "BB", "HB"].contains(&id.as_str()) { 10 } else { 5 };
        assert_eq!(spec.percent, want, "{id}'s certificate");
        assert_eq!(
            a.majors[pr].certs[i].at,
            Loc::Player(owner),
            "{id} went to its owner, seat {}",
            owner + 1
        );
    }
    assert!(papers > 0, "papers were still open at the first 5");
    assert!(a.minors.iter().all(|m| m.closed && m.trains.is_empty() && m.cash == 0), "every minor is gone");
    assert!(
        a.privates.iter().filter(|x| x.id == "BB" || x.id == "HB").all(|x| x.closed || x.owner.is_none())
    );
}

#[test]
fn k13_after_the_bank_breaks_the_operating_round_is_finished_and_then_the_final_ranking() {
    let g = engine();
    let f = fixture(WHOLE);
    let steps = replayed(WHOLE);
    let k = steps.iter().position(|st| st.before.end.is_none() && st.after.end.is_some()).expect("the break");
    let plan = steps[k].after.end.expect("an end plan");
    let Round::Operating { set, n, .. } = steps[k].before.round else {
        panic!("the fixture's bank breaks in an operating round")
    };
    // K13: it broke in an operating round, so that round is the last.
    assert_eq!((plan.set, plan.n), (set, n));
    assert!(steps[k].events.iter().any(|e| e.contains("The bank has broken")));
    for st in &steps[k + 1..] {
        let now = st.before.round;
        assert!(matches!(now, Round::Operating { set: s2, n: n2, .. } if (s2, n2) == (set, n)), "{now:?}");
        assert!(st.after.bank <= 0, "the bank stays broken");
    }
    // The round is played to its end: every company still in the queue operated.
    assert!(steps.last().is_some_and(|st| st.after.round == Round::Over && st.after.or.queue.is_empty()));
    let r = ledger::replay(&g, &f.players, &f.options, f.seed, &f.log).expect("replays");
    let last_round = r.rows.last().map(|x| x.round.clone());
    assert_eq!(last_round, Some(format!("OR{set}.{n}")), "the ledger's last round is the bank's last");
}

#[test]
fn while_the_prussian_asks_every_viewer_sees_who_is_asked_what_and_the_seat_asked_a_clear_prompt() {
    let g = engine();
    let steps = replayed(WHOLE);
    let mut seen = (false, false);
    for st in steps.iter().filter(|st| !st.before.prussian.asks.is_empty()) {
        let s = &st.before;
        let d = g.next_decision(s).expect("a decision");
        let first = &s.prussian.asks[0];
        assert_eq!(d.seat.0, first.seat + 1, "the seat asked is the seat to act");
        let views: Vec<Value> = [Viewer::Public, Viewer::Gm]
            .into_iter()
            .chain((1..=s.n()).map(|k| Viewer::Seat(crate::engine::Seat(k))))
            .map(|v| g.view(s, v))
            .collect();
        assert!(views.windows(2).all(|w| w[0] == w[1]), "1835 is open information: one view for all");
        let pr = &views[0]["prussian"];
        assert_eq!(pr["asking"]["seat"], json!(first.seat + 1));
        let asked: Vec<&str> = pr["asking"]["asks"]
            .as_array()
            .expect("asks")
            .iter()
            .filter_map(|a| a["paper"].as_str())
            .collect();
        let waiting = pr["waiting"].as_array().expect("waiting").len();
        assert_eq!(asked.len() + waiting, s.prussian.asks.len(), "every question is shown");
        assert!(asked.contains(&first.paper.as_str()));
        let text = g.describe(s, Viewer::Public);
        assert!(
            text.contains(&format!("Prussian question (FACTS §9), seat {} asked now", first.seat + 1)),
            "{text}"
        );
        if first.paper == "M2" {
            assert!(
                d.prompt.contains("form the Prussian with M2, receiving PR's 10 % director's certificate")
            );
            assert!(
                d.prompt.contains("FORM PR")
                    && d.prompt.contains("DECLINE PR")
                    && d.prompt.contains("RULING K50"),
                "{}",
                d.prompt
            );
            seen.0 = true;
        } else {
            let want = if ["M4", "BB", "HB"].contains(&first.paper.as_str()) { "10 %" } else { "5 %" };
            let ask = format!("exchange {} for a {want} Prussian certificate", first.paper);
            assert!(d.prompt.contains(&ask), "{}", d.prompt);
            assert!(text.contains(&ask), "{text}");
            seen.1 = true;
        }
    }
    assert_eq!(seen, (true, true), "the fixture asks both questions");
    // No question open: the view says so.
    let last = &steps.last().expect("a step").after;
    assert_eq!(g.view(last, Viewer::Public)["prussian"]["asking"], Value::Null);
    assert!(!g.describe(last, Viewer::Public).contains("Prussian question"));
}

#[test]
fn the_report_says_where_everything_stands_after_every_round() {
    // Issue 15: cash and certificates, treasuries and trains after each round, as an event
    // when the next round begins (what a multi-round turn's report lists round by round).
    let steps = replayed(WHOLE);
    let mut summaries = 0;
    for st in steps.iter().filter(|st| st.after.round_seq != st.before.round_seq) {
        let ended = st.before.round.name();
        let line = st
            .events
            .iter()
            .find(|e| e.starts_with(&format!("After {ended}: ")))
            .unwrap_or_else(|| panic!("no summary after {ended}: {:?}", st.events));
        let p0 = &st.before.players[0];
        assert!(
            line.contains(&format!("seat 1 {} M", p0.cash)) || st.after.players[0].cash != p0.cash,
            "{line}"
        );
        assert!(
            line.contains(&format!("bank {} M", st.before.bank)) || st.after.bank != st.before.bank,
            "{line}"
        );
        if let Some(c) = st.before.majors.iter().find(|c| c.floated && !c.trains.is_empty()) {
            assert!(
                line.contains(&format!("{} at ", c.id))
                    && line.contains(&format!("trains [{}]", c.trains.join(", "))),
                "{line}"
            );
        }
        summaries += 1;
    }
    assert!(summaries > 20, "a whole game has many rounds: {summaries}");
}
