//! The engine contract as role traits, one per file role of an engine (`crate::games`): each
//! engine implements a role in the file that plays it, so the code that answers a part of the
//! contract is that part's implementation, not a second name for an inherent method.
//!
//! | trait | role file | what it answers |
//! |---|---|---|
//! | [`Rules`] | `legal.rs` | the state and action types; whose move, what is legal, the default |
//! | [`Setup`] | `setup.rs` | dealing a new game |
//! | [`Apply`] | `apply.rs` | an action applied atomically, its events; an action in words |
//! | [`Orders`] | `orders.rs` / `orders/` | the order language: parsing, advice, answering, publishing |
//! | [`View`] | `view.rs` | what a viewer sees, as JSON and as text |
//! | [`Scoring`] | `view.rs` or `score.rs` | the final standings |
//! | [`Draw`] | `draw.rs` / `draw/` | the picture: the board once per state, each viewer's picture |
//! | [`Game`] | `mod.rs` | the game's facts (slug, title, rules version, seats, order example and guide, dice), the shape of a PBEM turn, the optional ledger and component inventory |
//!
//! [`Game`] is the supertrait of all the roles: code that plays a game names `G: Game` and reaches
//! every role's methods through it; code that calls them on a concrete engine brings the roles
//! into scope with `use crate::engine::prelude::*`.

use super::inventory::Inventory;
use super::{
    Answer, Choices, Decision, Event, GameRng, Illegal, LineNote, Numbered, OrderError, OrderSheet, Seat,
    SetupError, SetupSpec, Standing, Viewer,
};
use crate::draw::{Fragment, Part};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{Debug, Display};
use std::ops::RangeInclusive;

/// What the rules allow now (an engine's `legal.rs`), and the types every other role speaks of.
/// Pure: same inputs, same outputs; no I/O, clock or global state.
pub trait Rules: Send + Sync + 'static {
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;

    /// Who must act next and how; `None` when the game is over.
    fn next_decision(&self, state: &Self::State) -> Option<Decision>;
    /// Every legal action at the state's decision ([`Rules::next_decision`]; the web UI and
    /// order checker list them). Empty when the game is over.
    // RULING S23: the state alone; its decision is the one `next_decision` gives.
    fn legal_actions(&self, state: &Self::State) -> Vec<Self::Action>;
    /// The rules' forced default at the state's decision when the orders give no legal answer.
    /// Must be legal.
    fn default_action(&self, state: &Self::State) -> Option<Self::Action>;
}

/// Dealing a new game (an engine's `setup.rs`).
pub trait Setup: Rules {
    /// Deals, shuffles and places everything for a new game.
    fn setup(&self, spec: &SetupSpec, rng: &mut GameRng) -> Result<Self::State, SetupError>;
}

/// Doing it (an engine's `apply.rs`): an action applied atomically, with its events.
pub trait Apply: Rules {
    /// Applies one action atomically: when it returns `Err`, the state is unchanged.
    fn apply(
        &self,
        state: &mut Self::State,
        action: &Self::Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Event>, Illegal>;
    /// An action in words, for the GM choosing among candidates. Defaults to its JSON form.
    fn describe_action(&self, action: &Self::Action) -> String {
        serde_json::to_string(action).unwrap_or_else(|_| format!("{action:?}"))
    }
}

/// The order language (an engine's `orders.rs` or `orders/`): order text ↔ actions.
pub trait Orders: Rules {
    type Order: Clone + Debug + Display + Send + Sync;

