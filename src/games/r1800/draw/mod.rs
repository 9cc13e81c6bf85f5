//! The picture of an 1800 table (issues 16 and 18): the map (`map`, provinces and sea zones
//! placed by `layout` from `rules/1800/layout.toml`, a reconstruction: RULING E61) with a legend
//! in its empty south-east corner, beside a panel that says what the text view
//! ([`R1800::describe_for`]) says: the round, era and stage, the global event, the wars, the
//! draft, and every power's public facts (prosperity, pops, provinces, hand sizes, next
//! collection, the development cards in force with their resources). A seat's own admin and
//! military cards and ambition appear only in that seat's picture (and the GM's); the others'
//! only as counts, an ambition only once revealed (RULING E62). The panel flows into as many
//! columns as it needs, each as tall as the map.

mod layout;
mod map;
#[cfg(test)]
mod tests;

use super::R1800;
use super::state::{RES, State};
use crate::draw::text::{self, Panel};
use crate::draw::{El, Fragment, Part, colour, document};
use crate::engine::{Draw, Scoring, Seat, Viewer};

/// A panel column's width, and the characters of a line that fit in it.
const COLUMN_W: f64 = 360.0;
const COLUMN_CHARS: usize = 58;
const LINE_H: f64 = 14.0;
/// Where the map and the panel start, below the headline.
const TOP: f64 = 34.0;

impl R1800 {
    /// The shipped layout, placed once; `None` only if it does not fit the map (a test keeps
    /// that from shipping).
    fn layout(&self) -> Option<&layout::Layout> {
        self.layout.get(|| layout::standard(self.data())).ok()
    }
}

impl Draw for R1800 {
    /// The map with its pieces and the legend, below the headline: the same for every viewer
    /// (it shows nothing hidden), so it is drawn once per state and placed in each viewer's
    /// picture.
    fn draw_board(&self, s: &State) -> Option<Fragment> {
        let layout = self.layout()?;
        let mut m = El::group(0.0, TOP);
        m.extend(map::map(self.data(), s, layout));
        m.push(legend(layout.width - 330.0, layout.height - 200.0));
        Some(m.finish())
    }

    /// The table as `viewer` may see it, as an SVG document, with `board` (this state's
    /// [`R1800::board`], drawn here when not given) placed in it.
    fn draw_on(&self, s: &State, viewer: Viewer, board: Option<&Fragment>) -> Option<String> {
        let layout = self.layout()?;
        let headline = headline(s);
        let mut body = vec![El::words(16.0, 24.0, 17.0, &headline).attr("font-weight", "bold")];
        body.push(El::fragment(&board.cloned().or_else(|| self.draw_board(s))?));
        let panel = self.panel(s, viewer);
        let per_column = ((layout.height - 20.0) / LINE_H).floor().max(10.0) as usize;
        let columns = panel.lines.len().div_ceil(per_column).max(1);
        let x0 = layout.width + 10.0;
        for (c, chunk) in panel.lines.chunks(per_column).enumerate() {
            body.push(text::column(chunk, x0 + c as f64 * COLUMN_W, TOP + 16.0, LINE_H));
        }
        let width = x0 + columns as f64 * COLUMN_W + 6.0;
        Some(document(width, TOP + layout.height + 6.0, &headline, body))
    }

    /// Two parts (issue 36): the map under the headline, the same for every viewer; the panel as
    /// `viewer` may see it, in one column (a seat's own cards and ambition only in its own).
    fn draw_parts(&self, s: &State, viewer: Viewer) -> Vec<Part> {
        let (Some(layout), Some(board)) = (self.layout(), self.draw_board(s)) else { return Vec::new() };
        let headline = headline(s);
        let map =
            vec![El::words(16.0, 24.0, 17.0, &headline).attr("font-weight", "bold"), El::fragment(&board)];
        let panel = self.panel(s, viewer);
        let panel_h = 20.0 + panel.lines.len() as f64 * LINE_H;
        vec![
            Part {
                name: "map",
                title: "The map",
                svg: document(layout.width, TOP + layout.height + 6.0, &headline, map),
            },
            Part {
                name: "panel",
                title: "The powers, the wars and the draft",
                svg: document(
                    COLUMN_W + 6.0,
                    panel_h + 10.0,
                    &format!("{headline}: the panel"),
                    vec![text::column(&panel.lines, 10.0, 20.0, LINE_H)],
                ),
            },
        ]
    }
}

/// The picture's headline: the round, the era and the stage.
fn headline(s: &State) -> String {
    format!("1800 — round {} of 24, era {}; {}", s.round + 1, s.era(), super::view::stage_words(s))
}

