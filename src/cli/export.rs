//! `game export` and `game import`: one game out of this server as a JSON document, and into
//! another (docs/BACKUPS.md). The work is `crate::service::export`'s; this reads and prints.

use super::lifecycle::game_id;
use super::output::{InputError, print};
use super::serve::connect;
use crate::config::Settings;
use crate::service::export::{ImportOptions, export_document, import_document, parse_document};
use anyhow::Context;
use std::io::Read;

/// Prints a game's export document on standard output.
pub async fn export(settings: Settings, game: String) -> anyhow::Result<()> {
    let id = game_id(&game)?;
    let ctx = connect(settings).await?;
    let mut conn = ctx.pool.acquire().await?;
    let doc = export_document(&mut conn, id).await?;
    println!("{}", serde_json::to_string_pretty(&doc)?);
    Ok(())
}

/// Imports the document in `file` ("-": standard input); prints the new game and its links, or
/// why nothing was imported (with the addresses to confirm, RULING O21).
pub async fn import(
    settings: Settings,
    file: &str,
    options: &ImportOptions,
    json: bool,
) -> anyhow::Result<()> {
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("cannot read standard input")?;
        s
    } else {
        std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?
    };
    let doc = parse_document(&text).map_err(|e| InputError(format!("{file}: {e}")))?;
    let ctx = connect(settings).await?;
    let imported = import_document(&ctx, &doc, options).await?;
    print(&imported, json, |i| {
        let links: Vec<String> = i
            .seats
            .iter()
            .map(|s| format!("  seat {} {} <{}>: {}", s.seat.0, s.name, s.email, s.link))
            .collect();
        // RULING O22: what could not be verified is said plainly.
        let unverified = if i.not_verified.is_empty() {
            "Every row was verified.".to_string()
        } else {
            let rows: Vec<String> = i.not_verified.iter().map(|r| format!("  - {r}")).collect();
            format!("Not verifiable, kept as the document has them:\n{}", rows.join("\n"))
        };
        format!(
            "Imported game {} ({} actions replayed and checked). New seat links:\n{}\n{unverified}",
            i.game_id,
            i.actions,
            links.join("\n")
        )
    });
    Ok(())
}