    /// Parses one non-empty, non-comment order line.
    fn parse_order(&self, line: &str) -> Result<Self::Order, OrderError>;
    /// Advice on an order at submission time that does not reject it ("you do not hold 7♥").
    fn advise(&self, _state: &Self::State, _seat: Seat, _order: &Self::Order) -> Option<String> {
        None
    }
    /// The advice on each order of a sheet, each judged after the lines before it on the same
    /// sheet (DESIGN "Orders and decisions": a sale's cash is there for the purchase written
    /// after it). Default: [`Orders::advise`] on the position as it is, line by line.
    fn advise_sheet(
        &self,
        state: &Self::State,
        seat: Seat,
        orders: &[Numbered<Self::Order>],
    ) -> Vec<Option<String>> {
        orders.iter().map(|o| self.advise(state, seat, &o.order)).collect()
    }
    /// Answers `decision` from the acting seat's sheet, marking orders used as it consumes them.
    fn answer(
        &self,
        state: &Self::State,
        decision: &Decision,
        sheet: &mut OrderSheet<Self::Order>,
    ) -> Answer<Self::Action>;
    /// Which lines of a seat's adjudicated sheet everyone may read once the turn is published
    /// (their line numbers), given what the adjudication noted per line. Everything else is
    /// published as a hash only, so the receipt stays verifiable without revealing it: a line
    /// may be public only when its text tells nothing the turn's public events do not (never an
    /// unplayed alternative, a card named in a condition, or a standing order the views hide).
    fn public_lines(&self, sheet: &OrderSheet<Self::Order>, notes: &[LineNote]) -> BTreeSet<usize>;
    /// What `seat` can order now, grouped by the decision each line answers, for the seat page's
    /// order builder: only what the seat may know (its own hand, the table), and only lines
    /// [`Orders::parse_order`] reads. For the seat whose decision it is now, the first group answers
    /// that decision, each of its lines legal now (alone on a sheet, [`Orders::answer`] carries it
    /// out; the conformance harness checks it); a seat that acts later in the turn gets the lines
    /// for its own move. Default: nothing (the page shows the game's example).
    fn choices(&self, _state: &Self::State, _seat: Seat) -> Vec<Choices> {
        Vec::new()
    }
    /// Of the lines [`Orders::public_lines`] keeps hidden, what everyone may read once the turn
    /// is published: the alternative a line carried out, in words the turn's public events already
    /// say (Railroaded's `PLAY 8H N ELSE DRAW` played as "play 8H on the North chain"), never an
    /// alternative not played. Default: nothing.
    fn played_parts(&self, _sheet: &OrderSheet<Self::Order>, _notes: &[LineNote]) -> BTreeMap<usize, String> {
        BTreeMap::new()
    }
    /// When [`Orders::answer`] gave no action: whether the game's rules send this decision to the
    /// GM instead of the default, with the candidates ranked best first (1835 HR 17 rung B: the
    /// tile that best follows the director's stated plan). Default: never.
    fn refer(
        &self,
        _state: &Self::State,
        _decision: &Decision,
        _sheet: &OrderSheet<Self::Order>,
    ) -> Option<Referral<Self::Action>> {
        None
    }
    /// At the turn's end: notes for the lines of `seat`'s sheet that wait to answer another
    /// seat's move and that no decision of the turn called on (1835: a `SELL TRAIN … TO` line no
    /// offer reached), so their player learns what became of them. The turn loop keeps only the
    /// notes on lines that have none yet. Default: none.
    fn unreached(
        &self,
        _state: &Self::State,
        _seat: Seat,
        _sheet: &OrderSheet<Self::Order>,
    ) -> Vec<LineNote> {
        Vec::new()
    }
    /// Whether a seat's orders ask that the turn end after the round it is in (HR 14).
    fn wants_one_round(&self, _sheet: &OrderSheet<Self::Order>) -> bool {
        false
    }
    /// HR 12: the stated intention a line makes, kept across turns until a line with the same
    /// key replaces or withdraws it ([`Lasting`]); `None` (the default) for a line of this turn
    /// only.
    fn lasting(&self, _order: &Self::Order) -> Option<Lasting> {
        None
    }
    /// Why a seat's remaining orders no longer fit the position `now` at a round's end (the
    /// Prussian formed, an ordered company closed, most lines unusable), or `None` when they
    /// still fit (HR 14: the GM is then asked whether the turn goes on).
    fn misfit(&self, _state: &Self::State, _seat: Seat, _sheet: &OrderSheet<Self::Order>) -> Option<String> {
        None
    }
}

/// A line that states an intention lasting until withdrawn (HR 12), such as 1835's
/// `INTENT BY: TOWARD E19`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lasting {
    /// What the intention is about (`INTENT BY`): a later line with the same key replaces it.
    pub key: String,
    /// Whether the line withdraws the intention (`INTENT BY: NONE`) rather than state one.
    pub withdraws: bool,
}

