//! Checking `loads.toml` and `tables.toml`: the 89 load chits (RT 2.3.1, 3.7, 5.2, 5.7), the War
//! Progress and Congestion Tables (RT 5.9.1, 5.5), costs, set-up by player count (RT 3.1-3.6),
//! event chits (RT 7.1-7.15) and Special Event counters (RT 6.1-6.8).

use super::raw::{CostsRaw, EventRaw, LoadsFile, SetupRaw, SpecialEventRaw, TablesFile, Troops};
use super::{DataError, Map, StationKind, counts, parse};
use std::collections::BTreeSet;

/// Which kind of chit a load is (RT 2.3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadKind {
    /// Black text, not war-materiel.
    Civilian,
    /// Red or black text, war-materiel.
    War,
    /// Blue-italic: war-materiel run through the blockade (RT 5.7).
    BlockadeRunner,
}

/// Where a load may be dropped off (RT 5.1.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dropoff {
    /// One station, or a choice of two.
    Stations(Vec<usize>),
    /// Any station within 3 stations of a Union-occupied marker.
    NearUnion,
}

/// One chit of the Loads Table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Load {
    /// The contract number.
    pub number: u32,
    /// The goods.
    pub goods: String,
    /// Civilian, war-materiel or Blockade Runner.
    pub kind: LoadKind,
    /// Printed in red.
    pub red: bool,
    /// The pickup station.
    pub pickup: usize,
    /// The dropoff.
    pub dropoff: Dropoff,
    /// The payout in dollars.
    pub payout: u32,
}

/// One War Progress Table result (RT 5.9.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WarResult {
    /// This shield station falls (roll again if already occupied).
    Station(usize),
    /// Any non-VD station within 2 stations of a Union marker.
    Choice,
    /// The same, and a Victory Depot may be chosen.
    ChoiceV,
    /// No station taken.
    Nothing,
}

/// Tables, costs, set-up, events and specials.
#[derive(Debug, Clone)]
pub struct Tables {
    /// The tables are a reconstruction.
    pub reconstructed: bool,
    /// War Progress: `war_progress[roll - 2][vds occupied]`.
    pub war_progress: Vec<Vec<WarResult>>,
    /// Congestion: `congestion[roll - 2]` = stations marked.
    pub congestion: Vec<Vec<usize>>,
    /// Movement and money constants.
    pub costs: CostsRaw,
    /// Set-up for 2..=5 players.
    pub setup: Vec<SetupRaw>,
    /// The event chits.
    pub events: Vec<EventRaw>,
    /// The Special Event counters.
    pub specials: Vec<SpecialEventRaw>,
}

fn station(map: &Map, file: &'static str, entry: &str, name: &str) -> Result<usize, DataError> {
    map.station(name).ok_or_else(|| DataError::new(file, entry, format!("unknown station \"{name}\"")))
}

/// Check `loads.toml`.
pub(super) fn loads(text: &str, map: &Map) -> Result<(Vec<Load>, Troops, bool), DataError> {
    const FILE: &str = "loads.toml";
    let raw: LoadsFile = parse(FILE, text)?;
    let mut loads = Vec::new();
    let mut numbers = BTreeSet::new();
    for l in &raw.load {
        let entry = format!("load {}", l.number);
        if !numbers.insert(l.number) {
            return Err(DataError::new(FILE, entry, "number used twice"));
        }
        let pickup = station(map, FILE, &entry, &l.pickup)?;
        if map.stations.get(pickup).is_none_or(|s| s.kind == StationKind::Plain) {
            return Err(DataError::new(
                FILE,
                entry,
                format!("pickup \"{}\" is not a Load Station or Depot (RT 2.1.2)", l.pickup),
            ));
        }
        let dropoff = match l.dropoff.as_slice() {
            [only] if only == "*" => Dropoff::NearUnion,
            names if (1..=2).contains(&names.len()) => Dropoff::Stations(
                names.iter().map(|n| station(map, FILE, &entry, n)).collect::<Result<_, _>>()?,
            ),
            _ => {
                return Err(DataError::new(
                    FILE,
                    entry,
                    "a dropoff is one station, two, or \"*\" (RT 5.1.3)",
                ));
            }
        };
        let (kind, red) = match (l.text.as_str(), l.war) {
            ("black", false) => (LoadKind::Civilian, false),
            ("black", true) => (LoadKind::War, false),
            ("red", true) => (LoadKind::War, true),
            ("blue", true) => (LoadKind::BlockadeRunner, false),
            (t, w) => {
                return Err(DataError::new(
                    FILE,
                    entry,
                    format!("text \"{t}\" with war = {w} is not a chit of RT 2.3.1"),
                ));
            }
        };
        if l.payout == 0 || l.payout % 100 != 0 {
            return Err(DataError::new(FILE, entry, "payouts are positive multiples of $100"));
        }
        loads.push(Load {
            number: l.number,
            goods: l.goods.clone(),
            kind,
            red,
            pickup,
            dropoff,
            payout: l.payout,
        });
    }
    let troops = raw.troops;
    let count = |k: LoadKind| loads.iter().filter(|l| l.kind == k).count();
    let troops_n = troops.count as usize;
    let checks = [
        ("troops", troops_n, counts::TROOPS, "RT 3.7"),
        ("load", loads.len() + troops_n, counts::LOADS, "RT 3.7"),
        ("load (blue-italic)", count(LoadKind::BlockadeRunner), counts::BLOCKADE_RUNNERS, "RT 5.7"),
        ("load (red)", loads.iter().filter(|l| l.red).count() + troops_n, counts::RED, "RT 2.3.1"),
        (
            "load (black war-materiel)",
            loads.iter().filter(|l| l.kind == LoadKind::War && !l.red).count(),
            counts::BLACK_WAR,
            "RT 2.3.1",
        ),
    ];
    for (entry, found, want, case) in checks {
        if found != want {
            return Err(DataError::new(
                FILE,
                entry,
                format!("{found} chits, the rules have {want} ({case})"),
            ));
        }
    }
    Ok((loads, troops, raw.reconstructed))
}

