//! The 1800 state and actions (serde types stored as JSON): provinces with pops by owner,
//! factories and at most one regiment; each seat's power, prosperity, hands, ambition, tableau of
//! development cards with the resources on them; the decks; the round, the draft and whose turn
//! it is; and the choices a card left open (`pending`).

use serde::{Deserialize, Serialize};

/// The index of the neutral population in [`Prov::pops`] (powers are 0..8).
pub const NEUTRAL: usize = 8;
/// Food, production, commerce: indices into resource arrays.
pub const F: usize = 0;
pub const P: usize = 1;
pub const C: usize = 2;
/// The letters of the resources, in that order.
pub const RES: [char; 3] = ['F', 'P', 'C'];
/// Rounds per era and eras (rules, "Eras").
pub const ROUNDS_PER_ERA: u8 = 8;
pub const ERAS: u8 = 3;
/// The prosperity track's top (FACTS §7.2, RULING E5).
pub const MAX_PROSPERITY: u8 = 60;

/// A regiment (a cone): whose, and for a conscripted one where its pop lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// The power (index into the data's powers); `None` for a neutral regiment.
    pub owner: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conscripted: Option<u16>,
}

/// One province on the board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prov {
    /// Pops by owner: powers 0..8, then the neutral pops at [`NEUTRAL`].
    pub pops: [u8; 9],
    pub factories: u8,
    pub regiment: Option<Piece>,
}

/// A development card in front of a player, with the resources on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Held {
    /// The card kind (index into the data's development cards).
    pub card: u16,
    /// Resources on it: food, production, commerce.
    pub res: [u8; 3],
    /// Resources placed on it this turn (for the placement caps).
    pub placed: [u8; 3],
    /// Activated this turn (rules: "each Development card can be activated only once each turn");
    /// for a Financial Institution, which never activates: commerce taken off it this turn
    /// (RULING E66).
    pub used: bool,
    /// A policy or technology replaced by a newer one (rules: placed on top of the old one).
    pub covered: bool,
}

/// One seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// The power played (index into the data's powers).
    pub power: u8,
    pub prosperity: u8,
    /// Admin cards held (kinds, sorted; secret).
    pub admin: Vec<u8>,
    /// Military cards held (kinds, sorted; secret).
    pub military: Vec<u8>,
    /// The national ambition (secret until the end).
    pub ambition: u8,
    pub cards: Vec<Held>,
    /// Resources collected this turn and not yet placed (RULING E3: returned at the end).
    pub supply: [u8; 3],
    /// Overseas routes holding one of this seat's trade tokens.
    pub overseas: Vec<u8>,
    /// Seats this seat has a European trade agreement with.
    pub european: Vec<u8>,
    /// The military or naval tradition in play.
    pub tradition: Option<u8>,
    /// Whether the last collection gave a food surplus (for the policies' end moves).
    pub surplus: bool,
    /// The ambition was revealed (a Conquest declaration).
    #[serde(default)]
    pub revealed: bool,
    /// Prosperity at the start of the turn (Republic).
    pub turn_start_prosperity: u8,
}

