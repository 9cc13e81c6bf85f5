//! Trains between companies (FACTS §7.6: from phase 2, "at any agreed price", at least 1 M; HR 9:
//! from the treasury only). One player directing both companies agrees with himself, so the
//! buyer's purchase is the trade (RULING K36). Between two players the selling director agrees:
//! the operating company offers a price (`offer_train`), the seller's director answers
//! (`answer_train_offer`), and a declined offer is not made again that turn (RULING K75). The
//! `foreign_train_trades` option `direct` also takes the buyer's purchase alone, as Rails records
//! a trade agreed off the board. Only the two directors (and the GM) see an offer's price.

use super::super::R1835;
use super::super::actions::{Action, Refusal, illegal};
use super::super::options::ForeignTrainTrades;
use super::super::state::{Entity, State, TrainOffer};
use super::depot::{cash_of, id_of, trains_of};
use super::{Purchase, Source};
use crate::engine::{Event, Seat};

impl R1835 {
    /// A purchase from another company at `price`: from phase 2, at least 1 M, with the
    /// treasury only (FACTS §7.6, HR 9). Between companies of two players only when the
    /// seller's director has `agreed`, or the game takes the buyer's word for it (RULINGS K36,
    /// K75).
    pub(super) fn check_trade(
        &self,
        s: &State,
        e: Entity,
        seller: Entity,
        train: &str,
        price: i64,
        agreed: bool,
    ) -> Result<Purchase, Refusal> {
        let sid = id_of(s, seller);
        if let Entity::Minor(m) = seller
            && s.minors.get(usize::from(m)).is_none_or(|x| x.closed)
        {
            return illegal(format!("{sid} has been exchanged into the Prussian and holds no trains"));
        }
        if !self.data.phases.get(usize::from(s.phase)).is_some_and(|p| p.train_trading) {
            return illegal(
                "companies may buy trains from each other only from phase 2 on (the first 3-train; FACTS §7.6)",
            );
        }
        let Some(i) = trains_of(s, seller).iter().position(|x| x == train) else {
            return illegal(format!("{sid} has no {train}-train"));
        };
        if price < 1 {
            return illegal("a train bought from another company costs at least 1 M (FACTS §7.6)");
        }
        let me = self.controller(s, e);
        let direct = s.options.foreign_train_trades == ForeignTrainTrades::Direct;
        if me.is_none() || (self.controller(s, seller) != me && !agreed && !direct) {
            let id = id_of(s, e);
            return illegal(format!(
                "{sid} is directed by another player, who must agree to the price: offer it (by mail {id}: BUY TRAIN {train} FROM {sid} FOR {price}, matched by {sid}: SELL TRAIN {train} TO {id} MIN …) (RULINGS K36, K75)"
            ));
        }
        let cash = cash_of(s, e);
        if cash < price {
            return illegal(format!(
                "{} has {cash} M; a train from another company is paid from the treasury only (HR 9)",
                id_of(s, e)
            ));
        }
        Ok(Purchase { source: Source::Company(seller, i), price, president_adds: 0, bankrupt: false })
    }

    /// Whether the operating entity may offer `price` for `from`'s `train`: a company another
    /// player directs, no offer waiting, not one its seller declined this turn, and a trade
    /// that could be carried out at once if accepted (RULING K75).
    pub(super) fn check_offer(
        &self,
        s: &State,
        e: Entity,
        train: &str,
        from: &str,
        price: i64,
    ) -> Result<(Entity, Purchase), Refusal> {
        self.operating(s, e)?;
        if s.or.turn.offer.is_some() {
            return illegal("an offer is already waiting for an answer");
        }
        let Some(seller) = self.entity_by_id(from).filter(|x| *x != e) else {
            return illegal(format!("\"{from}\" is not another company's id"));
        };
        let (id, sid) = (id_of(s, e), id_of(s, seller));
        if self.controller(s, seller).is_none_or(|p| self.controller(s, e) == Some(p)) {
            return illegal(format!(
                "{id} and {sid} have the same director: buy the train at once, e.g. {id}: BUY TRAIN {train} FROM {sid} PRICE 1 (RULING K36)"
            ));
        }
        let offer = TrainOffer { seller, train: train.to_string(), price };
        if s.or.turn.declined.contains(&offer) {
            return illegal(format!(
                "{sid}'s director has declined {price} M for its {train}-train this turn"
            ));
        }
        self.check_room(s, e)?;
        if self.train_type(train).is_none() {
            return illegal(format!("there is no \"{train}\" train"));
        }
        Ok((seller, self.check_trade(s, e, seller, train, price, true)?))
    }

