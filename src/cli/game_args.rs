//! The arguments of the commands that act on a game: `game`, `seat`, `orders` and `turn`.

use clap::{Args, Subcommand};

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
    /// Export a game as a versioned JSON document (setup, seats, turns, orders, log, reports;
    /// no server secrets) for `game import` on another server, or for `replay`.
    Export {
        /// The game's id, as `game create` printed it (or give it as --game).
        #[arg(required_unless_present = "game", conflicts_with = "game")]
        id: Option<String>,
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: Option<String>,
    },
    /// Create a game from a `game export` document: its log is replayed, its orders, audit chain,
    /// NMR counts and reports checked, and the document refused on any mismatch. Nothing is
    /// written until the addresses it would mail are confirmed: the first run lists them with a
    /// code. Every seat gets a new link, mailed to its player.
    Import {
        /// The exported document ("-" reads standard input).
        file: String,
        /// Import under a new game id (a copy), instead of the id the game had.
        #[arg(long)]
        new_id: bool,
        /// The code a run without it printed beside the document's addresses, once you have
        /// checked them with the game's GM.
        #[arg(long, value_name = "CODE")]
        confirm_addresses: Option<String>,
        /// Store this server's renderings of the reports instead of checking the document's (a
        /// document from a server version that words its reports otherwise).
        #[arg(long)]
        rerender_reports: bool,
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
    /// Whether a decision the rules refer to the GM (1835 HR 17 B) waits for your answer (ask)
    /// or is played by its best-ranked candidate and noted (first).
    Referrals {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// ask: the turn waits for your choice; first: the best-ranked candidate is played.
        #[arg(value_parser = ["ask", "first"])]
        how: String,
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
    /// Offer a seat as a replacement: the first on the game's waiting list takes it, else a link
    /// is printed that whoever opens it first may use to take the seat (RULING W61).
    Open {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The seat's number (1 is the first player in seating order).
        #[arg(long)]
        seat: u8,
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
    /// Approve the absences a player asked for on their page (games where they wait for the GM):
    /// they are in force, and the open deadline moves past them.
    Approve {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The seat's number (1 is the first player in seating order).
        #[arg(long)]
        seat: u8,
    },
    /// Decline the absences a player asked for on their page: they are removed, no deadline
    /// moves, and the player is told.
    Decline {
        /// The game's id, as `game create` printed it.
        #[arg(long)]
        game: String,
        /// The seat's number (1 is the first player in seating order).
        #[arg(long)]
        seat: u8,
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
    /// The rules engine: railroaded (4 players), 1835 (3 to 7), 1833 (2 to 6), confederate-rails
    /// (2 to 5) or 1800 (2 to 8).
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
    /// Who puts a player's own absence (from their page) in force: the GM, by approving it with
    /// `seat approve` (gm), or nobody, at once (auto). An absence the GM records needs no approval.
    #[arg(long, default_value = "gm", value_parser = ["gm", "auto"])]
    pub absence_approval: String,
    /// A decision the rules refer to the GM (1835 HR 17 rung B: the tile that best follows a
    /// director's plan): ask the GM (ask), or play the best-ranked candidate and say so (first).
    #[arg(long, default_value = "ask", value_parser = ["ask", "first"])]
    pub referrals: String,
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
