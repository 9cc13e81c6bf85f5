//! The data files against the counts in FACTS.md, and broken files refused with the file and
//! entry named.

use super::board::neighbour;
use super::*;

fn data() -> Data {
    Data::standard().expect("the standard 1835 data loads")
}

#[test]
fn the_manifest_has_147_tiles_63_yellow_53_green_31_brown() {
    let d = data();
    let count = |c: &str| d.tiles.iter().filter(|t| t.colour == c).map(|t| u32::from(t.count)).sum::<u32>();
    assert_eq!((count("yellow"), count("green"), count("brown")), (63, 53, 31));
    assert_eq!(d.tiles.iter().map(|t| u32::from(t.count)).sum::<u32>(), 147);
    assert_eq!(d.preprinted.len(), 25);
}

#[test]
fn the_market_has_74_spaces_from_54_to_418_and_the_par_prices_of_facts() {
    // FACTS §5.1 says "75 spaces", but its own grid, Rails (74 StockSpace entries) and
    // 18xx.games (rows of 12, 14, 15, 12, 9, 7, 5) all have 74: the summary line miscounts.
    let d = data();
    assert_eq!(d.market.space_count(), 74);
    let all: Vec<i64> = d.market.prices.iter().flatten().copied().filter(|p| *p > 0).collect();
    assert_eq!(all.iter().min(), Some(&54));
    assert_eq!(all.iter().max(), Some(&418));
    let par = |id: &str| d.majors[d.major_index(id).unwrap()].par;
    assert_eq!([par("BY"), par("SX"), par("BA"), par("WT"), par("HE")], [92, 88, 84, 84, 84]);
    assert_eq!([par("MS"), par("OL"), par("PR")], [80, 80, 154]);
}

#[test]
fn players_cash_and_limits_follow_facts_section_1() {
    let d = data();
    let rows: Vec<(u8, i64, u8)> = d.players.iter().map(|p| (p.count, p.cash, p.cert_limit)).collect();
    assert_eq!(rows, vec![(3, 600, 19), (4, 475, 15), (5, 390, 12), (6, 340, 11), (7, 310, 9)]);
    assert_eq!((d.bank, d.pool_limit, d.cert_bonus_at), (12000, 50, 80));
}

#[test]
fn six_minors_eight_share_companies_and_six_privates() {
    let d = data();
    let ids = |v: Vec<&str>| v.join(" ");
    assert_eq!(ids(d.minors.iter().map(|m| m.id.as_str()).collect()), "M1 M2 M3 M4 M5 M6");
    assert_eq!(ids(d.majors.iter().map(|m| m.id.as_str()).collect()), "BY SX BA WT HE MS OL PR");
    assert_eq!(ids(d.privates.iter().map(|m| m.id.as_str()).collect()), "NF OBB PfB LD BB HB");
    let minor_prices: Vec<i64> = d.minors.iter().map(|m| m.price).collect();
    assert_eq!(minor_prices, vec![80, 170, 80, 160, 80, 80]);
}

#[test]
fn the_prussian_has_a_10_percent_director_four_public_and_reserved_exchange_shares() {
    let d = data();
    let pr = &d.majors[d.major_index("PR").unwrap()];
    assert!(pr.prussian);
    assert_eq!(pr.director_percent(), 10);
    let public: Vec<u8> =
        pr.certificates.iter().filter(|c| c.reserved_for.is_none()).map(|c| c.percent).collect();
    assert_eq!(public, vec![10, 10, 10, 10]);
    let reserved = |p: Paper| pr.certificates.iter().find(|c| c.reserved_for == Some(p)).map(|c| c.percent);
    assert_eq!(reserved(Paper::Minor(1)), Some(10), "M2 gets the director's certificate");
    assert_eq!(reserved(Paper::Minor(3)), Some(10), "M4");
    for m in [0, 2, 4, 5] {
        assert_eq!(reserved(Paper::Minor(m)), Some(5), "M{}", m + 1);
    }
    assert_eq!(reserved(Paper::Private(d.private_index("BB").unwrap())), Some(10));
    assert_eq!(reserved(Paper::Private(d.private_index("HB").unwrap())), Some(10));
}

#[test]
fn the_start_packet_has_13_items_in_4_rows_worth_1684() {
    let d = data();
    assert_eq!(d.packet.len(), 13);
    assert_eq!(d.packet.iter().map(|i| i.price).sum::<i64>(), 1684);
    let rows: Vec<usize> = (0..4).map(|r| d.packet.iter().filter(|i| i.row == r).count()).collect();
    assert_eq!(rows, vec![1, 3, 4, 5]);
    assert_eq!(d.packet[d.item_index("BY").unwrap()].price, 184);
}

