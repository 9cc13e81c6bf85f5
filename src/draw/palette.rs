//! A picture's colours cut to a palette of at most 256, for a PNG of one byte a pixel (RULING
//! O35). Our drawings are flat fills, lines and text: a few dozen colours cover nearly every
//! pixel, and the rest are the blends anti-aliasing leaves along edges. A picture of at most 256
//! colours keeps them all, pixel for pixel. Otherwise the [`SEEDS`] most frequent colours are
//! kept exactly, and each further entry goes, one at a time, to the colour the palette so far
//! shows worst — its pixels times the squared distance to its nearest entry — so that a small
//! token's own colour or an overlay's blend gets an entry before the hundredth shade of a black
//! line's edge; every colour is then shown as its nearest entry. No dithering: a flat fill stays
//! flat. A picture with a transparent pixel, or with more than [`MOST_COLOURS`] colours (a
//! gradient, a photograph), is not cut and stays full colour.

/// The entries of a PNG palette.
pub const SLOTS: usize = 256;
/// How many of the most frequent colours are kept exactly before the rest is chosen by error.
pub const SEEDS: usize = 64;
/// The most colours a picture may have to be cut to a palette.
pub const MOST_COLOURS: usize = 32_768;

/// A picture as palette entries and one entry's index a pixel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Indexed {
    /// The entries' colours, red, green, blue, three bytes each (at most [`SLOTS`] entries).
    pub palette: Vec<u8>,
    /// Each pixel's entry, row by row.
    pub indices: Vec<u8>,
}

/// The picture of opaque RGBA pixels `rgba` (four bytes a pixel) on a palette; `None` if a
/// pixel is not opaque or the picture has more than [`MOST_COLOURS`] colours.
pub fn cut(rgba: &[u8]) -> Option<Indexed> {
    // Each pixel's colour numbered in the order first seen; equal neighbours in a row are the
    // common case (a fill), and need no look-up.
    let mut table = Table::with_capacity(4096);
    let mut counts: Vec<u32> = Vec::new();
    let mut numbers = vec![0u16; rgba.len() / 4];
    // The colour of the current run of equal pixels, its number and its length so far.
    let (mut last, mut number, mut run) = (0u32, 0u16, 0u32);
    for (i, (p, out)) in rgba.chunks_exact(4).zip(numbers.iter_mut()).enumerate() {
        let pixel = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
        if pixel != last || i == 0 {
            if pixel >> 24 != 0xFF {
                return None;
            }
            if i > 0 {
                counts[usize::from(number)] += run;
            }
            number = match table.find(pixel & 0xFF_FFFF) {
                Ok(slot) => table.numbers[slot],
                Err(_) if counts.len() >= MOST_COLOURS => return None,
                Err(_) => {
                    let new = u16::try_from(counts.len()).ok()?;
                    table.insert(pixel & 0xFF_FFFF, new);
                    counts.push(0);
                    new
                }
            };
            (last, run) = (pixel, 0);
        }
        run += 1;
        *out = number;
    }
    if let Some(count) = counts.get_mut(usize::from(number)) {
        *count += run;
    }
    // The colours, the most frequent first (equal counts by colour, so the palette is the same
    // for the same picture on every machine).
    let mut colours: Vec<(u32, u32, u16)> = (0..table.keys.len())
        .filter(|&slot| table.keys[slot] != EMPTY)
        .map(|slot| (counts[usize::from(table.numbers[slot])], table.keys[slot], table.numbers[slot]))
        .collect();
    colours.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let (entries, nearest) = choose(&colours.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>());
    let mut entry_of = vec![0u8; counts.len()];
    for (colour, entry) in colours.iter().zip(nearest) {
        entry_of[usize::from(colour.2)] = entry;
    }
    let indices = numbers.iter().map(|&n| entry_of[usize::from(n)]).collect();
    let palette = entries.iter().flat_map(|&c| [c as u8, (c >> 8) as u8, (c >> 16) as u8]).collect();
    Some(Indexed { palette, indices })
}

