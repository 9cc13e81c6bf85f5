//! The `stationmaster` binary: parses the command line and hands over to `stationmaster::cli`.

use clap::Parser;
use stationmaster::cli::{Early, early_ingest};

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // An MTA's pipe: hand the message over before anything else starts (see `early_ingest`).
    let early = early_ingest(&args);
    if let Early::Done(code) = early {
        std::process::exit(code);
    }
    let cli = stationmaster::cli::Cli::parse_from(args);
    stationmaster::logs::init(cli.settings.log_format);
    std::process::exit(stationmaster::cli::main(cli, early));
}
