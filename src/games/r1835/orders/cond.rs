//! The conditions of `IF`, evaluated against a position for a seat (and the company its line
//! is for).

use super::plan::Ctx;
use super::types::Cond;
use crate::games::r1835::R1835;
use crate::games::r1835::actions::{Action, Source};
use crate::games::r1835::state::{Entity, Loc, State};

impl R1835 {
    /// Whether `c` holds in `s` for `ctx`.
    pub(crate) fn holds(&self, s: &State, ctx: Ctx<'_>, c: &Cond) -> bool {
        let d = &self.data;
        match c {
            Cond::Not(x) => !self.holds(s, ctx, x),
            Cond::And(a, b) => self.holds(s, ctx, a) && self.holds(s, ctx, b),
            Cond::Or(a, b) => self.holds(s, ctx, a) || self.holds(s, ctx, b),
            Cond::Available { company, from, percent } => {
                let Some(co) = d.major_index(company) else { return false };
                let open = self.ipo_open(s, co).is_ok();
                s.majors[co].certs.iter().any(|cert| {
                    let place = match cert.at {
                        Loc::Ipo if open => Some(Source::Ipo),
                        Loc::Pool => Some(Source::Pool),
                        _ => None,
                    };
                    place.is_some()
                        && from.is_none_or(|f| place == Some(f))
                        && percent.is_none_or(|p| cert.percent == p)
                        && !cert.director
                })
            }
            Cond::Floated(id) if id == "PR" => self.pr_formed(s),
            Cond::Floated(id) => match self.entity_by_id(id) {
                Some(Entity::Major(c)) => s.majors.get(usize::from(c)).is_some_and(|x| x.floated),
                Some(Entity::Minor(m)) => {
                    s.minors.get(usize::from(m)).is_some_and(|x| x.owner.is_some() && !x.closed)
                }
                None => false,
            },
            Cond::TrainAvailable(t) => {
                self.bank_next(s).is_some_and(|i| d.trains[i].name == *t) || s.depot.pool.contains(t)
            }
            Cond::TrainRusted(t) => {
                let rusts_on = d.trains.iter().find(|x| x.name == *t).and_then(|x| x.rusts_on.clone());
                rusts_on.and_then(|r| self.train_type(&r)).is_some_and(|i| s.depot.sold_of(i) > 0)
            }
            Cond::Price { company, cmp, value } => d
                .major_index(company)
                .and_then(|co| s.majors[co].price)
                .is_some_and(|sp| cmp.holds(d.market.price(sp), *value)),
            Cond::Cash { company: None, cmp, value } => {
                s.players.get(usize::from(ctx.seat)).is_some_and(|p| cmp.holds(p.cash, *value))
            }
            Cond::Cash { company: Some(id), cmp, value } => {
                self.entity_by_id(id).is_some_and(|e| cmp.holds(self.entity_cash(s, e), *value))
            }
            Cond::CanLay { tile, hex, rotation } => {
                let Some(company) = ctx.company else { return false };
                let Some(e) = self.operating_entity(s).filter(|e| self.entity_id(s, *e) == company) else {
                    return false;
                };
                let rotations = rotation.map_or_else(|| (0..6).collect(), |r| vec![r]);
                rotations.into_iter().any(|rotation| {
                    let a = Action::LayTile {
                        company: self.entity_id(s, e),
                        tile: tile.clone(),
                        hex: hex.clone(),
                        rotation,
                    };
                    self.apply_action(&mut s.clone(), &a).is_ok()
                })
            }
            Cond::Bought { seat, name } => s.sr.bought.iter().any(|(p, what)| {
                what == name && *p != ctx.seat && seat.is_none_or(|x| u32::from(*p) + 1 == u32::from(x))
            }),
            Cond::Phase { cmp, value } => {
                let id = self.phase_id(s);
                let n: i64 =
                    id.chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap_or(0);
                cmp.holds(n, i64::from(*value))
            }
        }
    }
}