/// The palette for `colours` (count and colour, the most frequent first) and, for each colour,
/// the index of its nearest entry.
fn choose(colours: &[(u32, u32)]) -> (Vec<u32>, Vec<u8>) {
    let mut palette = Palette {
        entries: Vec::with_capacity(SLOTS),
        nearest: vec![0; colours.len()],
        distance: vec![u32::MAX; colours.len()],
    };
    for chosen in 0..colours.len().min(SEEDS) {
        palette.add(colours, chosen);
    }
    while palette.entries.len() < SLOTS.min(colours.len()) {
        // The colour shown worst: its pixels times its squared error (the first of equals).
        let mut worst = (0u64, 0usize);
        for (i, (&(count, _), &distance)) in colours.iter().zip(&palette.distance).enumerate() {
            let weight = u64::from(count) * u64::from(distance);
            if weight > worst.0 {
                worst = (weight, i);
            }
        }
        if worst.0 == 0 {
            break;
        }
        palette.add(colours, worst.1);
    }
    (palette.entries, palette.nearest)
}

/// A palette being chosen: its entries, and for each colour its nearest entry and the squared
/// distance to it.
struct Palette {
    entries: Vec<u32>,
    nearest: Vec<u8>,
    distance: Vec<u32>,
}

impl Palette {
    /// Makes `colours[chosen]` an entry.
    fn add(&mut self, colours: &[(u32, u32)], chosen: usize) {
        // At most `SLOTS` (256) entries: the index of the next fits a byte.
        let index = self.entries.len() as u8;
        let entry = colours[chosen].1;
        self.entries.push(entry);
        for ((&(_, colour), distance), nearest) in
            colours.iter().zip(&mut self.distance).zip(&mut self.nearest)
        {
            let d = squared_distance(colour, entry);
            // Without a branch, so that the loop runs on several colours at once.
            let closer = d < *distance;
            *distance = if closer { d } else { *distance };
            *nearest = if closer { index } else { *nearest };
        }
    }
}

fn squared_distance(a: u32, b: u32) -> u32 {
    let channel = |shift: u32| {
        let d = i32::from((a >> shift) as u8) - i32::from((b >> shift) as u8);
        d.unsigned_abs() * d.unsigned_abs()
    };
    channel(16) + channel(8) + channel(0)
}

/// No colour: a colour is 24 bits (red in the lowest byte).
const EMPTY: u32 = u32::MAX;

/// The colours of a picture, each with its number: open addressing on a power-of-two table,
/// kept at most half full.
struct Table {
    keys: Vec<u32>,
    numbers: Vec<u16>,
    len: usize,
}

impl Table {
    fn with_capacity(capacity: usize) -> Table {
        let capacity = capacity.next_power_of_two();
        Table { keys: vec![EMPTY; capacity], numbers: vec![0; capacity], len: 0 }
    }

    /// The slot holding `colour`, or the empty slot where it would go.
    fn find(&self, colour: u32) -> Result<usize, usize> {
        let mask = self.keys.len() - 1;
        let bits = self.keys.len().trailing_zeros();
        // Fibonacci hashing: the top bits of the product.
        let mut slot = (u64::from(colour).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
        loop {
            match self.keys[slot] {
                k if k == colour => return Ok(slot),
                EMPTY => return Err(slot),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Puts a colour not yet in the table in it with its number (growing the table first if it
    /// would be more than half full).
    fn insert(&mut self, colour: u32, number: u16) {
        if (self.len + 1) * 2 > self.keys.len() {
            let mut grown = Table::with_capacity(self.keys.len() * 2);
            for (&key, &n) in self.keys.iter().zip(&self.numbers) {
                if key != EMPTY {
                    let slot = grown.find(key).unwrap_or_else(|slot| slot);
                    grown.keys[slot] = key;
                    grown.numbers[slot] = n;
                }
            }
            grown.len = self.len;
            *self = grown;
        }
        let slot = self.find(colour).unwrap_or_else(|slot| slot);
        self.keys[slot] = colour;
        self.numbers[slot] = number;
        self.len += 1;
    }
}

#[cfg(test)]
#[path = "palette_tests.rs"]
mod tests;
