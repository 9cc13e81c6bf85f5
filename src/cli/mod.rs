//! The console: `serve` and the GM's subcommands of the one `stationmaster` binary. Human output
//! by default, JSON with `--json`. Commands call the same service functions as the web.

mod game;
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
    /// GM accounts.
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

#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Create a game; prints its id and each seat's secret order link.
    Create(Box<CreateArgs>),
    /// Show a game: the public view, or one seat's private view.
    Show {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The seat's number (1 is the first player in seating order).
        #[arg(long)]
        seat: Option<u8>,
    },
    /// Export a game as setup + action log (JSON), for `replay`.
    Export {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
    },
    /// Pause a game: no turn closes and no reminder goes out until it resumes.
    Pause {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
    },
    /// Resume a paused game; the open deadline moves by the length of the pause.
    Resume {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
    },
    /// Correct the game's state before the open turn is adjudicated (HR 15): a JSON merge patch
    /// of the state (see `game show --json` for its shape), logged with a note.
    Correct {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The merge patch, e.g. '{"seats":[...]}' ("-" reads it from standard input).
        #[arg(long)]
        patch: String,
        /// What the correction fixes, in a few words (told to the players).
        #[arg(long)]
        note: String,
    },
    /// Print the game's audit log and check its hash chain.
    Audit {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum SeatCommand {
    /// Give a seat to a new player: new secret link, NMR count reset, history mailed.
    Replace {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The seat's number (1 is the first player in seating order).
        #[arg(long)]
        seat: u8,
        /// The new player as "Name <address>".
        #[arg(long)]
        player: String,
    },
    /// Record an absence (inclusive dates, YYYY-MM-DD, in the game's zone).
    Away {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The seat's number (1 is the first player in seating order).
        #[arg(long)]
        seat: u8,
        /// The first day of the absence (YYYY-MM-DD).
        #[arg(long)]
        from: String,
        /// The last day of the absence (YYYY-MM-DD).
        #[arg(long)]
        to: String,
    },
    /// Set the time zone a player reads deadlines in (IANA name; empty for the game's zone).
    Zone {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The seat's number (1 is the first player in seating order).
        #[arg(long)]
        seat: u8,
        /// The IANA time zone, e.g. America/New_York ("" for the game's zone).
        #[arg(long)]
        zone: String,
    },
    /// Set a seat's standing orders from a file ("-" for standard input; empty withdraws them).
    Standing {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The seat's number (1 is the first player in seating order).
        #[arg(long)]
        seat: u8,
        /// The file holding the standing orders ("-" for standard input; an empty file withdraws them).
        #[arg(long)]
        file: String,
    },
}

#[derive(Debug, Args)]
pub struct CreateArgs {
    /// The rules engine, e.g. railroaded.
    #[arg(long)]
    pub engine: String,
    /// The game's name, as players see it in mail and on the web.
    #[arg(long)]
    pub name: String,
    /// The GM's mail address.
    #[arg(long)]
    pub gm: String,
    /// A player as "Name <address>", once per seat in seating order.
    #[arg(long = "player", required = true)]
    pub players: Vec<String>,
    /// Seed of the game's random numbers (random when not given).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Turn length, e.g. 48h, 2d, 90m.
    #[arg(long, default_value = "48h")]
    pub deadline: String,
    /// Who publishes a turn: the GM after review (gm), or the server at once (auto).
    #[arg(long, default_value = "gm")]
    pub review: String,
    /// Engine options as a JSON object: 1833 {"turn_size":"player"|"round"} (and "deck_file": a
    /// path); 1835 {"preset":"pbem"|"rails"} and single keys of rules/1835/game.toml, e.g.
    /// "variant"; Railroaded none. See README.md.
    #[arg(long, default_value = "{}")]
    pub options: String,
    /// Local time of day of every deadline, e.g. 20:00 (in --tz).
    #[arg(long)]
    pub at: Option<String>,
    /// Weekdays a deadline may fall on, e.g. mon-fri, "mon,wed,fri", weekdays, all.
    #[arg(long)]
    pub days: Option<String>,
    /// The game's time zone (IANA name, e.g. Europe/Berlin); default UTC.
    #[arg(long)]
    pub tz: Option<String>,
    /// Grace period after the deadline for seats without orders, e.g. 2h.
    #[arg(long)]
    pub grace: Option<String>,
    /// A cron pattern for deadlines in the game's zone, e.g. "0 20 * * FRI" (the turn length is
    /// then the least time a turn lasts).
    #[arg(long)]
    pub cron: Option<String>,
    /// Reminders before the deadline, e.g. 48h,12h,2h ("none" for none).
    #[arg(long, default_value = "48h,12h,2h")]
    pub reminders: String,
    /// Delay between the last seat marking orders final and the early close.
    #[arg(long, default_value = "30m")]
    pub cooling_off: String,
    /// NMR policy preset: hr1835 (default), lenient, strict, gm-decides.
    #[arg(long, default_value = "hr1835")]
    pub nmr_policy: String,
    /// Publish a draft the GM leaves alone this long, e.g. 24h (review gm only).
    #[arg(long)]
    pub auto_release: Option<String>,
    /// Longest absence a player may take, in days.
    #[arg(long, default_value_t = 14)]
    pub max_absence_days: i32,
}

#[derive(Debug, Subcommand)]
pub enum OrdersCommand {
    /// Submit a seat's orders from a file ("-" for standard input).
    Submit {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The seat's number (1 is the first player in seating order).
        #[arg(long)]
        seat: u8,
        /// The file holding the orders ("-" for standard input).
        #[arg(long)]
        file: String,
        /// Mark the orders final.
        #[arg(long = "final")]
        final_: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum TurnCommand {
    /// Adjudicate the current turn now.
    Close {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
    },
    /// Publish the draft of the current turn and queue the report mails.
    Publish {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
    },
    /// Answer the question the open turn waits on with move number N (as listed).
    Answer {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The number of the chosen move in the list the question shows.
        #[arg(long)]
        choice: usize,
    },
    /// Extend the open turn's deadline, e.g. --by 24h.
    Extend {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// How much longer the turn runs, e.g. 24h, 2d, 90m.
        #[arg(long)]
        by: String,
    },
    /// Roll the game back to an earlier turn, re-opened (held for you) as it stood before its
    /// adjudication; everything undone is archived.
    Rollback {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The number of the turn to go back to.
        #[arg(long)]
        to: i32,
        /// Set aside the orders given for that turn too (players send them again).
        #[arg(long)]
        discard_orders: bool,
    },
    /// Set the open turn's deadline (RFC 3339, e.g. 2026-12-01T20:00:00+01:00); an earlier
    /// deadline than announced needs --force.
    Deadline {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The new deadline (RFC 3339, e.g. 2026-12-01T20:00:00+01:00).
        #[arg(long)]
        at: String,
        /// Allow a deadline earlier than the one announced.
        #[arg(long)]
        force: bool,
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
        Command::Mail(MailCommand::Resend { game, mail, all }) => {
            outbox::resend(cli.settings, &game, mail, all, json).await
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => output::report_error(&e, json),
    }
}
