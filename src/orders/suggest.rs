//! A suggestion for a line the order language cannot read (HR 16): the echo marks such a line
//! "not understood" with the parser's error and, where one can be found, a line the language
//! does read — a misspelt order word corrected ("BYU 1 BY" → `BUY 1 BY`). The words tried are
//! the game's own: the capitalised words of its order example and order guide. A line of free
//! prose gets the advice to write it as an order or as a comment.

use crate::engine::Game;
use crate::schedule::words::edit_distance;
use std::collections::BTreeSet;

/// The most re-readings tried for one line.
const MAX_TRIES: usize = 40;

/// The order words of a game: capitalised words of at least three letters in its order example
/// and order guide.
pub fn known_words<G: Game>(game: &G) -> BTreeSet<String> {
    let texts = [game.order_example(), game.order_guide().unwrap_or("")];
    texts
        .iter()
        .flat_map(|t| t.split(|c: char| !c.is_ascii_alphabetic()))
        .filter(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_uppercase()))
        .map(str::to_string)
        .collect()
}

/// How far a word may be from an order word to be taken for a misspelling of it.
fn reach(word: &str) -> usize {
    if word.len() <= 4 { 1 } else { 2 }
}

/// The name of `names` nearest to a misspelt `given` (letter case aside), for an echo's "did you
/// mean" on a name the game's data does not know (a station, a company); `None` when none is
/// within reach of a misspelling.
pub fn nearest_name<'a>(given: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let up = given.trim().to_ascii_uppercase();
    names
        .into_iter()
        .map(|n| (edit_distance(&up, &n.to_ascii_uppercase()), n))
        .filter(|(d, _)| *d <= reach(&up))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// A suggestion for an unreadable line: a corrected line the language reads, else for prose (a
/// line of five words or more) how to write it. `None` when there is nothing useful to say.
pub fn suggestion<G: Game>(game: &G, known: &BTreeSet<String>, line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut tries = 0;
    'words: for (i, w) in words.iter().enumerate() {
        let up = w.to_ascii_uppercase();
        if up.len() < 3 || !up.chars().all(|c| c.is_ascii_alphabetic()) || known.contains(&up) {
            continue;
        }
        let mut near: Vec<(usize, &String)> =
            known.iter().map(|k| (edit_distance(&up, k), k)).filter(|(d, _)| *d <= reach(&up)).collect();
        near.sort();
        for (_, k) in near {
            tries += 1;
            if tries > MAX_TRIES {
                break 'words;
            }
            let mut fixed = words.clone();
            fixed[i] = k;
            if let Ok(order) = game.parse_order(&fixed.join(" ")) {
                return Some(format!("did you mean `{order}`?"));
            }
        }
    }
    (words.len() >= 5).then(|| {
        "write it as an order the order guide shows; a remark for the GM goes after # (a comment, \
         which is kept but not played)"
            .to_string()
    })
}
