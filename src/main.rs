//! The `stationmaster` binary: parses the command line and hands over to `stationmaster::cli`.

use clap::Parser;
use tracing_subscriber::EnvFilter;

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = stationmaster::cli::Cli::parse();
    std::process::exit(stationmaster::cli::main(cli));
}
