//! Console commands for a running game's clock and seats: the rhythm given at creation, pause,
//! resume, deadline moves, the audit log, replacements, absences, zones and standing orders.

use super::output::{InputError, input, print};
use super::serve::connect;
use super::{CreateArgs, SeatCommand};
use crate::config::Settings;
use crate::domain::{GameId, Mailbox};
use crate::engine::Seat;
use crate::orders::OrderText;
use crate::schedule::{self, ClockWords, DeadlineChange, Rhythm};
use crate::service::audit::Actor;
use crate::service::waiting::{self, Offered};
use crate::service::{self, GameClock, lifecycle};
use anyhow::Context;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde_json::json;
use std::io::Read;

/// Who the console acts as in the audit log.
pub(super) const CONSOLE: &str = "console";

pub(super) fn game_id(s: &str) -> Result<GameId, InputError> {
    input(s.parse::<GameId>())
}

fn span(what: &str, s: &str) -> Result<Duration, InputError> {
    schedule::parse_span(s).map_err(|e| InputError(format!("{what}: {e}")))
}

/// The clock and policies of a new game from the create command's flags (read as the web's
/// "New game" form is: [`ClockWords::parse`]), and the rhythm described.
pub(super) fn clock_from(args: &CreateArgs) -> Result<(GameClock, Option<String>), InputError> {
    let words = ClockWords {
        deadline: args.deadline.clone(),
        at: args.at.clone(),
        days: args.days.clone(),
        tz: args.tz.clone(),
        grace: args.grace.clone(),
        cron: args.cron.clone(),
        reminders: args.reminders.clone(),
        cooling_off: args.cooling_off.clone(),
        nmr_policy: args.nmr_policy.clone(),
        auto_release: args.auto_release.clone(),
        max_absence_days: args.max_absence_days,
        absence_approval: args.absence_approval.clone(),
        referrals: args.referrals.clone(),
    };
    let clock = words.parse().map_err(|e| InputError(format!("--{e}")))?;
    let described = clock.rhythm.as_ref().map(Rhythm::describe);
    Ok((clock, described))
}

/// `game pause`, `game resume`, `game audit`.
pub(super) async fn pause(settings: Settings, game: &str, resume: bool, json: bool) -> anyhow::Result<()> {
    let id = game_id(game)?;
    let ctx = connect(settings).await?;
    if resume {
        let deadline = lifecycle::resume_game(&ctx, id, CONSOLE).await?;
        print(&json!({"resumed": id, "deadline": deadline}), json, |_| match deadline {
            Some(d) => format!("Game resumed; the open turn now closes {}.", d.format("%Y-%m-%d %H:%M UTC")),
            None => "Game resumed.".into(),
        });
    } else {
        lifecycle::pause_game(&ctx, id, CONSOLE).await?;
        print(&json!({"paused": id}), json, |_| "Game paused; the players have been told.".into());
    }
    Ok(())
}

pub(super) async fn audit(settings: Settings, game: &str, json: bool) -> anyhow::Result<()> {
    let id = game_id(game)?;
    let ctx = connect(settings).await?;
    let log = service::audit::audit_log(&ctx, id).await?;
    print(&log, json, |l| {
        let mut out = String::new();
        for e in &l.entries {
            out.push_str(&format!(
                "{:>4} {} {:<24} {} {}\n",
                e.seq,
                e.at.format("%Y-%m-%d %H:%M:%S"),
                e.actor,
                e.action,
                e.detail
            ));
        }
        match &l.first_break {
            None => out.push_str(&format!("Chain intact ({} entries).", l.entries.len())),
            Some(b) => out.push_str(&format!("CHAIN BROKEN at entry {}: {}", b.seq, b.why)),
        }
        out
    });
    Ok(())
}

/// `game correct`.
pub(super) async fn correct(
    settings: Settings,
    game: &str,
    patch: &str,
    note: &str,
    json: bool,
) -> anyhow::Result<()> {
    let id = game_id(game)?;
    let text =
        if patch == "-" { String::from_utf8_lossy(&read_file("-")?).into_owned() } else { patch.to_string() };
    let patch: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| InputError(format!("--patch is not JSON: {e}")))?;
    let ctx = connect(settings).await?;
    let changes = service::correct_state(&ctx, id, CONSOLE, &patch, note).await?;
    print(&json!({"changes": changes}), json, |_| {
        format!("Corrected; the players have been told. Changes (GM view):\n{}", changes.join("\n"))
    });
    Ok(())
}

/// `turn extend` and `turn deadline`.
pub(super) async fn move_deadline_cmd(
    ctx: &service::Ctx,
    game: &str,
    change: Result<DeadlineChange, InputError>,
    json: bool,
) -> anyhow::Result<()> {
    let (id, change) = (game_id(game)?, change?);
    let d = lifecycle::change_deadline(ctx, id, CONSOLE, change).await?;
    print(&json!({"deadline": d}), json, |_| {
        format!("The deadline is now {}; the players have been told.", d.format("%Y-%m-%d %H:%M UTC"))
    });
    Ok(())
}

/// The change `turn extend --by` asks for.
pub(super) fn extend_by(by: &str) -> Result<DeadlineChange, InputError> {
    Ok(DeadlineChange::Extend(span("--by", by)?))
}

