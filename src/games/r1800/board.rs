//! What the rules read off the position: who works the factories, farmers, laborers and
//! bourgeois, the cards in force, technology requirements, navies and trade, and the resources a
//! turn's collection yields (rules, "Player Turns" step 1).

use super::data::{AgCap, Data, DevType, HoldEffect, Requirement, Requires};
use super::state::{C, NEUTRAL, P, State};

/// A seat's workforce by kind (rules, "Pops, Regiments, & Provinces").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Workforce {
    pub farmers: u32,
    pub laborers: u32,
    pub bourgeois: u32,
    pub regiments: u32,
}

/// How many of `owner`'s pops in `p` are conscripted: a conscripted regiment raised on them
/// stands on the board, wherever it stands now (rules, "Wars": "While the regiment is
/// conscripted, the pop consumes one food and does not produce resources"; RULING E57).
pub fn conscripted_on(s: &State, p: u16, owner: usize) -> u8 {
    let n = s
        .provinces
        .iter()
        .filter_map(|q| q.regiment)
        .filter(|r| r.conscripted == Some(p) && r.owner.map(usize::from) == Some(owner))
        .count();
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// `owner`'s pops in `p` that work (farm, labor or trade): those not conscripted (RULING E57).
pub fn working(s: &State, p: u16, owner: usize) -> u8 {
    let pops = s.provinces.get(usize::from(p)).map_or(0, |x| x.pops[owner]);
    if owner == NEUTRAL || pops == 0 { pops } else { pops.saturating_sub(conscripted_on(s, p, owner)) }
}

/// How many of `owner`'s pops in city `p` work its factories. RULING E7: pops are never placed
/// on factories by hand: every factory of a city is worked while there are pops there, the
/// controller's pops first, then the other powers' by their number in the data (neutral pops
/// work no factory); a conscripted pop works none (RULING E57).
pub fn laborers_in(s: &State, d: &Data, p: u16, owner: usize) -> u8 {
    laborers_under(s, d, p, owner, s.controller(p))
}

/// [`laborers_in`] with the province's controller given.
fn laborers_under(s: &State, d: &Data, p: u16, owner: usize, controller: Option<usize>) -> u8 {
    let Some(prov) = s.provinces.get(usize::from(p)) else { return 0 };
    if !d.provinces.get(usize::from(p)).is_some_and(|x| x.is_city()) || owner == NEUTRAL {
        return 0;
    }
    let mut free = prov.factories;
    let controller = controller.filter(|c| *c != NEUTRAL);
    for o in controller.into_iter().chain((0..NEUTRAL).filter(|o| Some(*o) != controller)) {
        let take = if prov.pops[o] == 0 { 0 } else { working(s, p, o).min(free) };
        if o == owner {
            return take;
        }
        free -= take;
    }
    0
}

/// A seat's farmers, laborers, bourgeois and regiments. RULING E1: every countryside pop is a
/// farmer yielding food (farms and markets are not modelled). RULING E57: a conscripted pop is
/// none of the three; its regiment is counted with the regiments (the one food it eats).
pub fn workforce(s: &State, d: &Data, seat: usize) -> Workforce {
    workforce_under(s, d, seat, |p| s.controller(p))
}

/// [`workforce`] with each province's controller given.
fn workforce_under(s: &State, d: &Data, seat: usize, controller: impl Fn(u16) -> Option<usize>) -> Workforce {
    let Some(pl) = s.players.get(seat) else { return Workforce::default() };
    let me = usize::from(pl.power);
    let mut w = Workforce::default();
    for (i, prov) in s.provinces.iter().enumerate() {
        let p = i as u16;
        let n = if prov.pops[me] == 0 { 0 } else { u32::from(working(s, p, me)) };
        if d.provinces[i].is_city() {
            let lab = u32::from(laborers_under(s, d, p, me, controller(p)));
            w.laborers += lab;
            w.bourgeois += n - lab;
        } else {
            w.farmers += n;
        }
    }
    w.regiments = u32::from(s.regiments_of(me));
    w
}

/// The seat's bourgeois in city `p`.
pub fn bourgeois_in(s: &State, d: &Data, seat: usize, p: u16) -> u8 {
    bourgeois_under(s, d, seat, p, s.controller(p))
}

/// [`bourgeois_in`] with the province's controller given.
fn bourgeois_under(s: &State, d: &Data, seat: usize, p: u16, controller: Option<usize>) -> u8 {
    let me = usize::from(s.players[seat].power);
    working(s, p, me) - laborers_under(s, d, p, me, controller)
}

/// The card in force in a policy or technology slot (the top one), as a tableau index.
pub fn active(s: &State, d: &Data, seat: usize, kind: DevType, slot: usize) -> Option<usize> {
    s.players[seat].cards.iter().rposition(|h| {
        !h.covered && d.dev[usize::from(h.card)].kind == kind && d.dev[usize::from(h.card)].slot == slot
    })
}

/// The data of the card in force in a slot.
pub fn active_card<'d>(
    s: &State,
    d: &'d Data,
    seat: usize,
    kind: DevType,
    slot: usize,
) -> Option<&'d super::data::DevCard> {
    active(s, d, seat, kind, slot).map(|i| &d.dev[usize::from(s.players[seat].cards[i].card)])
}

