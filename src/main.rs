//! The `stationmaster` binary: parses the command line and hands over to `stationmaster::cli`.

use clap::Parser;
use stationmaster::cli::{Early, early_ingest};
use tracing_subscriber::EnvFilter;

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // An MTA's pipe: hand the message over before anything else starts (see `early_ingest`).
    let early = early_ingest(&args);
    if let Early::Done(code) = early {
        std::process::exit(code);
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = stationmaster::cli::Cli::parse_from(args);
    std::process::exit(stationmaster::cli::main(cli, early));
}
