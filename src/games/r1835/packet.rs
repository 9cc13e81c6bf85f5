//! The start packet (FACTS §4): which items are on sale (rows, or everything in the Clemens
//! and Thompson variants), buying an item at face value, and the lap patterns of the turn
//! order while the packet is on sale (Snake, Clemens, Thompson).

use super::R1835;
use super::actions::{Refusal, illegal};
use super::data::ItemKind;
use super::holdings::{Holder, pay};
use super::options::Variant;
use super::state::{Loc, Pattern, State, TurnOrder};
use crate::engine::Event;

/// Whether lap `lap` (from 1) runs against the seating order.
pub fn reversed(pattern: Pattern, lap: u32) -> bool {
    match pattern {
        Pattern::Snake => lap == 2,
        Pattern::Clemens => lap == 1,
        Pattern::Thompson => lap.is_multiple_of(2),
    }
}

/// The seat at position `pos` of lap `lap` starting from `start` among `n` players.
pub fn lap_seat(start: u8, n: u8, lap: u32, pos: u8, pattern: Pattern) -> u8 {
    let n16 = u16::from(n.max(1));
    let offset =
        if reversed(pattern, lap) { u16::from(n.max(1)) - 1 - u16::from(pos) } else { u16::from(pos) };
    u8::try_from((u16::from(start) + offset) % n16).unwrap_or(0)
}

/// The turn order a stock round starts with (FACTS §4.3; RULING K3): the lap pattern of the
/// variant while the packet is on sale, else clockwise from the priority holder.
pub fn opening_order(variant: Variant, sr: u32, packet_open: bool, start: u8) -> TurnOrder {
    let pattern = match variant {
        _ if !packet_open => None,
        Variant::Standard => None,
        Variant::Snake | Variant::Clemens if sr != 1 => None,
        Variant::Snake => Some(Pattern::Snake),
        Variant::Clemens => Some(Pattern::Clemens),
        Variant::FullThompson | Variant::HalfThompson => Some(Pattern::Thompson),
    };
    match pattern {
        Some(pattern) => TurnOrder::Laps { start, lap: 1, pos: 0, pattern },
        None => TurnOrder::Clockwise,
    }
}

impl R1835 {
    /// The unsold items on sale now, in data order (FACTS §4.2): every unsold item in the
    /// Clemens and Thompson variants; otherwise the topmost row that is not empty and, while
    /// that row has a single item left, the leftmost unsold item of the next row.
    pub(crate) fn available_items(&self, s: &State) -> Vec<usize> {
        let unsold: Vec<usize> = (0..self.data.packet.len()).filter(|i| !s.packet_sold[*i]).collect();
        if s.options.variant.all_items_available() {
            return unsold;
        }
        let Some(top) = unsold.iter().map(|i| self.data.packet[*i].row).min() else {
            return Vec::new();
        };
        let mut out: Vec<usize> =
            unsold.iter().copied().filter(|i| self.data.packet[*i].row == top).collect();
        if out.len() == 1
            && let Some(next) =
                unsold.iter().copied().filter(|i| self.data.packet[*i].row > top).min_by_key(|i| {
                    let it = &self.data.packet[*i];
                    (it.row, it.column)
                })
        {
            out.push(next);
        }
        out
    }

    /// Certificates an item adds to its buyer's count (the paper and any share with it).
    fn item_certs(&self, kind: ItemKind) -> u32 {
        match kind {
            ItemKind::Private(i) => 1 + u32::from(self.data.privates[i].comes_with.is_some()),
            ItemKind::Minor(_) | ItemKind::Director(_) => 1,
        }
    }

    /// Whether seat `p` may buy item `i` now.
    pub(crate) fn check_buy_item(&self, s: &State, p: u8, i: usize) -> Result<(), Refusal> {
        let Some(item) = self.data.packet.get(i) else {
            return illegal("there is no such start-packet item");
        };
        if s.packet_sold[i] {
            return illegal(format!("{} has already been sold", item.id));
        }
        if !self.available_items(s).contains(&i) {
            let on_sale: Vec<&str> =
                self.available_items(s).iter().map(|x| self.data.packet[*x].id.as_str()).collect();
            return illegal(format!("{} is not on sale yet (on sale now: {})", item.id, on_sale.join(", ")));
        }
        let cash = s.players[usize::from(p)].cash;
        if cash < item.price {
            return illegal(format!("{} costs {} M and you have {cash} M", item.id, item.price));
        }
        let (count, limit) = (self.cert_count(s, p), self.cert_limit(s, p));
        if count + self.item_certs(item.kind) > limit {
            return illegal(format!(
                "{} would take you over your certificate limit ({count} of {limit} held)",
                item.id
            ));
        }
        Ok(())
    }

    /// Whether seat `p` can buy any item now (a player who cannot is skipped, FACTS §4.2).
    pub(crate) fn can_buy_any_item(&self, s: &State, p: u8) -> bool {
        self.available_items(s).into_iter().any(|i| self.check_buy_item(s, p, i).is_ok())
    }

    /// Buys item `i` for seat `p` (checked before): the paper, any share that comes with it,
    /// the money (minors: into their treasury; everything else: to the bank).
    pub(crate) fn buy_item(&self, s: &mut State, p: u8, i: usize, ev: &mut Vec<Event>) {
        let item = &self.data.packet[i];
        s.packet_sold[i] = true;
        let mut text = format!("seat {} buys {} for {} M", p + 1, item.id, item.price);
        match item.kind {
            ItemKind::Private(x) => {
                s.privates[x].owner = Some(p);
                pay(s, Holder::Player(p), Holder::Bank, item.price);
                if let Some(w) = self.data.privates[x].comes_with {
                    let moved = self.move_cert(s, w.company, Loc::Packet, Loc::Player(p), |c| {
                        c.percent == w.percent && c.director == w.director
                    });
                    if moved.is_some() {
                        let what = if w.director { "director's certificate" } else { "certificate" };
                        text.push_str(&format!(
                            " with the {} % {what} of {}",
                            w.percent, self.data.majors[w.company].id
                        ));
                        if w.director {
                            self.open_company(s, w.company);
                        }
                    }
                }
            }
            ItemKind::Minor(x) => {
                s.minors[x].owner = Some(p);
                pay(s, Holder::Player(p), Holder::Minor(x), item.price);
                text.push_str(&format!(
                    "; {} starts with {} M and its home station in {}",
                    item.id, item.price, self.data.minors[x].home
                ));
            }
            ItemKind::Director(co) => {
                pay(s, Holder::Player(p), Holder::Bank, item.price);
                self.move_cert(s, co, Loc::Packet, Loc::Player(p), |c| c.director);
                self.open_company(s, co);
                text.push_str(&format!(" (the director's certificate of {})", self.data.majors[co].id));
            }
        }
        ev.push(Event::public(text));
        for co in 0..s.majors.len() {
            self.settle_presidency(s, co, ev);
            self.check_float(s, co, ev);
        }
        if !s.packet_open() {
            ev.push(Event::public(
                "The start packet is sold out: the stock round continues as a normal stock round",
            ));
        }
    }

    /// Sets a company's par (its price marker's space) when its director's certificate is sold;
    /// the marker's place among others on that space is taken when it floats (RULING K93).
    pub(crate) fn open_company(&self, s: &mut State, co: usize) {
        if s.majors[co].price.is_none() {
            s.stamp += 1;
            s.majors[co].price = Some(self.data.majors[co].start_space);
            s.majors[co].stamp = s.stamp;
        }
    }
}
