//! The picture of a Confederate Rails table (issue 16): the map (`map`, stations placed by
//! `layout` from `rules/confederate_rails/layout.toml`, a reconstruction: RULING F61) beside a
//! panel with the Round, the War (Victory Depots held by the Union, blockade, embargo), every
//! seat's money, lines and trains with their loads, the Available Loads, abandoned loads, the
//! disruption, and a legend. A seat sees its own Special Events by name and the others' only as
//! a count, as in [`View::describe`](crate::engine::View::describe); the draw pile's order is never shown (RULING F33).

mod layout;
mod map;
#[cfg(test)]
mod tests;

use super::Confed;
use super::board::{self, name};
use super::chits::{self, train_name};
use super::state::{Place, State};
use crate::draw::text::{self, Panel};
use crate::draw::{El, Fragment, Part, colour, document};
use crate::engine::counted;
use crate::engine::{Draw, Rules, Seat, Viewer};

const PANEL_W: f64 = 400.0;
/// Characters per panel line at the panel's font size.
const PANEL_CHARS: usize = 64;
const LINE_H: f64 = 14.0;

impl Confed {
    /// The shipped layout, placed once; `None` only if it does not fit the map (a test keeps
    /// that from shipping).
    fn layout(&self) -> Option<&layout::Layout> {
        self.layout.get(|| layout::standard(&self.data)).ok()
    }
}

impl Draw for Confed {
    /// The map with its pieces, below the headline: the same for every viewer (it shows nothing
    /// hidden), so it is drawn once per state and placed in each viewer's picture.
    fn draw_board(&self, s: &State) -> Option<Fragment> {
        let mut m = El::group(0.0, 30.0);
        m.extend(map::map(&self.data, s, self.layout()?));
        Some(m.finish())
    }

    /// The table as `viewer` may see it, as an SVG document, with `board` (this state's
    /// [`Draw::draw_board`], drawn here when not given) placed in it.
    fn draw_on(&self, s: &State, viewer: Viewer, board: Option<&Fragment>) -> Option<String> {
        let layout = self.layout()?;
        let headline = self.headline(s);
        let mut body = vec![El::words(16.0, 26.0, 17.0, &headline).attr("font-weight", "bold")];
        body.push(El::fragment(&board.cloned().or_else(|| self.draw_board(s))?));
        let x = layout.width + 10.0;
        let (panel, panel_h) = self.panel_column(s, viewer, x, 56.0);
        body.extend(panel);
        let height = (layout.height + 30.0).max(panel_h) + 16.0;
        Some(document(x + PANEL_W, height, &headline, body))
    }

    /// Two parts (issue 36): the map under the headline, the same for every viewer; the panel as
    /// `viewer` may see it (a seat's own Special Events only in its own).
    fn draw_parts(&self, s: &State, viewer: Viewer) -> Vec<Part> {
        let (Some(layout), Some(board)) = (self.layout(), self.draw_board(s)) else { return Vec::new() };
        let headline = self.headline(s);
        let map =
            vec![El::words(16.0, 26.0, 17.0, &headline).attr("font-weight", "bold"), El::fragment(&board)];
        let width = layout.width.max(text::width(&headline, 17.0, true) + 32.0);
        let (panel, panel_h) = self.panel_column(s, viewer, 10.0, 24.0);
        vec![
            Part {
                name: "map",
                title: "The map",
                svg: document(width, layout.height + 46.0, &headline, map),
            },
            Part {
                name: "panel",
                title: "The seats, the loads and the war",
                svg: document(PANEL_W + 10.0, panel_h + 16.0, &format!("{headline}: the panel"), panel),
            },
        ]
    }
}

impl Confed {
    /// The picture's headline: the round and the Victory Depots the Union holds.
    fn headline(&self, s: &State) -> String {
        let d = &self.data;
        format!(
            "Confederate Rails — Round {}; the Union holds {} of {} Victory Depots",
            s.round,
            board::vds_occupied(d, s),
            d.map.stations.iter().filter(|x| x.kind == super::data::StationKind::VictoryDepot).count()
        )
    }

    /// The panel's lines and the legend under them, at (x, y): the elements and where they end.
    fn panel_column(&self, s: &State, viewer: Viewer, x: f64, y: f64) -> (Vec<El>, f64) {
        let panel = self.panel(s, viewer);
        let legend_y = y + panel.lines.len() as f64 * LINE_H + 10.0;
        (vec![text::column(&panel.lines, x, y, LINE_H), legend(x, legend_y)], legend_y + LEGEND_H)
    }
}

