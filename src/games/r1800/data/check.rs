//! Reading and checking the four files: every reference resolves, the map is symmetric and
//! connected, each power's start is connected, every count matches the fact sheet, every effect
//! names something the engine knows.

use super::raw::{ActionsFile, DevRow, DevelopmentFile, MapFile, PowersFile};
use super::*;

fn parse<T: serde::de::DeserializeOwned>(file: &'static str, text: &str) -> Result<T, DataError> {
    toml::from_str(text).map_err(|e| err(file, e.to_string()))
}

/// Reads and checks everything.
pub(super) fn load(t: &Texts<'_>) -> Result<Data, DataError> {
    let map: MapFile = parse("map.toml", t.map)?;
    let powers: PowersFile = parse("powers.toml", t.powers)?;
    let dev: DevelopmentFile = parse("development.toml", t.development)?;
    let actions: ActionsFile = parse("actions.toml", t.actions)?;
    let (provinces, seas) = provinces(&map, &powers)?;
    let sea_names = map.seas.iter().map(|s| s.name.clone()).collect();
    let (power_list, seating, neutral) = power_starts(&powers, &provinces)?;
    let mut provinces = provinces;
    for (i, p) in power_list.iter().enumerate() {
        for &q in &p.pops {
            if let Some(x) = provinces.get_mut(usize::from(q)) {
                x.home = Some(i);
            }
        }
    }
    let dev_cards = development(&dev)?;
    let admin = admin_cards(&actions, &dev_cards)?;
    let military = military_cards(&actions)?;
    let data = Data {
        provinces,
        seas,
        sea_names,
        powers: power_list,
        seating,
        neutral_regiments: neutral,
        start_prosperity: powers.start_prosperity,
        pop_supply: powers.pop_supply,
        regiment_supply: powers.regiment_supply,
        trade_tokens: powers.trade_tokens,
        dev: dev_cards,
        admin,
        military: military.clone(),
        military_cards: military
            .iter()
            .map(|m| MilitaryCard { name: m.name.clone(), effect: m.effect })
            .collect(),
        neighbour_ids: Vec::new(),
        ambitions: actions
            .ambition
            .iter()
            .map(|a| AmbitionCard { name: a.name.clone(), score: a.score, reconstructed: a.reconstructed })
            .collect(),
        events: actions
            .event
            .iter()
            .map(|e| EventCard { name: e.name.clone(), count: e.count, effect: e.effect })
            .collect(),
        routes: actions.routes.names.clone(),
        reconstructed: [
            ("map.toml", map.reconstructed),
            ("powers.toml", powers.reconstructed),
            ("actions.toml routes", actions.routes.reconstructed),
        ]
        .into_iter()
        .filter(|(_, r)| *r)
        .map(|(n, _)| n)
        .collect(),
    };
    counts(&data, &actions)?;
    let mut data = data;
    data.neighbour_ids =
        data.provinces.iter().map(|p| p.adjacent.iter().map(|q| ProvinceId(*q)).collect()).collect();
    Ok(data)
}