#[test]
fn there_are_33_trains_worth_9930_and_seven_phases() {
    let d = data();
    assert_eq!(d.trains.iter().map(|t| u32::from(t.count)).sum::<u32>(), 33);
    assert_eq!(d.trains.iter().map(|t| i64::from(t.count) * t.price).sum::<i64>(), 9930);
    assert_eq!(d.phases.len(), 7);
    assert_eq!(d.phases.iter().map(|p| p.operating_rounds).collect::<Vec<_>>(), vec![1, 2, 2, 2, 3, 3, 3]);
}

#[test]
fn the_map_has_126_hexes_and_every_home_hex_is_a_city_on_it() {
    let d = data();
    assert_eq!(d.hexes.len(), 126);
    for (id, home) in
        d.minors.iter().map(|m| (&m.id, &m.home)).chain(d.majors.iter().map(|m| (&m.id, &m.home)))
    {
        let hex = d.hex(home).unwrap_or_else(|| panic!("{id}'s home {home} is on the map"));
        assert!(
            d.preprinted_tile(&hex.tile).is_some_and(|t| t.cities() > 0),
            "{id}'s home {home} has a city"
        );
    }
    // Ostpreußen, Oberschlesien and the two Elsass-Lothringen hexes (18xx.games' hidden I21
    // is not a hex of the printed board).
    assert_eq!(d.hexes.iter().filter(|h| h.offboard.is_some()).count(), 4);
}

#[test]
fn every_preprinted_track_end_leads_onto_the_map() {
    let d = data();
    for hex in &d.hexes {
        let tile = d.preprinted_tile(&hex.tile).expect("tile exists");
        let sides = tile
            .stops
            .iter()
            .flat_map(|s| s.exits.iter().copied())
            .chain(tile.track.iter().flatten().copied());
        for side in sides {
            let map_side = (side + hex.rotation) % 6;
            let across = neighbour(&hex.at, map_side).unwrap_or_default();
            assert!(
                d.hex(&across).is_some(),
                "{} side {side} (map side {map_side}) leads to {across}",
                hex.at
            );
        }
    }
}

#[test]
fn a_broken_file_is_refused_naming_the_file_and_the_entry() {
    let mut files = Files::standard();
    files.companies = files.companies.replace("start_space = \"B4\"", "start_space = \"B9\"");
    let err = Data::load(&files).unwrap_err().to_string();
    assert!(err.starts_with("rules/1835/companies.toml: major \"BA\": start_space \"B9\""), "{err}");

    let mut files = Files::standard();
    files.start_packet =
        files.start_packet.replace("{ minor = \"M2\", price = 170 }", "{ minor = \"M2\", price = 171 }");
    let err = Data::load(&files).unwrap_err().to_string();
    assert!(
        err.contains("start_packet.toml: rows[1][2] \"M2\": price 171 differs from the face value 170"),
        "{err}"
    );

    let mut files = Files::standard();
    files.map = files.map.replace("{ at = \"O15\", name = \"München\"", "{ at = \"O16\", name = \"München\"");
    let err = Data::load(&files).unwrap_err().to_string();
    assert!(err.contains("map.toml: hex \"O16\": not a coordinate"), "{err}");

    let mut files = Files::standard();
    files.game = files.game.replace("bank = 12000", "bank = \"lots\"");
    let err = Data::load(&files).unwrap_err().to_string();
    assert!(err.starts_with("rules/1835/game.toml: "), "{err}");

    let mut files = Files::standard();
    files.tiles = files.tiles.replacen("upgrades = [\"88\"]", "upgrades = [\"999\"]", 1);
    let err = Data::load(&files).unwrap_err().to_string();
    assert!(err.contains("tiles.toml: tile \"1\": upgrade \"999\""), "{err}");
}

#[test]
fn the_brown_hamburg_ferry_splits_its_exits_into_two_banks_or_the_file_is_refused() {
    let d = data();
    let hh = d.tiles.iter().find(|t| t.id == "221").expect("tile 221");
    let ferry = hh.stops[0].ferry.as_ref().expect("HR 3: the brown Hamburg tile has the Elbe ferry");
    assert_eq!((ferry.banks.clone(), ferry.toll), ([vec![0, 1, 5], vec![2, 3, 4]], 10));
    assert_eq!((ferry.bank_of(1), ferry.bank_of(3)), (0, 1));

    let mut files = Files::standard();
    files.tiles = files.tiles.replace("banks = [[0, 1, 5], [2, 3, 4]]", "banks = [[0, 1, 5], [2, 3]]");
    let err = Data::load(&files).unwrap_err().to_string();
    assert!(err.contains("tiles.toml: tile \"221\" stops[0]: a ferry belongs to a city"), "{err}");
}
