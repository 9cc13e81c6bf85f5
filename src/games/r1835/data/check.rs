//! Checks and converts the business side of the data: game settings, market, companies,
//! privates and the start packet. Each failure names its file and entry.

use super::market::{Market, Space};
use super::raw;
use super::{CertSpec, ComesWith, Data, DataError, ItemKind, Major, Minor, PacketItem, Paper};
use super::{PlayerSetup, Power, Private, Release};
use std::collections::BTreeSet;

fn fail<T>(file: &'static str, entry: impl Into<String>, msg: impl Into<String>) -> Result<T, DataError> {
    Err(DataError { file, entry: entry.into(), msg: msg.into() })
}

/// `game.toml`: bank, limits, players, option sets. Returns a `Data` with the rest empty.
pub fn game(g: raw::GameFile) -> Result<Data, DataError> {
    const F: &str = "game.toml";
    if g.game.bank <= 0 {
        return fail(F, "game.bank", "must be positive");
    }
    if !(1..=100).contains(&g.game.pool_limit_percent) {
        return fail(F, "game.pool_limit_percent", "must be 1 to 100");
    }
    if !(1..=100).contains(&g.game.cert_bonus_at_percent) {
        return fail(F, "game.cert_bonus_at_percent", "must be 1 to 100");
    }
    let mut players = Vec::new();
    for (i, p) in g.players.iter().enumerate() {
        let entry = format!("players[{i}] (count {})", p.count);
        if p.cash <= 0 || p.cert_limit == 0 {
            return fail(F, entry, "cash and cert_limit must be positive");
        }
        if players.iter().any(|q: &PlayerSetup| q.count == p.count) {
            return fail(F, entry, "player count listed twice");
        }
        if i64::from(p.count) * p.cash > g.game.bank {
            return fail(F, entry, "the players' cash is more than the bank holds");
        }
        players.push(PlayerSetup { count: p.count, cash: p.cash, cert_limit: p.cert_limit });
    }
    if players.is_empty() {
        return fail(F, "players", "no player counts");
    }
    for (name, o) in &g.options {
        super::super::options::check(o).map_err(|msg| DataError {
            file: F,
            entry: format!("options.{name}"),
            msg,
        })?;
    }
    if !g.options.contains_key(super::super::options::DEFAULT_PRESET) {
        return fail(F, "options", "the default option set [options.pbem] is missing");
    }
    Ok(Data {
        title: g.game.title,
        currency: g.game.currency,
        bank: g.game.bank,
        pool_limit: g.game.pool_limit_percent,
        cert_bonus_at: g.game.cert_bonus_at_percent,
        players,
        presets: g.options,
        minors: Vec::new(),
        majors: Vec::new(),
        privates: Vec::new(),
        packet: Vec::new(),
        market: Market { prices: Vec::new(), par_spaces: Vec::new() },
        trains: Vec::new(),
        phases: Vec::new(),
        tiles: Vec::new(),
        preprinted: Vec::new(),
        hexes: Vec::new(),
        barriers: Vec::new(),
    })
}

/// `market.toml`.
pub fn market(m: raw::MarketFile) -> Result<Market, DataError> {
    const F: &str = "market.toml";
    for (i, c) in m.columns.iter().enumerate() {
        let expected = char::from(b'A' + u8::try_from(i).unwrap_or(0)).to_string();
        if *c != expected || i >= 26 {
            return fail(F, format!("columns[{i}]"), format!("expected \"{expected}\", found \"{c}\""));
        }
    }
    for (r, row) in m.rows.iter().enumerate() {
        if row.len() != m.columns.len() {
            return fail(
                F,
                format!("rows[{r}] (row {})", r + 1),
                format!("has {} prices for {} columns", row.len(), m.columns.len()),
            );
        }
        if row.iter().any(|p| *p < 0) {
            return fail(F, format!("rows[{r}] (row {})", r + 1), "prices must be 0 (no space) or positive");
        }
    }
    let mut market = Market { prices: m.rows, par_spaces: Vec::new() };
    for name in &m.par_spaces {
        match Space::parse(name).filter(|s| market.exists(*s)) {
            Some(s) => market.par_spaces.push(s),
            None => return fail(F, format!("par_spaces \"{name}\""), "is not a space of the market"),
        }
    }
    Ok(market)
}

fn paper(id: &str, data: &Data, privates: &raw::PrivatesFile) -> Option<Paper> {
    data.minor_index(id)
        .map(Paper::Minor)
        .or_else(|| privates.private.iter().position(|p| p.id == id).map(Paper::Private))
}