/// Check `tables.toml`.
pub(super) fn tables(text: &str, map: &Map) -> Result<Tables, DataError> {
    const FILE: &str = "tables.toml";
    let raw: TablesFile = parse(FILE, text)?;
    let err = |entry: String, msg: String| DataError::new(FILE, entry, msg);
    let rolls_ok = |rolls: Vec<u8>| rolls == (2..=12).collect::<Vec<u8>>();
    if !rolls_ok(raw.war_progress.rows.iter().map(|r| r.roll).collect()) {
        return Err(err(
            "war_progress".into(),
            format!("needs one row per 2d6 total 2..=12 ({} rows, RT 5.9.1)", counts::TABLE_ROWS),
        ));
    }
    let mut war_progress = Vec::new();
    for row in &raw.war_progress.rows {
        let entry = format!("war_progress roll {}", row.roll);
        if row.columns.len() != counts::VICTORY_DEPOTS {
            return Err(err(
                entry,
                format!("needs a column for 0..=7 Victory Depots, found {}", row.columns.len()),
            ));
        }
        let mut out = Vec::new();
        for c in &row.columns {
            out.push(match c.as_str() {
                "C" => WarResult::Choice,
                "CV" => WarResult::ChoiceV,
                "-" => WarResult::Nothing,
                name => {
                    let id = station(map, FILE, &entry, name)?;
                    if !map.stations.get(id).is_some_and(|s| s.shield) {
                        return Err(err(entry, format!("\"{name}\" has no Federal shield (RT 5.9.1)")));
                    }
                    WarResult::Station(id)
                }
            });
        }
        war_progress.push(out);
    }
    if !rolls_ok(raw.congestion.rows.iter().map(|r| r.roll).collect()) {
        return Err(err("congestion".into(), "needs one row per 2d6 total 2..=12 (RT 5.5)".into()));
    }
    let mut congestion = Vec::new();
    for row in &raw.congestion.rows {
        let entry = format!("congestion roll {}", row.roll);
        let mut out = Vec::new();
        for name in &row.stations {
            let id = station(map, FILE, &entry, name)?;
            if !map.stations.get(id).is_some_and(|s| s.congestion) {
                return Err(err(entry, format!("\"{name}\" has no congestion icon (RT 5.5)")));
            }
            out.push(id);
        }
        congestion.push(out);
    }
    let players: Vec<u8> = raw.setup.iter().map(|s| s.players).collect();
    if players != [2, 3, 4, 5] {
        return Err(err("setup".into(), "needs one entry for each of 2, 3, 4 and 5 players (RT 3.1)".into()));
    }
    for s in &raw.setup {
        let given = (u32::from(s.players) * (u32::from(s.rrc_chosen) + u32::from(s.rrc_dealt))
            + u32::from(s.rrc_dealt_initiative))
        .saturating_sub(u32::from(s.rrc_dealt));
        if given as usize != counts::LINES {
            return Err(err(
                format!("setup {} players", s.players),
                format!("hands out {given} RRCs, not {} (RT 3.4)", counts::LINES),
            ));
        }
    }
    let events: u32 = raw.event.iter().map(|e| e.count).sum();
    if events != counts::EVENT_CHITS {
        return Err(err(
            "event".into(),
            format!("{events} chits, the rules have {} (RT 3.7)", counts::EVENT_CHITS),
        ));
    }
    for e in &raw.event {
        if let Some([a, b]) = &e.completes {
            let entry = format!("event {}", e.case);
            let (ia, ib) = (station(map, FILE, &entry, a)?, station(map, FILE, &entry, b)?);
            let unbuilt = map.segments_between(ia, ib).iter().any(|s| {
                map.segments.get(*s).is_some_and(
                    |s| matches!(&s.kind, super::SegmentKind::Unbuilt { event } if *event == e.case),
                )
            });
            if !unbuilt {
                return Err(err(entry, format!("{a}-{b} is not an unbuilt segment of this event")));
            }
        }
    }
    let specials: u32 = raw.special.iter().map(|s| s.count).sum();
    if specials != counts::SPECIAL_COUNTERS {
        return Err(err(
            "special".into(),
            format!("{specials} counters, the rules have {} (RT 6.0)", counts::SPECIAL_COUNTERS),
        ));
    }
    Ok(Tables {
        reconstructed: raw.reconstructed && raw.war_progress.reconstructed && raw.congestion.reconstructed,
        war_progress,
        congestion,
        costs: raw.costs,
        setup: raw.setup,
        events: raw.event,
        specials: raw.special,
    })
}