impl R1800 {
    /// What the panel says, as the viewer may see it: the same facts as the text view.
    fn panel(&self, s: &State, viewer: Viewer) -> Panel {
        let d = self.data();
        let mut p = Panel::new(COLUMN_CHARS);
        if let Some(e) = s.event {
            p.head(format!("Global event: {}", d.events[usize::from(e)].name), colour::INK);
        }
        let wars = self.war_lines(s);
        if !wars.is_empty() {
            p.head("Wars", map::ALARM);
            for w in &wars {
                p.say(w);
            }
        }
        let offer: Vec<&str> = s.offer.iter().map(|c| d.dev_name(*c)).collect();
        p.gap();
        p.say(&format!("Draft: {}", if offer.is_empty() { "nothing".to_string() } else { offer.join(", ") }));
        let ctl = super::board::Control::of(s);
        for (i, pl) in s.players.iter().enumerate() {
            p.gap();
            let seat = Seat::from_index(i);
            p.head(
                format!(
                    "{} ({seat}): prosperity {}{}",
                    d.powers[usize::from(pl.power)].name,
                    pl.prosperity,
                    if usize::from(s.dealer) == i { ", dealer" } else { "" }
                ),
                colour::seat(seat.0),
            );
            p.say(&self.standing_words(s, &ctl, i));
            let cards: Vec<String> = pl
                .cards
                .iter()
                .enumerate()
                .filter(|(_, h)| !h.covered)
                .map(|(k, h)| {
                    let c = &d.dev[usize::from(h.card)];
                    let res: Vec<String> = (0..3)
                        .filter(|&r| c.slots[r] > 0)
                        .map(|r| format!("{}{}/{}", RES[r], h.res[r], c.slots[r]))
                        .collect();
                    let res = if res.is_empty() { String::new() } else { format!(" [{}]", res.join(" ")) };
                    format!("#{} {}{res}", k + 1, c.name)
                })
                .collect();
            p.say(&cards.join("; "));
            if viewer.may_see(seat) {
                let names = |v: &[u8], f: &dyn Fn(usize) -> String| {
                    let v: Vec<String> = v.iter().map(|c| f(usize::from(*c))).collect();
                    if v.is_empty() { "none".to_string() } else { v.join(", ") }
                };
                p.say(&format!("Admin cards: {}", names(&pl.admin, &|c| d.admin[c].name.clone())));
                p.say(&format!("Military cards: {}", names(&pl.military, &|c| d.military[c].name.clone())));
                p.say(&format!("Ambition: {}", d.ambitions[usize::from(pl.ambition)].name));
            } else if pl.revealed || s.over() {
                p.say(&format!("Ambition (revealed): {}", d.ambitions[usize::from(pl.ambition)].name));
            }
        }
        if let Some(st) = self.standings(s) {
            p.gap();
            p.head("Final standings", colour::INK);
            for x in st {
                p.say(&format!("{}. {} — {}", x.place, self.power_name(s, x.seat.index()), x.score));
            }
        }
        p
    }
}

/// What the marks mean, in a box.
fn legend(x: f64, y: f64) -> El {
    let row = |k: f64| 30.0 + 17.0 * k;
    let mut g = El::group(x, y)
        .child(El::rect(-8.0, -4.0, 326.0, row(8.0) + 4.0, colour::PAPER).attr("stroke", colour::EDGE))
        .child(El::words(0.0, 12.0, 11.5, "Legend").attr("font-weight", "bold"));
    let keys: [(El, &str); 8] = [
        (
            El::rect(1.0, row(0.0) - 11.0, 12.0, 12.0, "#ffffff")
                .attr("stroke", colour::INK)
                .n("stroke-width", 2.0),
            "city (F2: two factories)",
        ),
        (
            El::circle(7.0, row(1.0) - 5.0, 6.0, "#ffffff").attr("stroke", colour::INK),
            "countryside; blue halo: coastal",
        ),
        (
            El::circle(7.0, row(2.0) - 5.0, 6.0, map::NEUTRAL_INK),
            "tint: the controller's colour (grey: neutral)",
        ),
        (El::circle(7.0, row(3.0) - 5.0, 6.0, colour::seat(1)), "chip: pops of a power, with their number"),
        (
            El::polygon(&[(1.0, row(4.0)), (13.0, row(4.0)), (7.0, row(4.0) - 13.0)], colour::seat(2)),
            "regiment (dashed: conscripted)",
        ),
        (El::line((0.0, row(5.0) - 5.0), (14.0, row(5.0) - 5.0), map::BORDER, 1.6), "land border"),
        (
            El::line((0.0, row(6.0) - 5.0), (14.0, row(6.0) - 5.0), map::SEA_INK, 1.8)
                .attr("stroke-dasharray", "5 3"),
            "strait crossing",
        ),
        (
            El::circle(7.0, row(7.0) - 5.0, 6.0, "none").attr("stroke", map::ALARM).n("stroke-width", 2.0),
            "battle waiting to be resolved",
        ),
    ];
    for (k, (mark, words)) in keys.into_iter().enumerate() {
        g.push(mark);
        g.push(El::words(22.0, row(k as f64), 10.0, words).attr("fill", colour::INK));
    }
    g.push(
        El::words(0.0, row(8.0) - 4.0, 9.0, "Places reconstructed: the board was not available")
            .attr("fill", colour::MUTED),
    );
    g
}