/// `companies.toml` (minors and share companies). Needs the market and the privates' ids.
pub fn companies(
    data: &mut Data,
    c: raw::CompaniesFile,
    privates: &raw::PrivatesFile,
) -> Result<(), DataError> {
    const F: &str = "companies.toml";
    let mut ids = BTreeSet::new();
    for m in c.minor {
        let entry = format!("minor \"{}\"", m.id);
        if !ids.insert(m.id.clone()) {
            return fail(F, entry, "id used twice");
        }
        if m.price <= 0 || m.tokens == 0 || m.station == 0 || ![5, 10].contains(&m.prussian_percent) {
            return fail(F, entry, "price, tokens and station must be positive; prussian_percent 5 or 10");
        }
        data.minors.push(Minor {
            id: m.id,
            name: m.name,
            home: m.home,
            station: m.station,
            price: m.price,
            tokens: m.tokens,
            prussian_percent: m.prussian_percent,
            forms_prussian: m.forms_prussian,
        });
    }
    let all_major_ids: Vec<String> = c.major.iter().map(|m| m.id.clone()).collect();
    for m in c.major {
        let entry = format!("major \"{}\"", m.id);
        if !ids.insert(m.id.clone()) {
            return fail(F, entry, "id used twice");
        }
        let Some(space) = Space::parse(&m.start_space).filter(|s| data.market.par_spaces.contains(s)) else {
            return fail(
                F,
                entry,
                format!("start_space \"{}\" is not a par space of the market", m.start_space),
            );
        };
        let home_on_first_operation = match m.home_token.as_str() {
            "on_float" => false,
            "first_operation" => true,
            other => {
                return fail(F, entry, format!("home_token \"{other}\" is not on_float or first_operation"));
            }
        };
        let idx = |id: &str| all_major_ids.iter().position(|x| x == id);
        let r = &m.release;
        let release = match (r.start_packet_sold, r.sold_out.is_empty(), &r.company, r.sold_percent) {
            (true, true, None, None) => Release::StartPacketSold,
            (false, false, None, None) => {
                let mut v = Vec::new();
                for id in &r.sold_out {
                    match idx(id) {
                        Some(i) => v.push(i),
                        None => {
                            return fail(
                                F,
                                entry,
                                format!("release.sold_out names unknown company \"{id}\""),
                            );
                        }
                    }
                }
                Release::SoldOut(v)
            }
            (false, true, Some(co), Some(percent)) => match idx(co) {
                Some(company) if percent <= 100 => Release::SoldPercent { company, percent },
                _ => {
                    return fail(
                        F,
                        entry,
                        format!("release names unknown company \"{co}\" or a bad percentage"),
                    );
                }
            },
            _ => {
                return fail(
                    F,
                    entry,
                    "release must be one of start_packet_sold, sold_out, company + sold_percent",
                );
            }
        };
        let mut certificates = Vec::new();
        for (i, cr) in m.certificates.iter().enumerate() {
            if ![5, 10, 20].contains(&cr.percent) || cr.count == 0 || (cr.director && cr.count != 1) {
                return fail(
                    F,
                    format!("{entry} certificates[{i}]"),
                    "percent must be 5, 10 or 20; count positive; one director",
                );
            }
            let reserved_for = match &cr.reserved_for {
                None => None,
                Some(id) => match paper(id, data, privates) {
                    Some(p) => Some(p),
                    None => {
                        return fail(
                            F,
                            format!("{entry} certificates[{i}]"),
                            format!("reserved_for \"{id}\" is neither a minor nor a private"),
                        );
                    }
                },
            };
            for _ in 0..cr.count {
                certificates.push(CertSpec { percent: cr.percent, director: cr.director, reserved_for });
            }
        }
        let total: u32 = certificates.iter().map(|c| u32::from(c.percent)).sum();
        if total != 100 {
            return fail(F, entry, format!("certificates add up to {total} %, not 100 %"));
        }
        if certificates.iter().filter(|c| c.director).count() != 1
            || !certificates.first().is_some_and(|c| c.director)
        {
            return fail(F, entry, "exactly one director's certificate, first in the stack");
        }
        if !(10..=100).contains(&m.float_percent) || m.tokens == 0 || m.station == 0 {
            return fail(F, entry, "float_percent 10 to 100; tokens and station positive");
        }
        data.majors.push(Major {
            id: m.id,
            name: m.name,
            home: m.home,
            station: m.station,
            start_space: space,
            par: data.market.price(space),
            tokens: m.tokens,
            float_percent: m.float_percent,
            home_on_first_operation,
            group: m.group,
            prussian: m.prussian,
            release,
            certificates,
        });
    }
    if data.majors.iter().filter(|m| m.prussian).count() != 1 {
        return fail(F, "major", "exactly one company must be the Prussian (prussian = true)");
    }
    if data.minors.iter().filter(|m| m.forms_prussian).count() != 1 {
        return fail(F, "minor", "exactly one minor must form the Prussian (forms_prussian = true)");
    }
    Ok(())
}

