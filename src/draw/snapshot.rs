//! Snapshot tests of drawings (tests only), as the mail snapshots do it (`tests/api/snapshots.rs`):
//! a drawing is compared with its golden file in `tests/snapshots/drawings/`. To accept a
//! deliberate change, run with `UPDATE_SNAPSHOTS=1` and review the diff in git. With
//! `DRAWINGS_PNG_DIR=/some/dir` the PNG of each drawing is written there too, to look at.

use std::path::Path;

/// Compares `svg` with the golden file `name` (e.g. `railroaded_seat1.svg`); panics on a
/// difference or a missing file, unless `UPDATE_SNAPSHOTS` is set (then it writes the file).
pub fn assert_drawing(name: &str, svg: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/drawings").join(name);
    if let Some(dir) = std::env::var_os("DRAWINGS_PNG_DIR") {
        let png = super::png(svg).unwrap_or_else(|e| panic!("{name} does not render: {e}"));
        std::fs::write(Path::new(&dir).join(name).with_extension("png"), png).expect("the PNG is written");
    }
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, svg).expect("the snapshot is written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!("missing snapshot {}; run with UPDATE_SNAPSHOTS=1 to create it", path.display())
    });
    if expected != svg {
        panic!("drawing {name} differs from its snapshot:\n--- expected\n{expected}\n--- actual\n{svg}");
    }
    super::png(svg).unwrap_or_else(|e| panic!("{name} does not render: {e}"));
}