/// What each viewer sees (an engine's `view.rs`); hidden information never leaks.
pub trait View: Rules {
    /// What `viewer` may see of the state, as JSON for the API.
    fn view(&self, state: &Self::State, viewer: Viewer) -> serde_json::Value;
    /// What `viewer` may see of the state, as plain text for pages and mail.
    fn describe(&self, state: &Self::State, viewer: Viewer) -> String;
}

/// The final standings (an engine's `score.rs`, or `view.rs` where the view holds them).
pub trait Scoring: Rules {
    /// Final standings once the game is over.
    fn standings(&self, state: &Self::State) -> Option<Vec<Standing>>;
}

/// The picture of the table (an engine's `draw.rs` or `draw/`, issue 16).
pub trait Draw: Rules {
    /// The part of the picture every viewer sees alike (a map with its pieces), drawn only from
    /// what the whole table may know, once per state, to be placed in each viewer's picture by
    /// [`Draw::draw_on`]. Default: the picture has no such part.
    fn draw_board(&self, _state: &Self::State) -> Option<Fragment> {
        None
    }
    /// A picture of what `viewer` may see of the table, as a standalone SVG document (never more
    /// than [`View::describe`] shows that viewer), with `board` — this state's
    /// [`Draw::draw_board`] — placed in it. Default: the game has no drawing.
    fn draw_on(&self, _state: &Self::State, _viewer: Viewer, _board: Option<&Fragment>) -> Option<String> {
        None
    }
    /// The picture `viewer` sees: [`Draw::draw_on`] around this state's [`Draw::draw_board`].
    /// Engines implement those two, not this (the conformance harness checks they agree).
    fn draw(&self, state: &Self::State, viewer: Viewer) -> Option<String> {
        self.draw_on(state, viewer, self.draw_board(state).as_ref())
    }
    /// The picture `viewer` sees in parts a reader can take in at once on a phone's screen or in
    /// a mail (issue 36: a map, a market, the seat's own panel …), each a standalone SVG
    /// document showing no more than [`Draw::draw`] shows that viewer; the whole picture stays
    /// [`Draw::draw`]. Default: one part, the whole picture (`table`); none when the game has
    /// no drawing.
    fn draw_parts(&self, state: &Self::State, viewer: Viewer) -> Vec<Part> {
        self.draw(state, viewer)
            .map(|svg| vec![Part { name: "table", title: "The table", svg }])
            .unwrap_or_default()
    }
    /// The printed layers this game's parts are drawn over (RULING O28, `draw::layers`): each a
    /// standalone SVG document of what is the same in every game and turn (a map as printed),
    /// never anything of a game or a seat. Default: none.
    fn printed_layers(&self) -> Vec<String> {
        Vec::new()
    }
}