/// The map (RULING E2: a reconstruction; the Urban Centre takes no place and is not stored).
fn provinces(map: &MapFile, powers: &PowersFile) -> Result<(Vec<Province>, Vec<String>), DataError> {
    const F: &str = "map.toml";
    let seas: Vec<String> = map.seas.iter().map(|s| s.id.clone()).collect();
    for s in &map.seas {
        for b in &s.borders {
            let other = map
                .seas
                .iter()
                .find(|x| &x.id == b)
                .ok_or_else(|| err(F, format!("sea {} ({}) borders an unknown sea {b}", s.id, s.name)))?;
            if !other.borders.contains(&s.id) {
                return Err(err(F, format!("sea {} borders {b} but {b} does not border {}", s.id, s.id)));
            }
        }
    }
    if let Some(d) = duplicates(map.province.iter().map(|p| p.name.as_str()))
        .or_else(|| duplicates(map.province.iter().map(|p| p.id.as_str())))
    {
        return Err(err(F, format!("two provinces are called {d}")));
    }
    let index = |code: &str, of: &str| -> Result<u16, DataError> {
        map.province
            .iter()
            .position(|p| p.id == code)
            .and_then(|i| u16::try_from(i).ok())
            .ok_or_else(|| err(F, format!("province {of} borders an unknown province {code}")))
    };
    let mut out = Vec::new();
    for p in &map.province {
        for s in &p.seas {
            if !seas.contains(s) {
                return Err(err(F, format!("province {} touches an unknown sea {s}", p.name)));
            }
        }
        if let Some(h) = &p.home
            && !powers.power.iter().any(|x| &x.id == h)
        {
            return Err(err(F, format!("province {} is the home of an unknown power {h}", p.name)));
        }
        let mut adjacent = Vec::new();
        for a in p.adjacent.iter().chain(&p.straits) {
            adjacent.push(index(a, &p.name)?);
        }
        let straits = p.straits.iter().map(|a| index(a, &p.name)).collect::<Result<Vec<_>, _>>()?;
        adjacent.sort_unstable();
        adjacent.dedup();
        out.push(Province {
            code: p.id.clone(),
            name: p.name.clone(),
            kind: p.kind,
            home: None,
            coastal: !p.seas.is_empty(),
            adjacent,
            straits,
        });
    }
    for (i, p) in out.iter().enumerate() {
        let me = u16::try_from(i).unwrap_or(u16::MAX);
        for &q in &p.adjacent {
            let other = &out[usize::from(q)];
            if q == me {
                return Err(err(F, format!("{} borders itself", p.name)));
            }
            if !other.adjacent.contains(&me) || (p.straits.contains(&q) != other.straits.contains(&me)) {
                return Err(err(F, format!("{} borders {} but not the other way round", p.name, other.name)));
            }
        }
    }
    let all: BTreeSet<u16> = (0..out.len()).filter_map(|i| u16::try_from(i).ok()).collect();
    if !all.is_empty() && connected(&out, 0, &all).len() != all.len() {
        return Err(err(F, "the map is not connected"));
    }
    for name in NAMED_IN_RULES {
        if !out.iter().any(|p| fold(&p.name) == fold(name)) {
            return Err(err(F, format!("the rules name {name}, which is not on the map")));
        }
    }
    Ok((out, seas))
}

type Starts = (Vec<Power>, Vec<usize>, Vec<u16>);

fn power_starts(powers: &PowersFile, provinces: &[Province]) -> Result<Starts, DataError> {
    const F: &str = "powers.toml";
    let named = |n: &str, who: &str| -> Result<u16, DataError> {
        provinces
            .iter()
            .position(|p| fold(&p.name) == fold(n))
            .and_then(|i| u16::try_from(i).ok())
            .ok_or_else(|| err(F, format!("{who} names {n}, which is not on the map")))
    };
    let mut out = Vec::new();
    for p in &powers.power {
        let pops = p.pops.iter().map(|n| named(n, &p.name)).collect::<Result<Vec<_>, _>>()?;
        let factories = p.factories.iter().map(|n| named(n, &p.name)).collect::<Result<Vec<_>, _>>()?;
        // Rules, "Starting positions": six pops, four in the countryside, two in cities on
        // factories.
        let cities = pops.iter().filter(|&&q| provinces[usize::from(q)].is_city()).count();
        if pops.len() != 6 || cities != 2 {
            return Err(err(F, format!("{} must start with 6 pops, 2 of them in cities", p.name)));
        }
        for f in &factories {
            if !provinces[usize::from(*f)].is_city() || !pops.contains(f) {
                return Err(err(F, format!("{}: a factory must be on a city with its pop", p.name)));
            }
        }
        let set: BTreeSet<u16> = pops.iter().copied().collect();
        if set.len() != 6 {
            return Err(err(F, format!("{} names a province twice", p.name)));
        }
        if connected(provinces, pops[0], &set).len() != set.len() {
            return Err(err(F, format!("the start of {} is not connected", p.name)));
        }
        if let Some(q) = pops.iter().find(|q| out.iter().any(|o: &Power| o.pops.contains(q))) {
            return Err(err(F, format!("{} is in two powers' starts", provinces[usize::from(*q)].name)));
        }
        out.push(Power { code: p.id.clone(), name: p.name.clone(), factories, pops });
    }
    if out.len() != 8 {
        return Err(err(F, format!("there must be 8 powers, not {}", out.len())));
    }
    let mut seating = Vec::new();
    for code in &powers.seating {
        let i = out
            .iter()
            .position(|p| &p.code == code)
            .ok_or_else(|| err(F, format!("the seating names an unknown power {code}")))?;
        if seating.contains(&i) {
            return Err(err(F, format!("the seating names {code} twice")));
        }
        seating.push(i);
    }
    if seating.len() != 8 {
        return Err(err(F, "the seating must name all 8 powers"));
    }
    let neutral = powers
        .neutral_regiments
        .iter()
        .map(|n| named(n, "neutral_regiments"))
        .collect::<Result<Vec<_>, _>>()?;
    if neutral.iter().any(|q| out.iter().any(|p| p.pops.contains(q))) {
        return Err(err(F, "a neutral regiment stands in a power's start"));
    }
    Ok((out, seating, neutral))
}