/// What a card left for its owner to choose, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Choice {
    /// Build a factory (in a city you control with a free place).
    Factory,
    /// Place a new pop (pop growth).
    Pop,
    /// Recruit a regiment (an Army institution was played).
    Recruit,
    /// Take a technology from the face-up pool or a discovered one from the deck.
    Tech,
    /// Convert one pop in a province you control to your own.
    Convert,
    /// Discard a military card.
    DiscardMilitary,
    /// Remove a trade token of a player with a smaller navy (Navy).
    NavyRaid,
    /// Diplomatic Action, Trade Technology: agree to trade with the seat `with` by taking one of
    /// its technologies (declining refuses the trade).
    Barter { with: u8 },
    /// Diplomatic Action, Trade Technology: take one technology of the seat `of`, who agreed.
    TechOf { of: u8 },
    /// Pop growth with a Hospitals holding commerce: Y+1 for 3 C, or one more pop for 2 C.
    Hospital,
    /// Public Schools alone: move a laborer or farmer of yours into an adjacent city you control
    /// (RULING E80).
    Educate,
    /// Secret Police alone: remove a pop not your own from a province you control (RULING E81).
    Massacre,
    /// A food deficit of `food` at collection: remove that much food from your cards, or
    /// sacrifice a pop (rules, "Player Turns" step 1; RULING E4).
    Deficit { food: u8 },
    /// Command Economy's upkeep at the start of the turn (`republic` false) or a Republic's at its
    /// end: which admin card is discarded (FACTS §4.1; RULING E22).
    Upkeep { republic: bool },
    /// A price to pay in cards or a loss to take (FACTS §5.1, §6.2; RULINGS E21, E75).
    Toll(Toll),
    /// Command Economy at the start of the turn, after its admin card: "then may move 1 pop
    /// between adjacent provinces you control" (FACTS §4.1; RULING E22), before the collection.
    StartMove,
}

/// What a [`Choice::Toll`] costs, and what is lost when it is not paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Toll {
    /// Unrest Overseas: a military card, or this overseas route.
    Route(u8),
    /// Unrest at Home: a military card, or the occupying regiment in this province.
    Regiment(u16),
    /// Liberal Revolution (2 military cards) or Rising Fascism (3 admin cards), or the revolution.
    Revolution { liberal: bool },
    /// Support Rebellion: `n` military cards, or the occupying regiment in this province.
    Rebellion { province: u16, n: u8 },
}

/// A choice owed by a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub seat: u8,
    pub choice: Choice,
}

/// Where the round stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Stage {
    /// The development draft: the seats still to pick, in order.
    Draft {
        to_pick: Vec<u8>,
    },
    /// A seat's turn: placing and activating (`end_moves` false), then the end-of-turn moves.
    Turn {
        seat: u8,
        end_moves: bool,
        pop_moved: bool,
        regiment_moves: u8,
        migrated: bool,
        /// Where the regiments moved at the end of this turn now stand: each regiment moves once
        /// (FACTS §4.2: "move ≤ n regiments … to an adjacent one").
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        marched: Vec<u16>,
    },
    /// Before the draft: the seats still to say whether they play Accelerate Development
    /// (FACTS §5.1), and those that did, in turn order (they pick first).
    Call {
        to_ask: Vec<u8>,
        early: Vec<u8>,
    },
    /// After the turns: the seats wronged this round (RULING E72: a trade token raided, pops
    /// cleansed or massacred, resources sabotaged, a regiment's rebellion supported) that
    /// may still declare war on the wrongdoer (FACTS §4.3 Navy, §5.1 Diplomatic Action).
    Reprisal {
        to_ask: Vec<u8>,
    },
    /// Rounds step 4: the war phase (whose turn it is: `war.to_act()`).
    War,
    Over,
}

/// The whole game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: Vec<Player>,
    pub provinces: Vec<Prov>,
    /// Rounds played before this one (0..24).
    pub round: u8,
    /// The dealer's seat index.
    pub dealer: u8,
    pub stage: Stage,
    pub pending: Vec<Pending>,
    /// The global event of this round (kind).
    pub event: Option<u8>,
    pub event_deck: Vec<u8>,
    pub dev_deck: Vec<u16>,
    pub dev_discard: Vec<u16>,
    /// The face-up draft cards and the technologies left over from earlier drafts.
    pub offer: Vec<u16>,
    /// Technologies of later eras, waiting to be shuffled in (rules, "Decks").
    pub later_techs: Vec<u16>,
    pub admin_deck: Vec<u8>,
    pub admin_discard: Vec<u8>,
    pub military_deck: Vec<u8>,
    pub military_discard: Vec<u8>,
    /// Ambitions not dealt.
    pub ambition_deck: Vec<u8>,
    /// Development card kinds some player has adopted (technologies: "discovered").
    pub discovered: Vec<u16>,
    /// The war procedure's own state: this round's declarations, the war phase under way.
    #[serde(default)]
    pub war: super::war::WarState,
    /// A seat that played Policy Initiative in this draft and has its second pick to make; after
    /// it, one card from the deck joins the offer (FACTS §5.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<u8>,
    /// This round's wrongs that allow a declaration of war at its end (cleared with the round).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grievances: Vec<Grievance>,
}

