//! The shipped files load and match the fact sheet's counts; broken copies are refused with a
//! reason naming the file and the entry.

use super::*;

fn broken(edit: impl Fn(&mut [String; 4])) -> Result<Data, DataError> {
    let t = Texts::standard();
    let mut files =
        [t.map.to_string(), t.powers.to_string(), t.development.to_string(), t.actions.to_string()];
    edit(&mut files);
    Data::from_texts(&Texts { map: &files[0], powers: &files[1], development: &files[2], actions: &files[3] })
}

fn refused(edit: impl Fn(&mut [String; 4]), words: &str) {
    match broken(edit) {
        Ok(_) => panic!("a broken file was accepted (expected {words:?})"),
        Err(e) => assert!(e.to_string().contains(words), "{e} does not say {words:?}"),
    }
}

#[test]
fn the_shipped_data_loads_with_the_fact_sheets_counts() {
    let d = Data::standard().expect("the shipped data loads");
    assert_eq!(d.provinces.len(), 73);
    assert_eq!(d.provinces.iter().filter(|p| p.is_city()).count(), 19);
    let borders: usize = d.provinces.iter().map(|p| p.adjacent.len()).sum::<usize>() / 2;
    let straits: usize = d.provinces.iter().map(|p| p.straits.len()).sum::<usize>() / 2;
    assert_eq!((borders, straits), (149, 10));
    let dev = |k: DevType| d.dev.iter().filter(|c| c.kind == k).map(|c| usize::from(c.count)).sum::<usize>();
    assert_eq!((dev(DevType::Policy), dev(DevType::Institution), dev(DevType::Technology)), (40, 96, 90));
    assert_eq!(d.admin.iter().map(|c| usize::from(c.count)).sum::<usize>(), 94);
    assert_eq!(d.military.iter().map(|c| usize::from(c.count)).sum::<usize>(), 61);
    assert!(d.reconstructed.contains(&"map.toml"));
}

#[test]
fn every_province_the_rules_name_is_on_the_map_with_the_right_kind() {
    let d = Data::standard().expect("loads");
    for pw in &d.powers {
        let cities = pw.pops.iter().filter(|p| d.provinces[usize::from(**p)].is_city()).count();
        assert_eq!(cities, 2, "{}", pw.name);
    }
    let napoli = d.province_named("Napoli").expect("Napoli");
    assert!(!d.provinces[usize::from(napoli)].is_city());
}

#[test]
fn a_border_listed_on_one_side_only_is_refused() {
    refused(
        |f| f[0] = f[0].replacen("adjacent = [\"MID\"]", "adjacent = [\"MID\", \"PAR\"]", 1),
        "not the other way round",
    );
}

#[test]
fn a_start_that_is_not_connected_is_refused() {
    refused(
        |f| f[1] = f[1].replacen("\"Ireland\"]", "\"Bretagne\"]", 1),
        "start of Great Britain is not connected",
    );
    refused(
        |f| f[1] = f[1].replacen("\"Midlands\", \"Scotland\"", "\"Midlands\", \"Normandie\"", 1),
        "two powers",
    );
}

#[test]
fn a_province_the_rules_name_missing_from_the_map_is_refused() {
    refused(|f| f[0] = f[0].replace("name = \"Bursa\"", "name = \"Brusa\""), "Bursa");
}

#[test]
fn a_wrong_card_count_is_refused() {
    refused(|f| f[2] = f[2].replacen("count = 4", "count = 5", 1), "must have 226");
    refused(|f| f[3] = f[3].replacen("count = 10", "count = 11", 1), "must have 94");
}

#[test]
fn an_unknown_effect_or_key_is_refused() {
    refused(|f| f[2] = f[2].replacen("do = \"draw_admin\"", "do = \"draw_gold\"", 1), "development.toml");
    refused(
        |f| f[3] = f[3].replacen("kind = \"reinforcements\"", "kind = \"airlift\"", 1),
        "unknown military effect",
    );
    refused(|f| f[2] = f[2].replacen("slots = \"C\"", "slotz = \"C\"", 1), "unknown field");
    refused(|f| f[2] = f[2].replacen("slots = \"C\"", "slots = \"X\"", 1), "unknown resource square");
}

#[test]
fn a_requirement_of_an_unknown_kind_is_refused() {
    refused(|f| f[2] = f[2].replacen("what = \"factories\"", "what = \"castles\"", 1), "development.toml");
}

#[test]
fn ruling_e79_an_activation_by_admin_cards_alone_that_costs_none_or_gives_nothing_is_refused() {
    let alt = "alt = { admin_cost = 1, reward = [{ do = \"educate\", n = 2 }] }";
    refused(
        |f| f[2] = f[2].replacen(alt, "alt = { admin_cost = 0, reward = [{ do = \"educate\", n = 2 }] }", 1),
        "Public Schools: an `alt` activation needs admin_cost or military_cost from 1",
    );
    refused(
        |f| f[2] = f[2].replacen(alt, "alt = { admin_cost = 1, reward = [] }", 1),
        "needs admin_cost or military_cost from 1 and a reward",
    );
    refused(
        |f| f[2] = f[2].replacen(alt, "alt = { admin_cost = 1, reward = [{ do = \"educate\", n = 0 }] }", 1),
        "needs n from 1",
    );
    refused(|f| f[2] = f[2].replacen(alt, "alt = { admin_cost = 1, reward = [], extra = 1 }", 1), "extra");
    let d = Data::standard().expect("loads");
    let sp = &d.dev[usize::from(d.dev_named("Secret Police").unwrap())];
    assert_eq!(sp.alt.as_ref().map(|a| (a.admin_cost, a.reward.len())), Some((2, 3)));
}