fn resource_slots(file: &'static str, card: &str, s: &str) -> Result<[u8; 3], DataError> {
    let mut out = [0u8; 3];
    for c in s.chars() {
        match c {
            'F' => out[0] += 1,
            'P' => out[1] += 1,
            'C' => out[2] += 1,
            _ => return Err(err(file, format!("{card}: unknown resource square {c:?} (F, P or C)"))),
        }
    }
    Ok(out)
}

/// The development cards as written in `development.toml` (RULING E27: Industrial Policy's `PPP`
/// from the rules' worked example; RULING E15: Telegraph's numbers; RULING E13: Freon
/// Refrigeration's printed era).
fn development(file: &DevelopmentFile) -> Result<Vec<DevCard>, DataError> {
    const F: &str = "development.toml";
    if let Some(d) = duplicates(file.card.iter().map(|c| c.name.as_str())) {
        return Err(err(F, format!("two cards are called {d}")));
    }
    let mut out = Vec::new();
    for c in &file.card {
        let (kind, slot) = match (c.kind.as_str(), c.slot.as_deref()) {
            ("policy", Some(s)) => (DevType::Policy, POLICY_SLOTS.iter().position(|x| *x == s)),
            ("technology", Some(s)) => (DevType::Technology, TECH_SLOTS.iter().position(|x| *x == s)),
            ("institution", None) => (DevType::Institution, Some(0)),
            (k, s) => {
                return Err(err(F, format!("{}: type {k:?} with slot {s:?} is not a card kind", c.name)));
            }
        };
        let slot = slot.ok_or_else(|| err(F, format!("{}: unknown slot {:?}", c.name, c.slot)))?;
        let start = c.count == 0;
        if start && kind == DevType::Institution {
            return Err(err(F, format!("{}: an institution cannot be a starting card", c.name)));
        }
        if kind == DevType::Technology && (c.level > 3 || (!start && !(1..=3).contains(&c.era))) {
            return Err(err(F, format!("{}: a technology needs a level 0–3 and an era 1–3", c.name)));
        }
        if kind == DevType::Technology && start != (c.level == 0) {
            return Err(err(F, format!("{}: only the starting technology has level 0", c.name)));
        }
        if c.hold && (c.hold_effect.is_none() || !c.reward.is_empty()) {
            return Err(err(F, format!("{}: a held card needs a hold_effect and no reward", c.name)));
        }
        if let Some(alt) = &c.alt {
            alone_ok(F, c, alt)?;
        }
        // RULING E84: only food is held beyond the squares (Freon Refrigeration).
        if c.overfill && (c.slots.is_empty() || c.slots.chars().any(|x| x != 'F')) {
            return Err(err(F, format!("{}: only a card of food squares may overfill", c.name)));
        }
        let slots = resource_slots(F, &c.name, &c.slots)?;
        out.push(DevCard {
            name: c.name.clone(),
            kind,
            slot,
            count: c.count,
            start,
            era: c.era,
            level: c.level,
            requires: c.requires,
            slots,
            hold: c.hold,
            admin_cost: c.admin_cost,
            reward: c.reward.clone(),
            alt: c.alt.clone(),
            income: c.income,
            place_cap: c.place_cap,
            self_cap: c.self_cap,
            overfill: c.overfill,
            deficit: c.deficit,
            ag_cap: c.ag_cap,
            ammonia: c.ammonia,
            infra: c.infra.clone().unwrap_or_default(),
            regiment_moves: c.regiment_moves.unwrap_or(0),
            mobility: c.mobility.unwrap_or(0),
            routes: c.routes.unwrap_or(0),
            battle: c.battle.unwrap_or(0),
            end_move: c.end_move.clone(),
            army: c.army,
            navy: c.navy,
            recruit: c.recruit,
            republic: c.republic,
            command_economy: c.command_economy,
            hold_effect: c.hold_effect,
            instead: c.instead,
            corporate: c.corporate,
        });
    }
    for kind in [DevType::Policy, DevType::Technology] {
        let n = if kind == DevType::Policy { POLICY_SLOTS.len() } else { TECH_SLOTS.len() };
        for slot in 0..n {
            let starts = out.iter().filter(|c| c.kind == kind && c.slot == slot && c.start).count();
            if starts != 1 {
                return Err(err(F, format!("slot {slot} of {kind:?} needs exactly one starting card")));
            }
        }
    }
    Ok(out)
}