impl Confed {
    /// What the panel says, as the viewer may see it.
    fn panel(&self, s: &State, viewer: Viewer) -> Panel {
        let d = &self.data;
        let mut p = Panel::new(PANEL_CHARS);
        if let Some(why) = &s.ended {
            p.head("The game is over", colour::INK);
            p.say(why);
        } else if let Some(dec) = self.next_decision(s) {
            p.head(format!("Waiting for {}", dec.seat), colour::seat(dec.seat.0));
            p.say(&dec.prompt);
        }
        p.gap();
        for (i, pl) in s.players.iter().enumerate() {
            let seat = Seat::from_index(i);
            let lines: Vec<String> = pl.rrcs.iter().map(|l| format!("#{l}")).collect();
            let lines = if lines.is_empty() { "none".to_string() } else { lines.join(" ") };
            p.head(format!("{seat}: ${}, lines {lines}", pl.money), colour::seat(seat.0));
            if viewer.may_see(seat) {
                let held: Vec<String> = pl.specials.iter().map(|n| chits::special_name(d, *n)).collect();
                let held = if held.is_empty() { "none".into() } else { held.join(", ") };
                p.say(&format!("Special Events held: {held}"));
            } else {
                p.say(&format!("{} held", counted(pl.specials.len(), "Special Event")));
            }
            for t in &pl.trains {
                let at = match t.at {
                    Place::Station(x) => name(d, x).to_string(),
                    Place::RepairBox => "the Raleigh Repair Box".into(),
                };
                let load = t
                    .load
                    .as_ref()
                    .map(|c| {
                        let aboard = if c.picked { ", aboard" } else { "" };
                        format!(
                            ": {} {} to {}{aboard}",
                            chits::label(d, c.chit),
                            name(d, c.pickup),
                            name(d, c.dropoff)
                        )
                    })
                    .unwrap_or_else(|| ", empty".into());
                p.say(&format!("- {} at {at}{load}", train_name(t.id)));
            }
        }
        p.gap();
        p.head("Available Loads", colour::INK);
        let display: Vec<String> = s.display.iter().map(|n| chits::label(d, *n)).collect();
        p.say(&if display.is_empty() { "none".into() } else { display.join(", ") });
        if !s.offer.is_empty() {
            let offer: Vec<String> = s.offer.iter().map(|n| chits::label(d, *n)).collect();
            p.say(&format!("Starting loads to select: {}", offer.join(", ")));
        }
        for a in &s.abandoned {
            p.say(&format!(
                "Abandoned at {}: {} for {}",
                name(d, a.at),
                chits::label(d, a.chit),
                name(d, a.dropoff)
            ));
        }
        p.say(&format!("Draw pile: {}", counted(s.pile.len() + s.set_aside.len(), "chit")));
        p.gap();
        p.head("The War", map::UNION);
        for line in self.war_lines(s) {
            p.say(&line);
        }
        p
    }

    /// The state of the war and the railways, one sentence each.
    fn war_lines(&self, s: &State) -> Vec<String> {
        let d = &self.data;
        let occupied: Vec<&str> = s.occupied.iter().map(|x| name(d, *x)).collect();
        let mut out = vec![format!(
            "Union-occupied: {}",
            if occupied.is_empty() { "none (besides the entry points)".into() } else { occupied.join(", ") }
        )];
        let mut flags = Vec::new();
        if s.blockade > 0 {
            flags.push(format!("Union Blockade Increase x{}", s.blockade));
        }
        if s.embargo {
            flags.push("Cotton Embargo in force".into());
        }
        if s.conventions > 0 {
            flags.push(format!("Railroad Conventions x{}", s.conventions));
        }
        if s.through_freight {
            flags.push("Through-Freight Law passed".into());
        }
        if s.collisions > 0 {
            flags.push(format!("Collisions! waiting x{}", s.collisions));
        }
        if !flags.is_empty() {
            out.push(flags.join("; "));
        }
        let congested: Vec<&str> = s.congested.iter().map(|x| name(d, *x)).collect();
        if !congested.is_empty() {
            out.push(format!("Congested: {}", congested.join(", ")));
        }
        if !s.bad_rails.is_empty() {
            let bad: Vec<String> = s.bad_rails.iter().map(|l| format!("#{l}")).collect();
            out.push(format!("Bad Rails: {}", bad.join(" ")));
        }
        out.extend(board::disrupted(d, s));
        let depots: Vec<&str> = s.new_depots.iter().map(|x| name(d, *x)).collect();
        if !depots.is_empty() {
            out.push(format!("New Depots: {}", depots.join(", ")));
        }
        out
    }
}

const LEGEND_H: f64 = 150.0;

/// What the marks mean.
fn legend(x: f64, y: f64) -> El {
    let mut g = El::group(x, y).child(El::words(0.0, 0.0, 11.5, "Legend").attr("font-weight", "bold"));
    let row = |k: f64| 16.0 + 16.0 * k;
    let keys: [(El, &str); 8] = [
        (El::circle(6.0, row(0.0) - 4.0, 3.2, "#ffffff").attr("stroke", colour::INK), "station"),
        (El::rect(2.0, row(1.0) - 8.0, 8.0, 8.0, "#ffffff").attr("stroke", colour::INK), "Load Station"),
        (
            El::circle(6.0, row(2.0) - 4.0, 6.0, map::GOLD).attr("stroke", colour::INK),
            "Victory Depot (hexagon: Depot)",
        ),
        (El::circle(6.0, row(3.0) - 4.0, 5.0, map::UNION), "Union-occupied (star: entry point)"),
        (
            El::circle(6.0, row(4.0) - 4.0, 6.0, "none").attr("stroke", map::ALARM).n("stroke-width", 2.0),
            "congested",
        ),
        (
            El::line((0.0, row(5.0) - 4.0), (14.0, row(5.0) - 4.0), map::UNOWNED, 3.0),
            "a line, in its owner's colour (grey: no owner)",
        ),
        (
            El::line((0.0, row(6.0) - 4.0), (14.0, row(6.0) - 4.0), colour::INK, 3.0)
                .attr("stroke-dasharray", "3 3"),
            "ferry; dotted: overland; long dashes: Bad Rails",
        ),
        (
            El::rect(0.0, row(7.0) - 10.0, 14.0, 10.0, map::ALARM),
            "R2: ripped up twice; red cross: bridge out",
        ),
    ];
    for (k, (mark, words)) in keys.into_iter().enumerate() {
        g.push(mark);
        g.push(El::words(22.0, row(k as f64), 10.0, words).attr("fill", colour::INK));
    }
    g.push(
        El::words(0.0, row(8.0), 10.0, "Train: seat colour and number; gold corner: load aboard")
            .attr("fill", colour::INK),
    );
    g
}
