//! Rebuilds when a migration is added or changed: `sqlx::migrate!` (the server's, and the tests'
//! template database's) embeds the `migrations/` folder at compile time, and cargo does not
//! otherwise know to look at it.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
