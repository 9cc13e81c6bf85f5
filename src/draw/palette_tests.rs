//! Tests of [`super::cut`]: RULING O35's palette.

use super::*;
use proptest::prelude::*;

/// Opaque RGBA pixels from 24-bit colours.
fn pixels(colours: &[u32]) -> Vec<u8> {
    colours.iter().flat_map(|&c| [(c >> 16) as u8, (c >> 8) as u8, c as u8, u8::MAX]).collect()
}

/// The colour each pixel is shown as.
fn shown(cut: &Indexed) -> Vec<u32> {
    let entry = |i: u8| {
        let e = &cut.palette[usize::from(i) * 3..usize::from(i) * 3 + 3];
        u32::from(e[0]) << 16 | u32::from(e[1]) << 8 | u32::from(e[2])
    };
    cut.indices.iter().map(|&i| entry(i)).collect()
}

#[test]
fn a_picture_of_at_most_256_colours_keeps_every_pixel() {
    let colours: Vec<u32> = (0..4096u32).map(|i| 0x40_0000 + (i * 37) % 250 * 0x103).collect();
    let distinct: std::collections::BTreeSet<u32> = colours.iter().copied().collect();
    assert!(distinct.len() <= SLOTS, "{} colours", distinct.len());
    let cut = cut(&pixels(&colours)).expect("cut");
    assert_eq!(shown(&cut), colours);
    assert_eq!(cut.palette.len(), distinct.len() * 3, "one entry a colour");
}

#[test]
fn a_transparent_pixel_or_too_many_colours_leave_the_picture_in_full_colour() {
    let mut rgba = pixels(&[0xFF_FFFF; 16]);
    rgba[7] = 254;
    assert_eq!(cut(&rgba), None, "a pixel not quite opaque");
    let gradient: Vec<u32> = (0..=MOST_COLOURS as u32).map(|i| i * 97).collect();
    assert_eq!(cut(&pixels(&gradient)), None, "{} colours", gradient.len());
    let most: Vec<u32> = (0..MOST_COLOURS as u32).map(|i| i * 97).collect();
    assert!(cut(&pixels(&most)).is_some(), "{} colours are cut", most.len());
}

#[test]
fn the_frequent_colours_are_kept_exactly_and_a_rare_distinct_one_gets_an_entry_of_its_own() {
    // A hundred flat fills, three hundred shades of grey along edges, and one small red token
    // of twelve pixels: more than 256 colours.
    let mut colours = Vec::new();
    for fill in 0..100u32 {
        colours.extend(std::iter::repeat_n(0x20_4060 + fill * 0x01_0101, 500));
    }
    for shade in 0..300u32 {
        colours.extend(std::iter::repeat_n(0x10_1010 + (shade % 200) * 0x01_0000 + shade / 200, 2));
    }
    colours.extend(std::iter::repeat_n(0xE0_1010, 12));
    let fills: Vec<u32> = (0..100u32).map(|fill| 0x20_4060 + fill * 0x01_0101).collect();
    let cut = cut(&pixels(&colours)).expect("cut");
    let shown = shown(&cut);
    for (was, is) in colours.iter().zip(&shown) {
        if *was == 0xE0_1010 || fills.contains(was) {
            assert_eq!(was, is, "{was:06x} kept exactly");
        }
    }
    assert_eq!(cut.palette.len(), SLOTS * 3);
}

#[test]
fn the_same_picture_gets_the_same_palette() {
    let colours: Vec<u32> = (0..20_000u32).map(|i| i.wrapping_mul(2_654_435_761) >> 12).collect();
    assert_eq!(cut(&pixels(&colours)), cut(&pixels(&colours)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every colour is shown as an entry at least as near to it as any other entry.
    #[test]
    fn every_colour_is_shown_as_its_nearest_entry(
        seeds in proptest::collection::vec((0u32..0x100_0000, 1usize..40), 1..600)
    ) {
        let colours: Vec<u32> = seeds.iter().flat_map(|&(c, n)| std::iter::repeat_n(c, n)).collect();
        let cut = cut(&pixels(&colours)).expect("cut");
        let entries: Vec<u32> = cut.palette.chunks_exact(3)
            .map(|e| u32::from(e[0]) << 16 | u32::from(e[1]) << 8 | u32::from(e[2])).collect();
        prop_assert!(entries.len() <= SLOTS);
        for (was, is) in colours.iter().zip(shown(&cut)) {
            let best = entries.iter().map(|&e| squared_distance(*was, e)).min().expect("entries");
            prop_assert_eq!(squared_distance(*was, is), best);
        }
    }
}
