//! `stationmaster mail ingest`: the pipe an MTA (Postfix `pipe(8)`, Exim, OpenSMTPD `mda`)
//! delivers order mail to. The raw message is stored before anything reads it; the exit code
//! tells the MTA whether to forget the message (0) or to queue it and try again (75).

use super::serve::connect;
use crate::clock::Clock;
use crate::config::Settings;
use crate::mail::handoff;
use crate::service::{Ctx, inbound};
use std::io::{ErrorKind, Read};

/// sysexits.h EX_TEMPFAIL: the MTA keeps the message and retries later.
pub const EX_TEMPFAIL: i32 = 75;

/// What [`early_ingest`] did before the rest of the program started.
pub enum Early {
    /// Not a plain `mail ingest`: parse the command line as usual.
    NotHandled,
    /// The message was read and handed to the server, or could not be read: exit with this code.
    Done(i32),
    /// The message was read but the hand-off did not succeed: store it directly.
    HandoffFailed(handoff::Frame, handoff::HandoffError),
}

/// `mail ingest` as an MTA runs it, once per message. When the command line is `mail ingest` with
/// nothing but envelope flags (`--sender`, `--recipient`, `--store-only`) and the ingest socket is
/// the environment's or the default, the message is read and handed to the server before the
/// command-line parser and the log are set up — they cost more than the hand-off itself. Anything
/// else, and every failure, goes the documented way: see [`Early`].
pub fn early_ingest(args: &[std::ffi::OsString]) -> Early {
    let Some((sender, recipient)) = envelope_only(args) else { return Early::NotHandled };
    let setting = match std::env::var_os(crate::config::INGEST_SOCKET_ENV).map(|v| v.into_string()) {
        Some(Ok(v)) => v,
        // Clap says what a setting that is not UTF-8 means.
        Some(Err(_)) => return Early::NotHandled,
        None => crate::config::DEFAULT_INGEST_SOCKET.to_string(),
    };
    // The database picks the `auto` socket: the server's own when it uses the same (RULING S8).
    let database = match std::env::var_os(crate::config::DATABASE_URL_ENV).map(|v| v.into_string()) {
        Some(Ok(v)) => v,
        Some(Err(_)) => return Early::NotHandled,
        None => crate::config::DEFAULT_DATABASE_URL.to_string(),
    };
    // Turned off: the message is stored directly, the documented way.
    let Some(socket) = crate::config::ingest_socket_path(&setting, &database) else {
        return Early::NotHandled;
    };
    let frame = match read_message(sender, recipient) {
        Ok(frame) => frame,
        Err(code) => return Early::Done(code),
    };
    match handoff::hand_off(&socket, &frame) {
        Ok(_) => Early::Done(0),
        Err(e) => Early::HandoffFailed(frame, e),
    }
}

/// The envelope of `[program, "mail", "ingest", envelope flags...]`; `None` for any other
/// command line, which the full parser then reads (and explains, if it is wrong).
fn envelope_only(args: &[std::ffi::OsString]) -> Option<(Option<String>, Option<String>)> {
    let mut words = args.iter().skip(1).map(|a| a.to_str());
    if words.next()? != Some("mail") || words.next()? != Some("ingest") {
        return None;
    }
    let (mut sender, mut recipient, mut store_only) = (None, None, false);
    while let Some(word) = words.next() {
        let word = word?;
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_string())),
            None => (word, None),
        };
        let slot = match flag {
            "--sender" => &mut sender,
            "--recipient" => &mut recipient,
            // Given twice, it is the parser's to refuse.
            "--store-only" if inline.is_none() && !store_only => {
                store_only = true;
                continue;
            }
            _ => return None,
        };
        // A flag given twice is the parser's to refuse.
        if slot.is_some() {
            return None;
        }
        let value = match inline {
            Some(v) => v,
            // `--sender --recipient`: the parser's to refuse, too.
            None => Some(words.next().flatten()?).filter(|v| !v.starts_with('-'))?.to_string(),
        };
        *slot = Some(value);
    }
    Some((sender, recipient))
}

/// Bytes of an oversized message read and thrown away after the part that is kept, so that the
/// MTA's writer is not cut off (it would see a broken pipe and retry a message that was stored);
/// more than any MTA's default size limit (Postfix: 10 MB). RULING M7.
pub const MAX_DISCARD: u64 = 64 * 1024 * 1024;