/// RULINGS E79, E83: an activation by admin (or military) cards alone belongs to a card that
/// activates, costs at least one card, gives something, and moves or removes at least one pop when it says so.
fn alone_ok(file: &'static str, c: &DevRow, alt: &Alone) -> Result<(), DataError> {
    if c.hold || c.reward.is_empty() {
        return Err(err(
            file,
            format!("{}: only a card that activates can have an `alt` activation", c.name),
        ));
    }
    if alt.admin_cost + alt.military_cost == 0 || alt.reward.is_empty() {
        return Err(err(
            file,
            format!("{}: an `alt` activation needs admin_cost or military_cost from 1 and a reward", c.name),
        ));
    }
    if let Some(r) = alt.reward.iter().find(|r| r.what != RewardKind::Prosperity && r.n < 1) {
        return Err(err(file, format!("{}: `alt` reward {:?} needs n from 1", c.name, r.what)));
    }
    Ok(())
}

fn counts(d: &Data, actions: &ActionsFile) -> Result<(), DataError> {
    let sum = |xs: &mut dyn Iterator<Item = u8>| xs.map(usize::from).sum::<usize>();
    let found = [
        ("map.toml", d.provinces.len()),
        ("development.toml", sum(&mut d.dev.iter().map(|c| c.count))),
        ("actions.toml", sum(&mut d.admin.iter().map(|c| c.count))),
        ("actions.toml", sum(&mut d.military.iter().map(|c| c.count))),
        ("actions.toml", d.ambitions.len()),
        ("actions.toml", sum(&mut d.events.iter().map(|c| c.count))),
        ("actions.toml", d.routes.len()),
    ];
    for ((file, n), (what, want)) in found.iter().zip(EXPECTED) {
        if *n != want {
            return Err(err(file, format!("the {what} must have {want} cards or entries, not {n}")));
        }
    }
    if let Some(dup) = duplicates(actions.admin.iter().map(|a| a.name.as_str())) {
        return Err(err("actions.toml", format!("two admin cards are called {dup}")));
    }
    for a in &actions.admin {
        if a.play.is_empty() {
            return Err(err("actions.toml", format!("{}: an admin card needs at least one option", a.name)));
        }
    }
    Ok(())
}

/// The military cards in the war's effect form (an unknown effect is refused).
/// The admin cards: every policy a card names exists, and each option's cost is one the engine
/// knows how to ask for.
fn admin_cards(actions: &ActionsFile, dev: &[DevCard]) -> Result<Vec<AdminCard>, DataError> {
    const F: &str = "actions.toml";
    let mut out = Vec::new();
    for a in &actions.admin {
        let mut not_with = Vec::new();
        for n in &a.not_with {
            let i = dev
                .iter()
                .position(|c| fold(&c.name) == fold(n) && c.kind == DevType::Policy)
                .ok_or_else(|| err(F, format!("{}: no policy is called {n}", a.name)))?;
            not_with.push(i as u16);
        }
        let mut search = Vec::new();
        for n in &a.search {
            let i = dev
                .iter()
                .position(|c| fold(&c.name) == fold(n))
                .ok_or_else(|| err(F, format!("{}: no development card is called {n}", a.name)))?;
            search.push(i as u16);
        }
        if a.play.iter().any(|o| o.what == AdminEffect::FreeEnterprise) && search.is_empty() {
            return Err(err(F, format!("{}: free_enterprise needs the cards it searches for", a.name)));
        }
        for o in &a.play {
            if o.shift && (o.commerce > 0 || o.what != AdminEffect::FreeEnterprise) {
                return Err(err(F, format!("{}: `shift` is Free Enterprise's other way to pay", a.name)));
            }
        }
        out.push(AdminCard {
            name: a.name.clone(),
            count: a.count,
            play: a.play.clone(),
            not_with,
            search,
            substitute: a.substitute,
        });
    }
    Ok(out)
}

fn military_cards(actions: &ActionsFile) -> Result<Vec<MilitaryKind>, DataError> {
    actions
        .military
        .iter()
        .map(|m| {
            let effect: MilitaryEffect = m
                .effect
                .clone()
                .try_into()
                .map_err(|e| err("actions.toml", format!("{}: unknown military effect ({e})", m.name)))?;
            Ok(MilitaryKind { name: m.name.clone(), count: m.count, effect })
        })
        .collect()
}
