//! The 1833 deck as data: loading and checking a deck file (`rules/1833/deck.toml`, or one a GM
//! supplies) into the engine's types. A broken file is a [`DeckError`] naming the file and the
//! entry (`rules/1833/deck.toml: city "Newark": …`). The format is documented in
//! `rules/1833/README.md`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A card in play: an index into [`Deck::cards`] (each physical card has its own id).
pub type CardId = u16;

/// A deck file could not be loaded: which file, which entry, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {entry}{sep}{msg}", sep = if entry.is_empty() { "" } else { ": " })]
pub struct DeckError {
    pub file: String,
    pub entry: String,
    pub msg: String,
}

/// What a card is (copies of a city share their kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    City(u8),
    Private(u8),
    Corp(u8),
    /// Level 1, 2 or 3.
    Loco(u8),
    Reshuffle,
}

/// A city's colour, which gives the number of its cards (cards ¶2: blue 3, red 2, black 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Blue,
    Red,
    Black,
}

impl Colour {
    /// How many cards of a city of this colour the deck holds.
    pub fn copies(self) -> u8 {
        match self {
            Colour::Blue => 3,
            Colour::Red => 2,
            Colour::Black => 1,
        }
    }
}

/// A city: its victory points and the cities its card lists as connections.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct City {
    pub name: String,
    pub vp: i32,
    pub colour: Colour,
    /// Indices into [`Deck::cities`].
    pub connects: Vec<u8>,
}

/// A private railroad: one card, -1 VP in a route, linking the cities it lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Private {
    pub name: String,
    pub connects: Vec<u8>,
}

/// A corporate railroad: two cards, bonus for routes connected to its home city.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Corp {
    pub id: String,
    pub name: String,
    pub home: u8,
}

