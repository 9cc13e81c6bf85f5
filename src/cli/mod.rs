//! The console: `serve` and the GM's subcommands of the one `stationmaster` binary. Human output
//! by default, JSON with `--json`. Commands call the same service functions as the web.

mod export;
mod game;
mod game_args;
#[cfg(test)]
mod help;
mod lifecycle;
mod mail;
mod outbox;
mod output;
mod replay;
mod serve;

use crate::config::{GLOBAL_OPTIONS, Settings};
use clap::{Args, Parser, Subcommand};
pub use game_args::{CreateArgs, GameCommand, OrdersCommand, SeatCommand, TurnCommand};
pub use mail::{Early, early_ingest};

/// Stationmaster: a game-master server for railroad board games played by email and on the web.
#[derive(Debug, Parser)]
#[command(name = "stationmaster", version, about)]
pub struct Cli {
    #[command(flatten)]
    pub settings: Settings,
    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true, help_heading = GLOBAL_OPTIONS)]
    pub json: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the web server, the scheduler and the mail worker (the default).
    Serve,
    /// Create, show and export games.
    #[command(subcommand)]
    Game(GameCommand),
    /// Enter orders the GM received by other means.
    #[command(subcommand)]
    Orders(OrdersCommand),
    /// Close and publish turns; move deadlines.
    #[command(subcommand)]
    Turn(TurnCommand),
    /// Seats: replace a player, record an absence, a player's time zone, standing orders.
    #[command(subcommand)]
    Seat(SeatCommand),
    /// Re-apply an exported game or a JSONL action log; print the final state or a ledger.
    Replay(ReplayArgs),
    /// GM accounts, who may create games, co-GMs.
    #[command(subcommand)]
    Gm(GmCommand),
    /// Mail in: the MTA pipe.
    #[command(subcommand)]
    Mail(MailCommand),
    /// The server key (kept in the key file, never in the database).
    #[command(subcommand)]
    Key(KeyCommand),
}

#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// Switch to a new key: every seat gets a new link (mailed to the players of running games);
    /// old links and reply addresses stop working. A running server follows on its next pass.
    Rotate,
}

#[derive(Debug, Subcommand)]
pub enum MailCommand {
    /// Store one RFC 5322 message from standard input (for an MTA's pipe delivery), then process
    /// it. Exits 0 once the message is stored, 75 (EX_TEMPFAIL) when it could not be stored.
    Ingest {
        /// The envelope sender, as the MTA passes it (Postfix: ${sender}).
        #[arg(long)]
        sender: Option<String>,
        /// The envelope recipient, as the MTA passes it (Postfix: ${recipient}).
        #[arg(long)]
        recipient: Option<String>,
        /// Only store the message; the server's worker processes it.
        #[arg(long)]
        store_only: bool,
    },
    /// Process stored messages that still await processing.
    Process,
    /// A game's outgoing mail that did not arrive: to whom, subject, attempts, last error, since.
    Undelivered {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
    },
    /// The mail queued and never sent (e.g. while the server ran with the dev mailbox, which sends
    /// nothing): a server given an SMTP server sends all of it. `--drop` gives it up instead.
    Backlog {
        /// Give up every mail still waiting (each game's audit log says so; `mail resend` can
        /// still send a game's mail).
        #[arg(long)]
        drop: bool,
    },
    /// Send a game's undelivered mail again (the same mails, with the same Message-IDs).
    Resend {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// One mail, by the number `mail undelivered` shows.
        #[arg(long)]
        mail: Option<i64>,
        /// All of the game's undelivered mail.
        #[arg(long)]
        all: bool,
    },
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The engine the log belongs to.
    #[arg(long)]
    pub engine: String,
    /// A file written by `game export`; or, with --players, a JSONL action log (one
    /// {"seat":N,"action":{...}} per line, see docs/1835-actions.md).
    #[arg(long)]
    pub log: String,
    /// Player names in seating order, comma-separated ("A,B,C,D"): replay a JSONL action log
    /// from a new game with these players.
    #[arg(long)]
    pub players: Option<String>,
    /// Seed of the new game (JSONL logs).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Engine options of the new game as a JSON object (JSONL logs), e.g. '{"preset":"rails"}'.
    #[arg(long, default_value = "{}")]
    pub options: String,
    /// Print the cash ledger after every round as CSV (round,entity,cash), then the final
    /// scores (1835 JSONL logs).
    #[arg(long)]
    pub ledger: bool,
    /// Print the final state as JSON.
    #[arg(long)]
    pub state: bool,
}

#[derive(Debug, Subcommand)]
pub enum GmCommand {
    /// Set a GM's password (read from standard input) for signing in without a mailed link.
    SetPassword {
        /// The GM's mail address (the account is created when it does not exist).
        #[arg(long)]
        email: String,
    },
    /// Let an address create games from the web (RULING W42); again after a revoke.
    Invite {
        /// The address that may create games.
        address: String,
    },
    /// Take back an address's invitation to create games (the games it runs stay its own).
    Revoke {
        /// The address that may no longer create games.
        address: String,
    },
    /// Add a co-GM to a game: they see and change it as its GM does.
    CoGm {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The co-GM's address.
        address: String,
    },
}

/// Runs the parsed command line in the runtime it needs; returns the process exit code.
/// `mail ingest`, run once per message by an MTA, starts no async runtime unless it has to
/// store the message itself; `early` is what [`early_ingest`] already did with the message.
pub fn main(cli: Cli, early: Early) -> i32 {
    let cli = match cli.command {
        Some(Command::Mail(MailCommand::Ingest { sender, recipient, store_only })) => {
            return match early {
                Early::HandoffFailed(frame, e) => {
                    mail::after_failed_handoff(cli.settings, frame, e, store_only)
                }
                Early::Done(code) => code,
                Early::NotHandled => mail::ingest(cli.settings, sender, recipient, store_only),
            };
        }
        command => Cli { command, ..cli },
    };
    match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt.block_on(run(cli)),
        Err(e) => output::report_error(&anyhow::Error::from(e), cli.json),
    }
}

/// Runs the parsed command line; returns the process exit code.
pub async fn run(cli: Cli) -> i32 {
    let json = cli.json;
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve::serve(cli.settings).await,
        Command::Replay(args) => replay::replay(&args, json),
        Command::Game(cmd) => game::game(cli.settings, cmd, json).await,
        Command::Orders(cmd) => game::orders(cli.settings, cmd, json).await,
        Command::Turn(cmd) => game::turn(cli.settings, cmd, json).await,
        Command::Seat(cmd) => lifecycle::seat(cli.settings, cmd, json).await,
        Command::Gm(cmd) => game::gm(cli.settings, cmd).await,
        Command::Mail(MailCommand::Ingest { sender, recipient, store_only }) => {
            // Blocking by design (see `main`); from async code, on a thread of its own.
            let settings = cli.settings;
            return tokio::task::spawn_blocking(move || {
                mail::ingest(settings, sender, recipient, store_only)
            })
            .await
            .unwrap_or(mail::EX_TEMPFAIL);
        }
        Command::Mail(MailCommand::Process) => mail::process(cli.settings).await,
        Command::Key(KeyCommand::Rotate) => game::rotate_key(cli.settings, json).await,
        Command::Mail(MailCommand::Undelivered { game }) => outbox::list(cli.settings, &game, json).await,
        Command::Mail(MailCommand::Backlog { drop }) => outbox::backlog(cli.settings, drop, json).await,
        Command::Mail(MailCommand::Resend { game, mail, all }) => {
            outbox::resend(cli.settings, &game, mail, all, json).await
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => output::report_error(&e, json),
    }
}