/// The seat's institutions with a held effect, with the resources on them.
fn holding(s: &State, d: &Data, seat: usize, what: HoldEffect) -> impl Iterator<Item = [u8; 3]> {
    s.players[seat]
        .cards
        .iter()
        .filter(move |h| d.dev[usize::from(h.card)].hold_effect == Some(what))
        .map(|h| h.res)
}

/// How many institutions of one kind the seat owns (by name).
pub fn owned(s: &State, d: &Data, seat: usize, pred: impl Fn(&super::data::DevCard) -> bool) -> u32 {
    s.players[seat].cards.iter().filter(|h| pred(&d.dev[usize::from(h.card)])).count() as u32
}

/// The seat's navy: its Navy institutions (RULING E19).
pub fn navy(s: &State, d: &Data, seat: usize) -> u32 {
    owned(s, d, seat, |c| c.navy)
}

/// Trade tokens on the board (overseas and in other players' zones).
pub fn trade_routes(s: &State, seat: usize) -> u32 {
    (s.players[seat].overseas.len() + s.players[seat].european.len()) as u32
}

/// The overseas routes the seat holds alone (a monopoly).
pub fn monopolies(s: &State, seat: usize) -> u32 {
    s.players[seat]
        .overseas
        .iter()
        .filter(|r| !s.players.iter().enumerate().any(|(i, p)| i != seat && p.overseas.contains(r)))
        .count() as u32
}

/// Whether the seat meets a technology's requirement (rules: "players may only choose
/// technologies for which they meet the requirements"; RULING E12: checked when adopted).
pub fn meets(s: &State, d: &Data, seat: usize, card: u16) -> Result<(), String> {
    let c = &d.dev[usize::from(card)];
    match unmet(s, d, seat, card) {
        None => Ok(()),
        Some(None) => Err(format!("you already have a {} technology of that level or better", c.name)),
        Some(Some((req, have))) => {
            Err(format!("{} needs {} {}, you have {have}", c.name, req.n, requirement_words(req.what)))
        }
    }
}

/// Whether the seat may take the card ([`meets`] without the words, for listing legal actions).
pub fn may_take(s: &State, d: &Data, seat: usize, card: u16) -> bool {
    unmet(s, d, seat, card).is_none()
}

/// Why a technology cannot be taken: `Some(None)` its level, `Some(Some((requirement, what the
/// seat has)))` its requirement; `None` when it can be.
fn unmet(s: &State, d: &Data, seat: usize, card: u16) -> Option<Option<(Requirement, u32)>> {
    let c = &d.dev[usize::from(card)];
    if c.kind != DevType::Technology {
        return None;
    }
    // RULING E10: a technology must be of a higher level than the one in force.
    let current = active_card(s, d, seat, DevType::Technology, c.slot).map(|x| x.level).unwrap_or(0);
    if c.level <= current {
        return Some(None);
    }
    let req = c.requires?;
    let have = match req.what {
        Requires::Factories => factories_controlled(s, seat),
        Requires::IndustrialAgriculture => {
            owned(s, d, seat, |x| x.hold_effect == Some(HoldEffect::IndustrialAgriculture))
        }
        Requires::Bourgeois => workforce(s, d, seat).bourgeois,
        Requires::Army => owned(s, d, seat, |x| x.army),
        Requires::TradeRoutes => trade_routes(s, seat),
    };
    (have < u32::from(req.n)).then_some(Some((req, have)))
}

fn requirement_words(r: Requires) -> &'static str {
    match r {
        Requires::Factories => "factories",
        Requires::IndustrialAgriculture => "Industrial Agriculture",
        Requires::Bourgeois => "bourgeois",
        Requires::Army => "Army institutions",
        Requires::TradeRoutes => "trade routes",
    }
}

/// Factories in provinces the seat controls.
pub fn factories_controlled(s: &State, seat: usize) -> u32 {
    (0..s.provinces.len())
        .filter(|&i| s.controls(seat, i as u16))
        .map(|i| u32::from(s.provinces[i].factories))
        .sum()
}

/// Provinces the seat controls.
pub fn provinces_controlled(s: &State, seat: usize) -> u32 {
    (0..s.provinces.len()).filter(|&i| s.controls(seat, i as u16)).count() as u32
}

/// Who controls each province of a position: [`State::controller`] once per province, for what
/// reads control many times over (a collection, every seat's standing in a view).
pub struct Control(Vec<Option<usize>>);

impl Control {
    /// The controllers of `s`.
    pub fn of(s: &State) -> Control {
        Control((0..s.provinces.len()).map(|p| s.controller(p as u16)).collect())
    }