/// Reads the message from standard input: at most one byte past the limit, so an oversized
/// message is recognised (and stored cut), then the rest of it, up to [`MAX_DISCARD`] bytes,
/// thrown away. `Err` is the exit code when stdin cannot be read.
fn read_message(sender: Option<String>, recipient: Option<String>) -> Result<handoff::Frame, i32> {
    let mut raw = Vec::new();
    let limit = (inbound::MAX_MAIL_BYTES + 1) as u64;
    let mut stdin = std::io::stdin().lock();
    if let Err(e) = (&mut stdin).take(limit).read_to_end(&mut raw) {
        eprintln!("stationmaster: cannot read the message from standard input: {e}");
        return Err(EX_TEMPFAIL);
    }
    if raw.len() as u64 == limit {
        // What is kept is read; a failure to read the rest changes nothing about it.
        let _ = std::io::copy(&mut (&mut stdin).take(MAX_DISCARD), &mut std::io::sink());
    }
    Ok(handoff::Frame { sender, recipient, raw })
}

/// Stores stdin as one message and returns the exit code. The message goes to the running
/// server over the ingest socket when one listens (no async runtime, no database connection in
/// this process); otherwise this process stores it in the database itself and processes it.
pub fn ingest(
    settings: Settings,
    sender: Option<String>,
    recipient: Option<String>,
    store_only: bool,
) -> i32 {
    let frame = match read_message(sender, recipient) {
        Ok(frame) => frame,
        Err(code) => return code,
    };
    let Some(path) = settings.ingest_socket() else { return store_directly(settings, frame, store_only) };
    match handoff::hand_off(&path, &frame) {
        Ok(ingested) => {
            tracing::info!(inbound.id = ingested.id, new = ingested.new, "inbound mail handed to the server");
            0
        }
        Err(e) => after_failed_handoff(settings, frame, e, store_only),
    }
}

/// Stores a message whose hand-off to the server did not succeed in the database directly.
pub fn after_failed_handoff(
    settings: Settings,
    frame: handoff::Frame,
    e: handoff::HandoffError,
    store_only: bool,
) -> i32 {
    match e {
        // The usual case without a server (no socket file, or a stale one): say nothing.
        handoff::HandoffError::NoServer(e)
            if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::ConnectionRefused) => {}
        e => tracing::warn!(error = %e, "hand-off failed; storing the message directly"),
    }
    store_directly(settings, frame, store_only)
}

/// Stores a message with a connection of its own (one connection on one thread is all a single
/// message needs), then (unless `store_only`) processes it.
fn store_directly(settings: Settings, frame: handoff::Frame, store_only: bool) -> i32 {
    match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt.block_on(store_and_process(settings, frame, store_only)),
        Err(e) => {
            eprintln!("stationmaster: cannot start: {e}");
            EX_TEMPFAIL
        }
    }
}

/// How long a pipe waits for a database that does not answer before it exits 75: the MTA keeps
/// the message and tries again later, so waiting longer only holds a delivery slot.
const PIPE_DB_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// [`store_directly`]'s work.
async fn store_and_process(settings: Settings, frame: handoff::Frame, store_only: bool) -> i32 {
    let pool = match crate::store::connect_and_migrate(&settings.database_url, 1, PIPE_DB_WAIT).await {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("stationmaster: the database is not available, try again later: {e:#}");
            return EX_TEMPFAIL;
        }
    };
    let clock = Clock::system();
    let raw = &frame.raw;
    let arrived = inbound::Arrived {
        envelope_from: frame.sender.as_deref(),
        envelope_to: frame.recipient.as_deref(),
        ..inbound::Arrived::new(raw, "pipe")
    };
    let stored = inbound::ingest(&pool, &[arrived], clock.now()).await;
    let ingested = match stored.as_deref() {
        Ok([i]) => *i,
        Ok(_) => {
            eprintln!("stationmaster: the message could not be stored, try again later");
            return EX_TEMPFAIL;
        }
        Err(e) => {
            eprintln!("stationmaster: the message could not be stored, try again later: {e}");
            return EX_TEMPFAIL;
        }
    };
    tracing::info!(inbound.id = ingested.id, new = ingested.new, bytes = raw.len(), "inbound mail stored");
    if ingested.new && !store_only {
        // Stored is what the MTA needs to hear; a processing failure is retried by the server.
        // The MTA runs this as another user, who may not read the key file: then the server,
        // which processes stored mail on every pass, does it (RULING P7).
        match Ctx::reading_key(pool, settings, clock).await {
            Some(ctx) => {
                if let Err(e) = inbound::process_inbound(&ctx, ingested.id).await {
                    tracing::error!(inbound.id = ingested.id, error = %e, "processing failed; the server will retry");
                }
            }
            None => {
                tracing::info!(inbound.id = ingested.id, "stored; the server will process it (no key here)")
            }
        }
    }
    0
}