/// `privates.toml`. Needs the companies.
pub fn privates(data: &Data, p: raw::PrivatesFile) -> Result<Vec<Private>, DataError> {
    const F: &str = "privates.toml";
    const KINDS: [&str; 4] = ["free_token", "free_tiles", "tile_and_token", "exchange"];
    const CLOSES: [&str; 4] = ["power_used", "phase_3", "first_train_of_SX", "exchanged"];
    let mut out: Vec<Private> = Vec::new();
    for x in p.private {
        let entry = format!("private \"{}\"", x.id);
        if out.iter().any(|o| o.id == x.id)
            || data.minor_index(&x.id).is_some()
            || data.major_index(&x.id).is_some()
        {
            return fail(F, entry, "id used twice (privates, minors and companies share one name space)");
        }
        if x.cost <= 0 || x.income < 0 {
            return fail(F, entry, "cost must be positive and income not negative");
        }
        let comes_with = match x.comes_with {
            None => None,
            Some(c) => match data.major_index(&c.company) {
                Some(company) if [10, 20].contains(&c.percent) => {
                    Some(ComesWith { company, percent: c.percent, director: c.director })
                }
                _ => {
                    return fail(
                        F,
                        entry,
                        format!("comes_with names unknown company \"{}\" or a bad percentage", c.company),
                    );
                }
            },
        };
        if let Some(c) = x.closes.iter().find(|c| !CLOSES.contains(&c.as_str())) {
            return fail(F, entry, format!("closes: unknown event \"{c}\"; known: {}", CLOSES.join(", ")));
        }
        let power = match x.power {
            None => None,
            Some(pw) if KINDS.contains(&pw.kind.as_str()) => Some(Power {
                kind: pw.kind,
                hexes: pw.hexes,
                colour: pw.colour,
                percent: pw.percent,
                text: pw.text,
            }),
            Some(pw) => {
                return fail(
                    F,
                    entry,
                    format!("power.kind \"{}\" unknown; known: {}", pw.kind, KINDS.join(", ")),
                );
            }
        };
        out.push(Private {
            id: x.id,
            name: x.name,
            cost: x.cost,
            income: x.income,
            comes_with,
            closes: x.closes,
            power,
        });
    }
    Ok(out)
}

/// `start_packet.toml`. Needs companies and privates.
pub fn packet(data: &Data, p: raw::PacketFile) -> Result<Vec<PacketItem>, DataError> {
    const F: &str = "start_packet.toml";
    let mut items: Vec<PacketItem> = Vec::new();
    for (r, row) in p.rows.iter().enumerate() {
        if row.is_empty() {
            return fail(F, format!("rows[{r}]"), "an empty row");
        }
        for (c, it) in row.iter().enumerate() {
            let entry = format!("rows[{r}][{c}]");
            let (id, kind, face) = match (&it.private, &it.minor, &it.director) {
                (Some(id), None, None) => match data.private_index(id) {
                    Some(i) => (id.clone(), ItemKind::Private(i), data.privates[i].cost),
                    None => return fail(F, entry, format!("unknown private \"{id}\"")),
                },
                (None, Some(id), None) => match data.minor_index(id) {
                    Some(i) => (id.clone(), ItemKind::Minor(i), data.minors[i].price),
                    None => return fail(F, entry, format!("unknown minor \"{id}\"")),
                },
                (None, None, Some(id)) => match data.major_index(id) {
                    Some(i) => {
                        let m = &data.majors[i];
                        (id.clone(), ItemKind::Director(i), m.par * i64::from(m.director_percent()) / 10)
                    }
                    None => return fail(F, entry, format!("unknown company \"{id}\"")),
                },
                _ => return fail(F, entry, "an item is exactly one of private, minor or director"),
            };
            if it.price != face {
                return fail(
                    F,
                    format!("{entry} \"{id}\""),
                    format!("price {} differs from the face value {face}", it.price),
                );
            }
            if items.iter().any(|x| x.id == id) {
                return fail(F, format!("{entry} \"{id}\""), "listed twice");
            }
            items.push(PacketItem { id, kind, price: it.price, row: r, column: c });
        }
    }
    for (i, pr) in data.privates.iter().enumerate() {
        if !items.iter().any(|x| x.kind == ItemKind::Private(i)) {
            return fail(F, "rows", format!("private \"{}\" is not in the start packet", pr.id));
        }
    }
    for (i, m) in data.minors.iter().enumerate() {
        if !items.iter().any(|x| x.kind == ItemKind::Minor(i)) {
            return fail(F, "rows", format!("minor \"{}\" is not in the start packet", m.id));
        }
    }
    Ok(items)
}