/// A wrong done to a seat this round (RULING E72): `offender` removed one of its trade tokens
/// (`raid`, by a Navy), cleansed or massacred its pops, sabotaged its cards or supported a
/// rebellion against its regiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grievance {
    pub victim: u8,
    pub offender: u8,
    pub raid: bool,
}

/// One move in the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Take the face-up card at this place of the offer.
    Pick(u8),
    /// Take no card in this draft.
    PassPick,
    /// Put one resource of the supply on a card of the tableau.
    Place {
        card: u8,
        res: u8,
    },
    /// Activate a card, discarding these admin cards if it costs any.
    Activate {
        card: u8,
        discard: Vec<u8>,
    },
    /// Activate a card by admin cards alone, its second way (RULING E79): these are discarded;
    /// `military`: the military cards it discards instead (Police State, RULING E83).
    ActivateAlone {
        card: u8,
        discard: Vec<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        military: Vec<u8>,
    },
    /// Play an admin card: option `option` of it, with its targets.
    Admin {
        card: u8,
        option: u8,
        target: Target,
    },
    /// Financial Institution: move 1 commerce from it to another card of yours (RULING E66).
    Shift {
        from: u8,
        to: u8,
    },
    /// Migration (global event): move one pop to an adjacent province.
    Migrate {
        from: u16,
        to: u16,
    },
    /// Done placing and activating: go to the end-of-turn moves.
    EndActions,
    /// An end-of-turn pop move allowed by the economic policy.
    MovePop {
        from: u16,
        to: u16,
    },
    /// An end-of-turn regiment move allowed by the infrastructure technology.
    MoveRegiment {
        from: u16,
        to: u16,
    },
    EndTurn,
    /// Answers to a pending choice.
    Build(u16),
    Grow(u16),
    Recruit(u16),
    Tech(u16),
    Convert {
        province: u16,
        owner: u8,
    },
    DiscardMilitary(u8),
    /// Public Schools: a pop of yours moves `from` → `to` (RULING E80).
    Educate {
        from: u16,
        to: u16,
    },
    /// Secret Police: one pop of `owner` removed from `province` (RULING E81).
    Massacre {
        province: u16,
        owner: u8,
    },
    Raid {
        seat: u8,
        route: u8,
    },
    /// Decline an optional choice (a [`Choice::Toll`]: take the loss).
    Skip,
    /// A food deficit paid with the food on your cards (in the order of your cards).
    Feed,
    /// A food deficit paid with a pop of yours in this province.
    Sacrifice(u16),
    /// An upkeep's admin card discarded.
    DiscardAdmin(u8),
    /// A [`Choice::Toll`] paid: these cards (military, or admin for Rising Fascism) discarded.
    Pay(Vec<u8>),
    /// One action in the war phase.
    War(super::war::WarAction),
    /// The Conquest ambition: declare war at the end of your turn on this power (FACTS §6.1).
    Declare(u8),
    /// The victim of a Navy raid declares war at the round's end on the raider, this power
    /// (FACTS §4.3).
    Retaliate(u8),
    /// Corporations: instead of building a factory, 1 prosperity and 1 commerce on this Stock
    /// Exchange (none when no Stock Exchange has a free square).
    Incorporate(Option<u8>),
    /// Hospitals at pop growth: 3 commerce off this card for 1 prosperity, or 2 for one more pop.
    Heal {
        card: u8,
        pop: bool,
    },
}