/// The change `turn deadline --at [--force]` asks for: a later instant, or a forced shortening.
pub(super) fn set_to(at: &str, force: bool) -> Result<DeadlineChange, InputError> {
    let to = DateTime::parse_from_rfc3339(at.trim())
        .map_err(|e| InputError(format!("--at must be RFC 3339, e.g. 2026-12-01T20:00:00+01:00 ({e})")))?
        .with_timezone(&Utc);
    Ok(if force { DeadlineChange::Shorten { to, forced: true } } else { DeadlineChange::SetTo(to) })
}

/// Reads a file, or standard input for "-".
pub(super) fn read_file(file: &str) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if file == "-" {
        std::io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
    } else {
        bytes = std::fs::read(file).with_context(|| format!("cannot read {file}"))?;
    }
    Ok(bytes)
}

fn day(what: &str, s: &str) -> Result<NaiveDate, InputError> {
    NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
        .map_err(|_| InputError(format!("{what} must be YYYY-MM-DD")))
}

pub async fn seat(settings: Settings, cmd: SeatCommand, json: bool) -> anyhow::Result<()> {
    match cmd {
        SeatCommand::Replace { game, seat, player } => {
            let (id, player) = (game_id(&game)?, input(Mailbox::parse(&player))?);
            let ctx = connect(settings).await?;
            let r = lifecycle::replace_player(&ctx, id, CONSOLE, seat, &player).await?;
            print(&json!({"seat": r.seat, "link": r.link, "generation": r.generation}), json, |_| {
                format!(
                    "Seat {seat} now belongs to {} <{}>; the old link no longer works.\n  new link {}\n\
                     The new player has been mailed the link and the seat's history.",
                    player.name, player.email, r.link
                )
            });
        }
        SeatCommand::Open { game, seat } => {
            let id = game_id(&game)?;
            let ctx = connect(settings).await?;
            let offered = waiting::open_seat(&ctx, id, CONSOLE, seat).await?;
            let value = match &offered {
                Offered::FromWaitingList(name) => json!({"seat": seat, "taken_by": name}),
                Offered::Link(link) => json!({"seat": seat, "link": link}),
            };
            print(&value, json, |_| match &offered {
                Offered::FromWaitingList(name) => format!(
                    "Seat {seat} was taken by {name}, the first on the waiting list; the old link no longer works.\n\
                     {name} has been mailed the seat's link and history."
                ),
                Offered::Link(link) => format!(
                    "Seat {seat} is offered: whoever opens this link first takes it (for 7 days).\n  offer link {link}\n\
                     Offering the seat again makes a new link and ends this one."
                ),
            });
        }
        SeatCommand::Away { game, seat, from, to } => {
            let (id, first, last) = (game_id(&game)?, day("--from", &from)?, day("--to", &to)?);
            let ctx = connect(settings).await?;
            // The GM's own absence entry is approved by itself (RULING S9).
            let outcome = lifecycle::add_absence(&ctx, id, Actor::Gm(CONSOLE), seat, first, last).await?;
            let moved = match outcome {
                lifecycle::AbsenceOutcome::Recorded(moved) => moved,
                lifecycle::AbsenceOutcome::AwaitsApproval => None,
            };
            print_moved(&json!({"seat": seat, "from": first, "to": last, "deadline": moved}), moved, json);
        }
        SeatCommand::Approve { game, seat } => {
            let id = game_id(&game)?;
            let ctx = connect(settings).await?;
            let moved = lifecycle::approve_absences(&ctx, id, CONSOLE, seat).await?;
            print_moved(&json!({"seat": seat, "approved": true, "deadline": moved}), moved, json);
        }
        SeatCommand::Decline { game, seat } => {
            let id = game_id(&game)?;
            let ctx = connect(settings).await?;
            let n = lifecycle::decline_absences(&ctx, id, CONSOLE, seat).await?;
            print(&json!({"seat": seat, "declined": n}), json, |_| {
                format!(
                    "Declined {n} absence(s) of seat {seat}; the deadline stays. The player has been told."
                )
            });
        }
        SeatCommand::Zone { game, seat, zone } => {
            let id = game_id(&game)?;
            let ctx = connect(settings).await?;
            lifecycle::set_player_zone(&ctx, id, Seat(seat), Some(&zone)).await?;
            print(&json!({"seat": seat, "zone": zone}), json, |_| {
                format!("Seat {seat} reads deadlines in {zone}.")
            });
        }
        SeatCommand::Standing { game, seat, file } => {
            let id = game_id(&game)?;
            let text = input(OrderText::from_bytes(&read_file(&file)?))?;
            let ctx = connect(settings).await?;
            let echo = lifecycle::set_standing_orders(&ctx, id, Seat(seat), &text).await?;
            print(&echo, json, |e| format!("Standing orders stored ({} line(s)).", e.lines.len()));
        }
    }
    Ok(())
}

/// Prints what an absence in force did to the open deadline.
fn print_moved(value: &serde_json::Value, moved: Option<DateTime<Utc>>, json: bool) {
    print(value, json, |_| match moved {
        Some(d) => {
            format!("Absence in force; the open deadline moved to {}.", d.format("%Y-%m-%d %H:%M UTC"))
        }
        None => "Absence in force; the open deadline is not affected.".into(),
    });
}