/// Processes every stored message still waiting.
pub async fn process(settings: Settings) -> anyhow::Result<()> {
    let ctx = connect(settings).await?;
    let mut total = 0;
    loop {
        let n = inbound::process_pending(&ctx, 100).await?;
        total += n;
        if n == 0 {
            break;
        }
    }
    println!("Processed {total} message(s).");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::envelope_only;
    use std::ffi::OsString;

    fn envelope(words: &[&str]) -> Option<(Option<String>, Option<String>)> {
        let args: Vec<OsString> =
            std::iter::once("stationmaster").chain(words.iter().copied()).map(OsString::from).collect();
        envelope_only(&args)
    }

    fn some(s: &str) -> Option<String> {
        Some(s.to_string())
    }

    #[test]
    fn a_plain_mail_ingest_is_taken_early_with_its_envelope_in_either_spelling() {
        assert_eq!(envelope(&["mail", "ingest"]), Some((None, None)));
        assert_eq!(
            envelope(&["mail", "ingest", "--sender", "a@x.org", "--recipient=orders@y.org"]),
            Some((some("a@x.org"), some("orders@y.org")))
        );
        assert_eq!(envelope(&["mail", "ingest", "--store-only", "--sender", ""]), Some((some(""), None)));
        assert_eq!(envelope(&["mail", "ingest", "--sender="]), Some((some(""), None)));
    }

    #[test]
    fn any_other_command_line_is_left_to_the_full_parser() {
        for words in [
            &["mail", "process"][..],
            &["--json", "mail", "ingest"],
            &["mail", "ingest", "--database-url", "postgres://x"],
            &["mail", "ingest", "--sender"],
            &["mail", "ingest", "--sender", "a@x", "--sender", "b@x"],
            &["mail", "ingest", "--sender", "--recipient", "r@x"],
            &["mail", "ingest", "--store-only=yes"],
            &["mail", "ingest", "--store-only", "--store-only"],
            &["mail", "ingest", "extra"],
            &["game", "list"],
            &[],
        ] {
            assert_eq!(envelope(words), None, "{words:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_command_line_that_is_not_utf8_is_left_to_the_full_parser() {
        use std::os::unix::ffi::OsStringExt;
        let args = vec![
            OsString::from("stationmaster"),
            OsString::from("mail"),
            OsString::from("ingest"),
            OsString::from("--sender"),
            OsString::from_vec(vec![0xff, b'a']),
        ];
        assert_eq!(envelope_only(&args), None);
    }
}

#[cfg(test)]
mod agreement {
    use super::envelope_only;
    use crate::cli::{Cli, Command, MailCommand};
    use clap::Parser;
    use proptest::prelude::*;
    use std::ffi::OsString;

    /// Words a command line is made of: flags, values, flag-like values, and other commands.
    const WORDS: &[&str] = &[
        "mail",
        "ingest",
        "process",
        "--sender",
        "--recipient",
        "--store-only",
        "--sender=a@x.org",
        "--recipient=",
        "--store-only=true",
        "a@x.org",
        "",
        "-x",
        "--json",
        "--sender=--recipient",
        "b@y.org",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// Whatever the early hand-off takes, the full parser reads the same way: the same
        /// `mail ingest` with the same envelope. (It may leave more to the parser, never less.)
        #[test]
        fn whatever_the_early_path_takes_clap_reads_as_the_same_envelope(
            plain in any::<bool>(),
            picks in proptest::collection::vec(0..WORDS.len(), 0..7),
        ) {
            let head: &[&str] = if plain { &["stationmaster", "mail", "ingest"] } else { &["stationmaster"] };
            let args: Vec<OsString> =
                head.iter().copied().chain(picks.iter().map(|&i| WORDS[i])).map(OsString::from).collect();
            if let Some((sender, recipient)) = envelope_only(&args) {
                let cli = Cli::try_parse_from(&args);
                prop_assert!(cli.is_ok(), "{args:?}: {:?}", cli.err());
                match cli.unwrap().command {
                    Some(Command::Mail(MailCommand::Ingest { sender: s, recipient: r, .. })) => {
                        prop_assert_eq!((s, r), (sender, recipient), "{:?}", args);
                    }
                    other => prop_assert!(false, "{args:?} parsed as {other:?}"),
                }
            }
        }
    }
}