/// What an admin card is aimed at (the fields its option needs).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<u8>,
    /// The tableau card paying a commerce cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discard: Vec<u8>,
    /// A second card of yours: the Stock Exchange receiving Free Enterprise's commerce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub onto: Option<u8>,
    /// A card of the other seat's tableau (Sabotage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub their: Option<u8>,
    /// A resource (Sabotage: production or food).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub res: Option<u8>,
    /// Military cards discarded (Conquest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub military: Vec<u8>,
    /// The owners of the pops removed (Cleanse): pops indices, one a pop.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pops: Vec<u8>,
    /// What pays the card's prosperity cost when the seat cannot pay it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instead: Option<Substitute>,
    /// How many the card moves or removes, where it says "up to": Urbanization's pops (RULING
    /// E34), Sabotage's resources (RULING E98); `None`: as many as there are, up to the card's
    /// number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
}

/// How an admin card's prosperity cost is paid by a seat that cannot pay it (FACTS §4.1
/// Oligarchy and Police State, §5.1 Propaganda Campaign; RULING E77).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Substitute {
    /// 1 commerce from this tableau card (a policy or institution): Oligarchy.
    Commerce(u8),
    /// This military card discarded: Police State, at prosperity 0.
    Military(u8),
    /// This admin card discarded: Propaganda Campaign.
    Discard(u8),
}

impl State {
    /// The era (1..=3) of the current round.
    pub fn era(&self) -> u8 {
        (self.round / ROUNDS_PER_ERA + 1).min(ERAS)
    }
    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.stage == Stage::Over
    }
    /// Seats in turn order this round: from the dealer's left (rules, "Dealer Chip").
    pub fn turn_order(&self) -> Vec<u8> {
        let n = self.players.len() as u8;
        (1..=n).map(|k| (self.dealer + k) % n).collect()
    }
    /// The seat whose power is `power`.
    pub fn seat_of(&self, power: usize) -> Option<u8> {
        self.players.iter().position(|p| usize::from(p.power) == power).and_then(|i| u8::try_from(i).ok())
    }
    /// The power index's pops in all provinces.
    pub fn pops_of(&self, power: usize) -> u32 {
        self.provinces.iter().map(|p| u32::from(p.pops[power])).sum()
    }
    /// The regiments of a power on the board.
    pub fn regiments_of(&self, power: usize) -> u8 {
        let n = self
            .provinces
            .iter()
            .filter(|p| p.regiment.is_some_and(|r| r.owner.map(usize::from) == Some(power)))
            .count();
        u8::try_from(n).unwrap_or(u8::MAX)
    }
    /// The owner controlling a province (rules: the regiment's owner; otherwise more pops than
    /// any other nation, the neutral pops counting as one; a tie controls nothing): a pops
    /// index (0..8 powers, [`NEUTRAL`]).
    pub fn controller(&self, p: u16) -> Option<usize> {
        let prov = self.provinces.get(usize::from(p))?;
        if let Some(r) = prov.regiment {
            return Some(r.owner.map(usize::from).unwrap_or(NEUTRAL));
        }
        // One pass: the largest number of pops, and whether another nation has as many.
        let (mut most, mut leader, mut tie) = (0u8, None, false);
        for (owner, &n) in prov.pops.iter().enumerate() {
            if n > most {
                (most, leader, tie) = (n, Some(owner), false);
            } else if n == most && n > 0 {
                tie = true;
            }
        }
        if tie { None } else { leader }
    }
    /// Whether the seat's power controls `p`.
    pub fn controls(&self, seat: usize, p: u16) -> bool {
        let Some(me) = self.players.get(seat).map(|pl| usize::from(pl.power)) else { return false };
        let Some(prov) = self.provinces.get(usize::from(p)) else { return false };
        // Without a regiment there, only a power with pops there can lead (most provinces, for
        // most seats: the answer without counting everyone's pops).
        if prov.regiment.is_none() && prov.pops.get(me).is_none_or(|n| *n == 0) {
            return false;
        }
        self.controller(p) == Some(me)
    }
}