    /// The controller of province `p` (as [`State::controller`]).
    fn by(&self, p: usize) -> Option<usize> {
        self.0.get(p).copied().flatten()
    }

    /// Whether the seat's power controls province `p` (as [`State::controls`]).
    fn controls(&self, s: &State, seat: usize, p: usize) -> bool {
        s.players.get(seat).is_some_and(|pl| self.by(p) == Some(usize::from(pl.power)))
    }

    /// Provinces the seat controls (as [`provinces_controlled`]).
    pub fn provinces(&self, s: &State, seat: usize) -> u32 {
        (0..self.0.len()).filter(|&p| self.controls(s, seat, p)).count() as u32
    }
}

/// What one collection gives the seat (rules, "Player Turns" step 1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Yield {
    pub food_out: u32,
    pub food_use: u32,
    pub production: u32,
    pub commerce: u32,
}

/// The food Industrial Agriculture adds, capped by the agriculture technology (FACTS §4.2;
/// RULING E26: food, not commerce).
fn farm_bonus(s: &State, d: &Data, seat: usize, ctl: &Control) -> u32 {
    let me = usize::from(s.players[seat].power);
    let raw: u32 = holding(s, d, seat, HoldEffect::IndustrialAgriculture).map(|r| u32::from(r[P])).sum();
    let farmed = |min: u8| {
        (0..s.provinces.len())
            .filter(|&i| {
                !d.provinces[i].is_city()
                    && ctl.controls(s, seat, i)
                    && s.provinces[i].pops[me] >= min
                    && working(s, i as u16, me) >= min
            })
            .count() as u32
    };
    let tech = active_card(s, d, seat, DevType::Technology, 1);
    let cap = match tech.and_then(|t| t.ag_cap) {
        Some(AgCap::PerTwoFarmerProvince) | None => farmed(2),
        // RULING E25: Steel Plough's cap is 2 per such province (erratum E8).
        Some(AgCap::TwoPerTwoFarmerProvince) => 2 * farmed(2),
        Some(AgCap::TwoPerFarmedProvince) => 2 * farmed(1),
    };
    let ammonia = if tech.is_some_and(|t| t.ammonia) {
        holding(s, d, seat, HoldEffect::IndustrialAgriculture).filter(|r| r[P] >= 4).count() as u32
    } else {
        0
    };
    raw.min(cap) + ammonia
}

/// Infrastructure commerce, capped by the infrastructure technology (FACTS §4.2; the thresholds
/// per city are data, RULING E14 for Steam Engine's).
fn infrastructure(s: &State, d: &Data, seat: usize, ctl: &Control) -> u32 {
    let raw: u32 = holding(s, d, seat, HoldEffect::Infrastructure).map(|r| u32::from(r[P]) / 2).sum();
    let thresholds =
        active_card(s, d, seat, DevType::Technology, 3).map(|t| t.infra.clone()).unwrap_or_default();
    let cap: u32 = (0..s.provinces.len())
        .filter(|&i| d.provinces[i].is_city() && ctl.controls(s, seat, i))
        .map(|i| {
            let b = bourgeois_under(s, d, seat, i as u16, ctl.by(i));
            thresholds.iter().filter(|t| b >= **t).count() as u32
        })
        .sum();
    raw.min(cap)
}

/// The whole yield of a collection.
pub fn collection(s: &State, d: &Data, seat: usize) -> Yield {
    collection_under(s, d, seat, &Control::of(s))
}

/// [`collection`] with the position's controllers given (one [`Control`] serves every seat).
pub fn collection_under(s: &State, d: &Data, seat: usize, ctl: &Control) -> Yield {
    let w = workforce_under(s, d, seat, |p| ctl.by(usize::from(p)));
    let mut commerce = 0u32;
    for slot in 0..3 {
        commerce += active_card(s, d, seat, DevType::Policy, slot).map(|c| u32::from(c.income)).unwrap_or(0);
    }
    let econ = active_card(s, d, seat, DevType::Policy, 1);
    // Mercantilism: +1 C without an agreement with a navy as large as yours (FACTS §4.1).
    if econ.is_some_and(|c| c.name == "Mercantilism") {
        let mine = navy(s, d, seat);
        let rival = s.players[seat].european.iter().any(|&o| navy(s, d, usize::from(o)) >= mine);
        if !rival {
            commerce += 1;
        }
    }
    commerce += infrastructure(s, d, seat, ctl);
    let financed = holding(s, d, seat, HoldEffect::Financial).filter(|r| r[C] >= 1).count() >= 2;
    if financed {
        commerce += holding(s, d, seat, HoldEffect::StockExchange).filter(|r| r[C] >= 2).count() as u32;
    }
    commerce += s.players[seat].european.len() as u32 + monopolies(s, seat);
    Yield {
        food_out: w.farmers + farm_bonus(s, d, seat, ctl),
        food_use: w.laborers + w.bourgeois + w.regiments,
        production: w.laborers,
        commerce,
    }
}