/// A checked deck.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deck {
    pub title: String,
    pub reconstructed: bool,
    pub cities: Vec<City>,
    pub privates: Vec<Private>,
    pub corps: Vec<Corp>,
    pub locomotives_per_level: u8,
    pub reshuffles: u8,
    /// Every physical card, by id.
    pub cards: Vec<Kind>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    deck: RawDeck,
    #[serde(default)]
    city: Vec<RawCity>,
    #[serde(default)]
    private: Vec<RawPrivate>,
    #[serde(default)]
    corp: Vec<RawCorp>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    title: String,
    #[serde(default)]
    reconstructed: bool,
    locomotives_per_level: u8,
    reshuffles: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCity {
    name: String,
    vp: i32,
    colour: Colour,
    connects: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPrivate {
    name: String,
    connects: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCorp {
    id: String,
    name: String,
    home: String,
}

/// The standard deck file, embedded at build time.
pub const STANDARD: &str = include_str!("../../../rules/1833/deck.toml");
/// The standard deck file's name in errors.
pub const STANDARD_FILE: &str = "rules/1833/deck.toml";

/// Cards ¶3-¶4: six corporate railroads, two cards each; six private railroads, one card each.
const CORPS: usize = 6;
const PRIVATES: usize = 6;

impl Deck {
    /// The standard deck of `rules/1833/deck.toml`.
    pub fn standard() -> Result<Deck, DeckError> {
        Deck::parse(STANDARD, STANDARD_FILE)
    }

    /// Parses and checks a deck file; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Deck, DeckError> {
        let err = |entry: String, msg: String| DeckError { file: file.to_string(), entry, msg };
        let raw: RawFile = toml::from_str(text).map_err(|e| err(String::new(), e.to_string()))?;
        let mut names: BTreeMap<String, String> = BTreeMap::new();
        let mut claim = |what: String, name: &str| -> Result<(), DeckError> {
            let bad = name.trim().is_empty() || name.contains(['-', ',', ':']) || name.trim() != name;
            if bad {
                return Err(err(what, "a name must be non-empty, trimmed, without '-', ',' or ':'".into()));
            }
            let key = name.to_lowercase();
            if ["any", "none", "level", "re-shuffle"].contains(&key.as_str()) {
                return Err(err(what, format!("\"{name}\" is a word of the order language")));
            }
            if let Some(first) = names.insert(key, what.clone()) {
                return Err(err(what, format!("the name \"{name}\" is already used by {first}")));
            }
            Ok(())
        };
        for c in &raw.city {
            claim(format!("city \"{}\"", c.name), &c.name)?;
        }
        for p in &raw.private {
            claim(format!("private \"{}\"", p.name), &p.name)?;
        }
        for c in &raw.corp {
            claim(format!("corp \"{}\"", c.id), &c.id)?;
        }
        if raw.city.len() < 4 || raw.city.len() > 250 {
            return Err(err(
                "[[city]]".into(),
                format!("a deck needs 4 to 250 cities, not {}", raw.city.len()),
            ));
        }
        let city_index = |entry: &str, name: &str| -> Result<u8, DeckError> {
            raw.city
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(name))
                .and_then(|i| u8::try_from(i).ok())
                .ok_or_else(|| err(entry.to_string(), format!("\"{name}\" is not a city of this deck")))
        };
        let mut cities = Vec::new();
        for c in &raw.city {
            let entry = format!("city \"{}\"", c.name);
            if !(0..=20).contains(&c.vp) {
                return Err(err(entry, format!("vp {} is outside 0 to 20", c.vp)));
            }
            let connects = indices(&entry, &c.connects, &city_index, &err)?;
            if connects.iter().any(|&i| raw.city.get(usize::from(i)).is_some_and(|o| o.name == c.name)) {
                return Err(err(entry, "a city cannot connect to itself".into()));
            }
            cities.push(City { name: c.name.clone(), vp: c.vp, colour: c.colour, connects });
        }
        // Route connections are read from either card: they must agree (RULING C5).
        for c in &cities {
            for &o in &c.connects {
                let other = cities.get(usize::from(o));
                if other.is_some_and(|x| !x.connects.iter().any(|&b| cities.get(usize::from(b)) == Some(c))) {
                    let oname = other.map(|x| x.name.as_str()).unwrap_or_default();
                    return Err(err(
                        format!("city \"{}\"", c.name),
                        format!("connects to \"{oname}\" but \"{oname}\" does not list \"{}\"", c.name),
                    ));
                }
            }
        }
        if raw.private.len() != PRIVATES {
            return Err(err(
                "[[private]]".into(),
                format!("the deck has {PRIVATES} private RRs, not {}", raw.private.len()),
            ));
        }
        let mut privates = Vec::new();
        for p in &raw.private {
            let entry = format!("private \"{}\"", p.name);
            let connects = indices(&entry, &p.connects, &city_index, &err)?;
            if connects.len() < 2 {
                return Err(err(entry, "a private RR links at least two cities".into()));
            }
            // RULING C21: it links two otherwise unconnected cities, so it must list such a pair.
            let direct = |a: u8, b: u8| cities.get(usize::from(a)).is_some_and(|c| c.connects.contains(&b));
            if !any_pair(&connects, |a, b| !direct(a, b)) {
                return Err(err(
                    entry,
                    "a private RR links two otherwise unconnected cities, but every pair it lists is directly connected".into(),
                ));
            }
            privates.push(Private { name: p.name.clone(), connects });
        }
        if raw.corp.len() != CORPS {
            return Err(err(
                "[[corp]]".into(),
                format!("the deck has {CORPS} Corp RRs, not {}", raw.corp.len()),
            ));
        }
        let mut corps = Vec::new();
        for c in &raw.corp {
            let home = city_index(&format!("corp \"{}\"", c.id), &c.home)?;
            corps.push(Corp { id: c.id.clone(), name: c.name.clone(), home });
        }
        let d = &raw.deck;
        if !(6..=40).contains(&d.locomotives_per_level) {
            return Err(err("[deck]".into(), "locomotives_per_level must be 6 to 40 (set-up deals one Level 1 per player and splits Level 2 in halves)".into()));
        }
        if !(3..=12).contains(&d.reshuffles) {
            return Err(err(
                "[deck]".into(),
                "reshuffles must be 3 to 12 (set-up removes up to three)".into(),
            ));
        }
        let mut cards = Vec::new();
        for (i, c) in cities.iter().enumerate() {
            let k = Kind::City(u8::try_from(i).unwrap_or(u8::MAX));
            cards.extend(std::iter::repeat_n(k, usize::from(c.colour.copies())));
        }
        cards.extend((0..PRIVATES as u8).map(Kind::Private));
        cards.extend((0..CORPS as u8).flat_map(|i| [Kind::Corp(i), Kind::Corp(i)]));
        for level in 1..=3 {
            cards.extend(std::iter::repeat_n(Kind::Loco(level), usize::from(d.locomotives_per_level)));
        }
        cards.extend(std::iter::repeat_n(Kind::Reshuffle, usize::from(d.reshuffles)));
        Ok(Deck {
            title: d.title.clone(),
            reconstructed: d.reconstructed,
            cities,
            privates,
            corps,
            locomotives_per_level: d.locomotives_per_level,
            reshuffles: d.reshuffles,
            cards,
        })
    }

    /// The kind of a card (`Reshuffle` for an unknown id, which checked states never hold).
    pub fn kind(&self, card: CardId) -> Kind {
        self.cards.get(usize::from(card)).copied().unwrap_or(Kind::Reshuffle)
    }

    /// A kind's name as players write it: "Philadelphia", "PRR", "Level 2", "Re-Shuffle".
    pub fn kind_name(&self, k: Kind) -> String {
        let get = |v: Option<&String>| v.cloned().unwrap_or_else(|| "?".into());
        match k {
            Kind::City(i) => get(self.cities.get(usize::from(i)).map(|c| &c.name)),
            Kind::Private(i) => get(self.privates.get(usize::from(i)).map(|c| &c.name)),
            Kind::Corp(i) => get(self.corps.get(usize::from(i)).map(|c| &c.id)),
            Kind::Loco(l) => format!("Level {l}"),
            Kind::Reshuffle => "Re-Shuffle".into(),
        }
    }

    /// A card's name.
    pub fn name(&self, card: CardId) -> String {
        self.kind_name(self.kind(card))
    }

    /// A kind's name, borrowed where it can be (the same text as [`Deck::kind_name`]).
    pub fn kind_str(&self, k: Kind) -> std::borrow::Cow<'_, str> {
        use std::borrow::Cow;
        fn get(v: Option<&String>) -> Cow<'_, str> {
            Cow::Borrowed(v.map_or("?", String::as_str))
        }
        match k {
            Kind::City(i) => get(self.cities.get(usize::from(i)).map(|c| &c.name)),
            Kind::Private(i) => get(self.privates.get(usize::from(i)).map(|c| &c.name)),
            Kind::Corp(i) => get(self.corps.get(usize::from(i)).map(|c| &c.id)),
            Kind::Loco(1) => Cow::Borrowed("Level 1"),
            Kind::Loco(2) => Cow::Borrowed("Level 2"),
            Kind::Loco(3) => Cow::Borrowed("Level 3"),
            Kind::Loco(l) => Cow::Owned(format!("Level {l}")),
            Kind::Reshuffle => Cow::Borrowed("Re-Shuffle"),
        }
    }

    /// A card's name, borrowed where it can be (the same text as [`Deck::name`]).
    pub fn name_str(&self, card: CardId) -> std::borrow::Cow<'_, str> {
        self.kind_str(self.kind(card))
    }

    /// The kind a player's name refers to (case-insensitive; "Level 2", "L2", "Re-Shuffle").
    pub fn lookup(&self, name: &str) -> Option<Kind> {
        let n = name.trim();
        let low = n.to_lowercase();
        let same = |x: &String| x.eq_ignore_ascii_case(n);
        if let Some(i) = self.cities.iter().position(|c| same(&c.name)) {
            return u8::try_from(i).ok().map(Kind::City);
        }
        if let Some(i) = self.privates.iter().position(|c| same(&c.name)) {
            return u8::try_from(i).ok().map(Kind::Private);
        }
        if let Some(i) = self.corps.iter().position(|c| same(&c.id)) {
            return u8::try_from(i).ok().map(Kind::Corp);
        }
        let level = low.strip_prefix("level").or_else(|| low.strip_prefix('l')).map(str::trim);
        match level {
            Some("1") => Some(Kind::Loco(1)),
            Some("2") => Some(Kind::Loco(2)),
            Some("3") => Some(Kind::Loco(3)),
            _ if low == "re-shuffle" || low == "reshuffle" => Some(Kind::Reshuffle),
            _ => None,
        }
    }

    /// The name in this deck nearest to one it does not know, for "did you mean" (issue 36):
    /// the names players write (cities, private RRs, Corp RRs, `Level 2`, `Re-Shuffle`) within a
    /// few letters' edits of it, the nearest first; `None` when none is that close.
    pub fn nearest(&self, name: &str) -> Option<String> {
        let low = name.trim().to_lowercase();
        let reach = (low.chars().count() / 3).max(1);
        let levels = (1..=3).map(|l| format!("Level {l}"));
        self.cities
            .iter()
            .map(|c| c.name.clone())
            .chain(self.privates.iter().map(|p| p.name.clone()))
            .chain(self.corps.iter().map(|c| c.id.clone()))
            .chain(levels)
            .chain(std::iter::once("Re-Shuffle".to_string()))
            .map(|n| (crate::schedule::words::edit_distance(&low, &n.to_lowercase()), n))
            .filter(|(d, _)| *d <= reach)
            .min_by(|a, b| a.0.cmp(&b.0))
            .map(|(_, n)| n)
    }

    /// A city's victory points.
    pub fn vp(&self, city: u8) -> i32 {
        self.cities.get(usize::from(city)).map_or(0, |c| c.vp)
    }

    /// Whether two city cards list each other.
    pub fn cities_connect(&self, a: u8, b: u8) -> bool {
        self.cities.get(usize::from(a)).is_some_and(|c| c.connects.contains(&b))
    }

    /// Whether a private RR lists a city.
    pub fn private_serves(&self, p: u8, city: u8) -> bool {
        self.privates.get(usize::from(p)).is_some_and(|c| c.connects.contains(&city))
    }
}

fn indices(
    entry: &str,
    names: &[String],
    city_index: &dyn Fn(&str, &str) -> Result<u8, DeckError>,
    err: &dyn Fn(String, String) -> DeckError,
) -> Result<Vec<u8>, DeckError> {
    let mut out = Vec::new();
    for n in names {
        let i = city_index(entry, n)?;
        if out.contains(&i) {
            return Err(err(entry.to_string(), format!("\"{n}\" is listed twice")));
        }
        out.push(i);
    }
    Ok(out)
}

/// Whether some pair of distinct entries of `items` satisfies `f`.
pub(crate) fn any_pair(items: &[u8], f: impl Fn(u8, u8) -> bool) -> bool {
    items.iter().enumerate().any(|(i, a)| items.iter().skip(i + 1).any(|b| f(*a, *b)))
}