/// One game: every role, plus the game's own facts and the shape of its PBEM turns (an engine's
/// `mod.rs`). Pure: same inputs, same outputs; no I/O, clock or global state.
pub trait Game: Setup + Apply + Orders + View + Scoring + Draw {
    /// Stable identifier stored on every game row; never renamed.
    fn slug(&self) -> &'static str;
    /// Human name of the game.
    fn title(&self) -> &'static str;
    /// Bumped whenever the same inputs could adjudicate differently.
    fn rules_version(&self) -> u32;
    /// Whether a game stored under rules version `v` can be played on and replayed by this
    /// engine. Default: only the current version (RULINGS S15); an engine that still plays an
    /// older version's games says so here.
    fn supports_rules_version(&self, v: u32) -> bool {
        v == self.rules_version()
    }
    /// How many seats the game can be played with.
    fn seat_counts(&self) -> RangeInclusive<u8>;
    /// One line about the game, for a GM choosing what to start (issue 37).
    fn blurb(&self) -> &'static str {
        ""
    }
    /// The options a new game may be set up with (the keys of `SetupSpec.options`), from which
    /// the GM's "New game" form is made (issue 37). Default: none.
    fn option_specs(&self) -> &'static [super::OptionSpec] {
        &[]
    }
    /// A short example of this game's order text, for the order box.
    fn order_example(&self) -> &'static str {
        ""
    }
    /// The example for the order box when the game stands at `state`: orders of the phase the
    /// coming turn is in (issue 36: no PLAY in Railroaded's claim round). Default: the one
    /// [`Game::order_example`], which stays the whole language's example (the words the echo's
    /// suggestions are drawn from).
    fn order_example_at(&self, _state: &Self::State) -> &'static str {
        self.order_example()
    }
    /// The game's order guide (Markdown), served as a page and linked from the order box.
    fn order_guide(&self) -> Option<&'static str> {
        None
    }
    /// Whether the game rolls dice during play ([`GameRng::roll`]): its turns then carry a dice
    /// commitment when they open and reveal the keys in their report ([`super::dice`]).
    fn rolls_dice(&self) -> bool {
        false
    }
    /// Whether every seat may know the whole state (no hand, no face-down card, no secret
    /// choice): a seat may then see its orders played against the current table before the
    /// deadline (the seat page's preview, issue 36). Default: no.
    fn open_information(&self) -> bool {
        false
    }

    /// The seats that must act in the PBEM turn that starts at `state` (whose orders are awaited).
    fn acting_seats(&self, state: &Self::State) -> Vec<Seat>;
    /// Whether the PBEM turn that started at `start` is over at `now` (the game being over also
    /// ends it; the adjudicator checks that separately).
    fn turn_complete(&self, start: &Self::State, now: &Self::State) -> bool;
    /// How many of the game's rounds have ended between `start` (where a PBEM turn began) and
    /// `now` (1835 HR 14: a turn covers several rounds; the adjudicator may stop between them).
    /// Default: 0 (a game whose turns are not made of rounds).
    fn rounds_since(&self, _start: &Self::State, _now: &Self::State) -> u32 {
        0
    }
    /// The heading of the round `state` is in, for a turn report that groups what happened
    /// round by round (issue 15); `None` for a game whose turns are not made of rounds (default).
    fn round_title(&self, _state: &Self::State) -> Option<String> {
        None
    }

    /// Where the game's countable components are (load chits, trains, …), for engines that have
    /// such components: the conformance harness checks after every action that each is in
    /// exactly one place and that none appears or vanishes ([`Inventory::check_since`]).
    /// Default: the engine lists none.
    fn inventory(&self, _state: &Self::State) -> Option<Inventory> {
        None
    }

    /// A cash ledger of a JSONL action log (`{"seat": 2, "action": {...}}` per line), for games
    /// that keep one: the CSV (one row per entity after every round) and the final state, or why
    /// a line was refused (naming it) with the ledger of the rounds completed before it.
    /// Default: the game keeps no ledger.
    #[allow(clippy::type_complexity)]
    fn ledger(
        &self,
        _players: &[String],
        _options: &serde_json::Value,
        _seed: u64,
        _log: &str,
    ) -> Option<Result<(String, Self::State), LedgerRefused>> {
        None
    }
}

/// A decision the rules refer to the GM ([`Orders::refer`]): why, and the candidates best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Referral<A> {
    /// What the GM is asked, e.g. "HR 17 (B): which tile best follows BY's plan toward Berlin?".
    pub prompt: String,
    pub candidates: Vec<A>,
}

/// A ledger replay stopped at a line: why (naming the line), and the CSV of every round
/// completed before it (so a long game's ledger is not lost to one bad line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct LedgerRefused {
    /// The ledger up to the refused line (header included).
    pub csv: String,
    /// Why the line was refused, naming it.
    pub error: String,
}
