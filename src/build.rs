//! Rebuilds when a migration is added or changed: `sqlx::migrate!` and `#[sqlx::test]` embed the
//! `migrations/` folder at compile time, and cargo does not otherwise know to look at it.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
