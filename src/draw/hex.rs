//! The geometry of a pointy-topped hex grid whose coordinates are a row (letter, north to south)
//! and a column number that steps by two along a row (1835's board: row A has the odd columns,
//! row B the even ones). Sides are numbered 0 to 5 clockwise from the north-east, as in
//! `rules/1835/map.toml`: 0 = NE, 1 = E, 2 = SE, 3 = SW, 4 = W, 5 = NW.

/// A hex grid of hexes with circumradius `r` (centre to corner), placed with a margin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub r: f64,
    pub x0: f64,
    pub y0: f64,
}

/// √3 / 2: half the width of a pointy-topped hex over its circumradius.
const HALF_W: f64 = 0.866_025_403_784_438_6;

impl Grid {
    /// The centre of the hex at zero-based `row` and printed `col`.
    pub fn centre(&self, row: u8, col: u8) -> (f64, f64) {
        (self.x0 + f64::from(col) * HALF_W * self.r, self.y0 + f64::from(row) * 1.5 * self.r)
    }
    /// The six corners of the hex around `c`, from the top clockwise.
    pub fn corners(&self, c: (f64, f64)) -> [(f64, f64); 6] {
        std::array::from_fn(|k| {
            let a = (-90.0 + 60.0 * k as f64).to_radians();
            (c.0 + self.r * a.cos(), c.1 + self.r * a.sin())
        })
    }
    /// The midpoint of `side` of the hex around `c`.
    pub fn side_mid(&self, c: (f64, f64), side: u8) -> (f64, f64) {
        self.toward(c, side, HALF_W * self.r)
    }
    /// The point `dist` from `c` toward the middle of `side`.
    pub fn toward(&self, c: (f64, f64), side: u8, dist: f64) -> (f64, f64) {
        let a = (-60.0 + 60.0 * f64::from(side % 6)).to_radians();
        (c.0 + dist * a.cos(), c.1 + dist * a.sin())
    }
    /// Width and height that hold hexes up to `rows` rows and column `cols`, with the margin.
    pub fn extent(&self, rows: u8, cols: u8) -> (f64, f64) {
        let (x, y) = self.centre(rows.saturating_sub(1), cols);
        (x + HALF_W * self.r + self.x0, y + self.r + self.y0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Grid = Grid { r: 10.0, x0: 0.0, y0: 0.0 };

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9
    }

    #[test]
    fn a_neighbour_lies_across_the_side_of_the_same_number() {
        // map.toml: across side n lies (row, col) + 0: (-1, +1), 1: (0, +2), 2: (+1, +1),
        // 3: (+1, -1), 4: (0, -2), 5: (-1, -1).
        let offsets = [(-1i8, 1i8), (0, 2), (1, 1), (1, -1), (0, -2), (-1, -1)];
        let c = G.centre(4, 19);
        for (side, (dr, dc)) in offsets.iter().enumerate() {
            let n = G.centre((4 + dr) as u8, (19 + dc) as u8);
            let mid = ((c.0 + n.0) / 2.0, (c.1 + n.1) / 2.0);
            assert!(close(G.side_mid(c, side as u8), mid), "side {side}");
        }
    }

    #[test]
    fn the_first_corner_is_at_the_top() {
        let c = G.centre(0, 1);
        assert!(close(G.corners(c)[0], (c.0, c.1 - 10.0)));
    }
}
