//! The charters of the 1835 companies in play drawn: for each share company with a price and
//! each minor with an owner, its colour, id and name, director or owner, treasury, trains, and
//! station tokens (placed ones hollow, those left filled); the company operating now outlined.

use super::company_colour;
use crate::draw::{El, colour};
use crate::games::r1835::R1835;
use crate::games::r1835::state::{Entity, Round, State};

const W: f64 = 196.0;
const H: f64 = 86.0;
const GAP: f64 = 8.0;
/// Charters per row.
const PER_ROW: usize = 3;

/// One company's facts for its charter.
struct Charter {
    id: String,
    name: String,
    who: String,
    cash: i64,
    trains: Vec<String>,
    tokens: u8,
    placed: usize,
    operating: bool,
}

/// A company's id and name, cut to fit its charter's title bar (issue 36: "WT Württembergische
/// Eisenbahn" ran past it).
fn title(c: &Charter) -> String {
    crate::draw::text::fit(&format!("{} {}", c.id, c.name), 11.0, true, W - 12.0)
}

fn charter_el(c: &Charter, x: f64, y: f64) -> El {
    let fill = company_colour(&c.id);
    let mut g = El::group(x, y)
        .child(
            El::rect(0.0, 0.0, W, H, colour::PAPER)
                .attr("stroke", if c.operating { "#d62728" } else { fill })
                .n("stroke-width", if c.operating { 3.0 } else { 1.5 })
                .n("rx", 4.0),
        )
        .child(El::rect(0.0, 0.0, W, 20.0, fill).n("rx", 4.0))
        .child(
            El::words(6.0, 14.5, 11.0, title(c))
                .attr("fill", colour::text_on(fill))
                .attr("font-weight", "bold"),
        )
        .child(El::words(6.0, 35.0, 10.0, &c.who).attr("fill", colour::INK))
        .child(El::words(6.0, 50.0, 10.0, format!("treasury {} M", c.cash)).attr("fill", colour::INK));
    let trains = if c.trains.is_empty() {
        "no trains".to_string()
    } else {
        format!("trains: {}", c.trains.join(", "))
    };
    g.push(El::words(6.0, 65.0, 10.0, trains).attr("fill", colour::INK));
    let left = usize::from(c.tokens).saturating_sub(c.placed);
    g.push(
        El::words(6.0, 80.0, 9.0, format!("tokens {left} of {} left", c.tokens)).attr("fill", colour::MUTED),
    );
    for k in 0..usize::from(c.tokens) {
        let cx = 112.0 + k as f64 * 14.0;
        let dot = El::circle(cx, 77.0, 5.0, if k < left { fill } else { "none" })
            .attr("stroke", colour::INK)
            .n("stroke-width", 0.8);
        g.push(dot);
    }
    if c.operating {
        g.push(
            El::words(W - 62.0, 35.0, 9.0, "operating").attr("fill", "#d62728").attr("font-weight", "bold"),
        );
    }
    g
}

/// The charters in play at (x, y), each its own element, and the height they take (width:
/// [`width`]; the heading above them: [`heading`]).
pub fn charters(game: &R1835, s: &State, x: f64, y: f64) -> (Vec<El>, f64) {
    let data = &game.data;
    let placed = |id: &str| s.board.tokens.values().flatten().filter(|t| t.company == id).count();
    let operating = match s.round {
        Round::Operating { .. } => game.operating_entity(s),
        _ => None,
    };
    let seat = |p: Option<u8>| p.map(|p| format!("seat {}", p + 1)).unwrap_or_else(|| "no one".into());
    let mut list: Vec<Charter> = Vec::new();
    for (i, m) in s.minors.iter().enumerate().filter(|(_, m)| m.owner.is_some() && !m.closed) {
        let spec = &data.minors[i];
        list.push(Charter {
            id: m.id.clone(),
            name: spec.name.clone(),
            who: format!("owner: {}", seat(m.owner)),
            cash: m.cash,
            trains: m.trains.clone(),
            tokens: spec.tokens,
            placed: placed(&m.id),
            operating: operating == u8::try_from(i).ok().map(Entity::Minor),
        });
    }
    for (i, c) in s.majors.iter().enumerate().filter(|(_, c)| c.price.is_some()) {
        let spec = &data.majors[i];
        let price = c.price.map(|sp| data.market.price(sp)).unwrap_or(0);
        let state = if c.floated { "" } else { ", not floated" };
        list.push(Charter {
            id: c.id.clone(),
            name: spec.name.clone(),
            who: format!("director: {}; {price} M{state}", seat(game.president(s, i))),
            cash: c.cash,
            trains: c.trains.clone(),
            tokens: spec.tokens,
            placed: placed(&c.id),
            operating: operating == u8::try_from(i).ok().map(Entity::Major),
        });
    }
    let mut out = Vec::new();
    if list.is_empty() {
        out.push(El::words(x, y + 14.0, 11.0, "No company is in play yet.").attr("fill", colour::MUTED));
        return (out, 24.0);
    }
    // Each charter its own element: one that did not change is painted from its kept raster
    // (RULING O34).
    for (k, c) in list.iter().enumerate() {
        let (row, col) = (k / PER_ROW, k % PER_ROW);
        out.push(charter_el(c, x + col as f64 * (W + GAP), y + row as f64 * (H + GAP)));
    }
    (out, list.len().div_ceil(PER_ROW) as f64 * (H + GAP))
}

/// The charters' heading at (x, y), as printed (the same in every game).
pub fn heading(x: f64, y: f64) -> El {
    El::words(x, y - 8.0, 13.0, "Companies").attr("font-weight", "bold")
}

/// The width the charters take.
pub fn width() -> f64 {
    PER_ROW as f64 * (W + GAP) - GAP
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_companys_id_and_name_fits_its_charters_title_bar() {
        let game = R1835::standard().expect("1835 data");
        let names = game.data.minors.iter().map(|m| (&m.id, &m.name));
        for (id, name) in names.chain(game.data.majors.iter().map(|c| (&c.id, &c.name))) {
            let c = Charter {
                id: id.clone(),
                name: name.clone(),
                who: String::new(),
                cash: 0,
                trains: Vec::new(),
                tokens: 0,
                placed: 0,
                operating: false,
            };
            let shown = title(&c);
            assert!(crate::draw::text::width(&shown, 11.0, true) <= W - 12.0, "{shown:?} runs past its bar");
            assert!(shown.starts_with(id.as_str()), "{shown:?} keeps the company's id");
        }
    }
}
