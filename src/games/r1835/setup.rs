//! Setting up a game for 3-7 players (FACTS §1, §1a, §4.1): options, cash out of the bank,
//! every certificate in its place (IPO stacks, the certificates waiting in the start packet,
//! the Prussian's reserved ones), then stock round 1 with seat 1 holding the priority deal.

use super::R1835;
use super::data::ItemKind;
use super::options;
use super::state::{Cert, Company, Loc, MinorState, OperatingRound, Player, PrivateState, Round, State};
use super::state::{StockRound, Turn, TurnOrder};
use crate::engine::{GameRng, Setup, SetupError, SetupSpec};

impl Setup for R1835 {
    /// A new game. Seats are in seating order as given (the GM seats the players).
    fn setup(&self, spec: &SetupSpec, _rng: &mut GameRng) -> Result<State, SetupError> {
        let Some(setup) = self.data.players_setup(spec.seats) else {
            return Err(SetupError(format!("1835 is played by 3 to 7 players, not {}", spec.seats)));
        };
        let options = options::resolve(&self.data.presets, &spec.options).map_err(SetupError)?;
        let n = usize::from(spec.seats);
        let mut majors: Vec<Company> = self
            .data
            .majors
            .iter()
            .map(|m| Company {
                id: m.id.clone(),
                certs: m
                    .certificates
                    .iter()
                    .map(|c| Cert {
                        percent: c.percent,
                        director: c.director,
                        at: if c.reserved_for.is_some() { Loc::Reserved } else { Loc::Ipo },
                    })
                    .collect(),
                price: None,
                stamp: 0,
                floated: false,
                operated: false,
                cash: 0,
                home_placed: false,
                trains: Vec::new(),
            })
            .collect();
        // Certificates sold with start-packet items wait in the packet: a director's certificate
        // with its item or private, ordinary ones from the bottom of the stack.
        for item in &self.data.packet {
            let (co, percent, director) = match item.kind {
                ItemKind::Director(co) => (co, self.data.majors[co].director_percent(), true),
                ItemKind::Private(x) => match self.data.privates[x].comes_with {
                    Some(w) => (w.company, w.percent, w.director),
                    None => continue,
                },
                ItemKind::Minor(_) => continue,
            };
            let certs = &mut majors[co].certs;
            let found = certs
                .iter()
                .rposition(|c| c.at == Loc::Ipo && c.percent == percent && c.director == director);
            match found {
                Some(i) => certs[i].at = Loc::Packet,
                None => {
                    return Err(SetupError(format!(
                        "no certificate of {} left for {}",
                        self.data.majors[co].id, item.id
                    )));
                }
            }
        }
        let mut s = State {
            options,
            players: vec![Player { cash: setup.cash }; n],
            bank: self.data.bank - setup.cash * i64::from(spec.seats),
            priority: 0,
            majors,
            minors: self
                .data
                .minors
                .iter()
                .map(|m| MinorState {
                    id: m.id.clone(),
                    owner: None,
                    cash: 0,
                    operated: false,
                    trains: Vec::new(),
                    closed: false,
                })
                .collect(),
            privates: self
                .data
                .privates
                .iter()
                .map(|p| PrivateState { id: p.id.clone(), owner: None, closed: false })
                .collect(),
            packet_sold: vec![false; self.data.packet.len()],
            round: Round::Stock { n: 1 },
            round_seq: 0,
            sr: StockRound {
                current: 0,
                order: TurnOrder::Clockwise,
                passed: vec![false; n],
                last_buyer: None,
                sold: vec![0; n],
                turn: Turn::default(),
                acted: false,
                bought: Vec::new(),
            },
            or: OperatingRound::default(),
            phase: 0,
            stamp: 0,
            end: None,
            idle: 0,
            depot: Default::default(),
            prussian_due: Vec::new(),
            prussian: Default::default(),
            closed: Vec::new(),
            board: Default::default(),
            last_runs: Default::default(),
        };
        let mut ev = Vec::new();
        self.start_stock_round(&mut s, 1, &mut ev);
        Ok(s)
    }
}