    /// The operating entity offers `price` for `from`'s `train`; the seller's director answers
    /// next. The public event names the trade asked for; its price goes to the seller's seat.
    pub(crate) fn offer_train(
        &self,
        s: &mut State,
        e: Entity,
        train: &str,
        from: &str,
        price: i64,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let (seller, _) = self.check_offer(s, e, train, from, price)?;
        let (id, sid) = (id_of(s, e), id_of(s, seller));
        s.or.turn.offer = Some(TrainOffer { seller, train: train.to_string(), price });
        let public = format!("{id} offers to buy {sid}'s {train}-train; {sid}'s director answers");
        ev.push(match self.director_seat(s, seller) {
            Some(seat) => Event::with_secret(public, seat, format!("{id} offers {price} M")),
            None => Event::public(public),
        });
        Ok(())
    }

    /// The seller's director answers the offer waiting: the trade is carried out (true) or the
    /// offer is declined and not made again this turn. The price of a declined offer goes to the
    /// buyer's seat alone.
    pub(crate) fn answer_train_offer(
        &self,
        s: &mut State,
        company: &str,
        accept: bool,
        ev: &mut Vec<Event>,
    ) -> Result<bool, Refusal> {
        let Some(offer) = s.or.turn.offer.clone() else {
            return illegal("no offer for a train is waiting for an answer");
        };
        let sid = id_of(s, offer.seller);
        if !sid.eq_ignore_ascii_case(company.trim()) {
            return illegal(format!(
                "the offer waiting is for {sid}'s {}-train, not {company}'s",
                offer.train
            ));
        }
        let Some(e) = self.operating_entity(s) else { return illegal("no company is operating") };
        let id = id_of(s, e);
        if !accept {
            s.or.turn.offer = None;
            let public = format!("{sid} keeps its {}-train: no agreement with {id}", offer.train);
            ev.push(match self.director_seat(s, e) {
                Some(seat) => Event::with_secret(
                    public,
                    seat,
                    format!("{sid}'s director did not take your offer of {} M", offer.price),
                ),
                None => Event::public(public),
            });
            s.or.turn.declined.push(offer);
            return Ok(false);
        }
        let mut check = s.clone();
        check.or.turn.offer = None;
        let (_, plan) = self.check_offer(&check, e, &offer.train, &sid, offer.price)?;
        s.or.turn.offer = None;
        ev.push(Event::public(format!("{sid}'s director agrees to sell to {id}")));
        self.carry_out(s, e, &offer.train, plan, ev);
        Ok(true)
    }

    /// The answers the seller's director may give to the offer waiting (accept where the trade
    /// can be carried out, and decline).
    pub(crate) fn legal_offer_answers(&self, s: &State, out: &mut Vec<Action>) {
        let Some(offer) = &s.or.turn.offer else { return };
        let company = id_of(s, offer.seller);
        for accept in [true, false] {
            let a = Action::AnswerTrainOffer { company: company.clone(), accept };
            if self.apply_action(&mut s.clone(), &a).is_ok() {
                out.push(a);
            }
        }
    }

    /// The offer waiting, in words for its two directors and the GM (`price` false: for
    /// everyone, without the price).
    pub(crate) fn offer_words(&self, s: &State, price: bool) -> Option<String> {
        let offer = s.or.turn.offer.as_ref()?;
        let buyer = self.operating_entity(s).map(|e| id_of(s, e)).unwrap_or_default();
        let sid = id_of(s, offer.seller);
        let amount = if price { format!(" {} M", offer.price) } else { String::new() };
        Some(format!(
            "{buyer} offers{amount} for {sid}'s {}-train: {sid}'s director accepts or declines",
            offer.train
        ))
    }

    /// Whether `seat` directs the buyer or the seller of the offer waiting (it may see the price).
    pub(crate) fn party_to_offer(&self, s: &State, seat: Seat) -> bool {
        let Some(offer) = &s.or.turn.offer else { return false };
        let buyer = self.operating_entity(s);
        [Some(offer.seller), buyer].into_iter().flatten().any(|x| self.director_seat(s, x) == Some(seat))
    }

    /// The seat directing an entity.
    fn director_seat(&self, s: &State, e: Entity) -> Option<Seat> {
        self.controller(s, e).map(|p| Seat::from_index(usize::from(p)))
    }
}
