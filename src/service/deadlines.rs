//! Deadlines as people read them: a game's rhythm, how a deadline reads in a player's own zone,
//! its iCalendar entry, and the mails that announce a moved deadline or news to the whole table.
//! Opening a turn (which sets its deadline) is `service::turn::open`; the time arithmetic itself
//! is pure and lives in `crate::schedule`.

use super::notices::{self, Notice, SeatMail};
use super::{Ctx, ServiceError};
use crate::schedule::{self, IcalEvent, Rhythm, RhythmWords, TimeZoneName};
use crate::store;
use crate::store::games::GameRow;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use std::str::FromStr;

/// The game's rhythm: the stored one, or a plain "every turn length, any day, UTC" for games
/// created without one.
pub(crate) fn rhythm_of(g: &GameRow) -> Rhythm {
    stored_rhythm(g.rhythm.as_ref().map(|r| &r.0), g.turn_length_secs)
}

/// [`rhythm_of`] from the two columns it reads.
pub(crate) fn stored_rhythm(rhythm: Option<&Rhythm>, turn_length_secs: i64) -> Rhythm {
    rhythm.cloned().unwrap_or_else(|| {
        // Rhythms need at least an hour; shorter legacy lengths only matter for absences here.
        let minutes = (turn_length_secs / 60).max(60);
        Rhythm::parse(&RhythmWords { length: &format!("{minutes}m"), ..RhythmWords::default() })
            .unwrap_or_else(|_| unreachable!("a whole number of minutes over an hour is a rhythm"))
    })
}

/// A deadline as a player reads it: in their own zone if they chose one, else the game's.
pub(crate) fn words(g: &GameRow, seat_zone: Option<&str>, deadline: DateTime<Utc>) -> String {
    words_in(&rhythm_of(g), seat_zone, deadline)
}

/// [`words`] for a game of rhythm `rhythm` (whose zone is the game's).
pub(crate) fn words_in(rhythm: &Rhythm, seat_zone: Option<&str>, deadline: DateTime<Utc>) -> String {
    let zone = seat_zone.and_then(|z| TimeZoneName::from_str(z).ok()).unwrap_or_else(|| rhythm.zone());
    schedule::format_deadline(deadline, zone)
}

/// The iCalendar entry of a turn's deadline; the same UID for every version of the turn, so a
/// calendar updates the entry it already has.
pub(crate) fn calendar(ctx: &Ctx, g: &GameRow, turn: i32, deadline: DateTime<Utc>, version: i32) -> String {
    let uid = format!("{}-turn-{turn}@{}", g.id, ctx.settings.mail_domain());
    let summary = format!("Deadline: {}, turn {turn}", g.name);
    let url = format!("{}/games/{}", ctx.settings.base(), g.id);
    let description = format!("Orders for turn {turn} of \"{}\" are due. Game page: {url}", g.name);
    schedule::ical_deadline_event(&IcalEvent {
        uid: &uid,
        summary: &summary,
        description: &description,
        url: Some(&url),
        start: deadline,
        stamp: ctx.now(),
        sequence: u32::try_from(version).unwrap_or(0),
    })
}

/// Tells every seat that the deadline of `turn` is now `deadline`, and why; each mail shows the
/// deadline in the player's zone and carries the updated calendar entry.
pub(crate) async fn announce(
    ctx: &Ctx,
    conn: &mut PgConnection,
    g: &GameRow,
    turn: i32,
    deadline: DateTime<Utc>,
    version: i32,
    why: &str,
) -> Result<(), ServiceError> {
    let game = g.id;
    let ics = calendar(ctx, g, turn, deadline, version);
    for seat in store::games::seats(conn, g.id).await? {
        let when = words(g, seat.time_zone.as_deref(), deadline);
        let n = Notice {
            game: &g.name,
            greeting: &seat.player_name,
            paragraphs: vec![why.to_string(), format!("Turn {turn} now closes on {when}.")],
            block: None,
            link: Some(notices::SEAT_LINK.into()),
        };
        let m = SeatMail {
            key: format!("deadline:{game}:{turn}:{version}:{}", seat.seat.0),
            kind: "deadline",
            subject: format!("[{}] New deadline for turn {turn}: {when}", g.name),
            calendar: Some(ics.clone()),
        };
        notices::queue_to_seat(ctx, conn, game, &seat, m, &n).await?;
    }
    Ok(())
}

/// Tells every seat (and no one else) some news about the game. `what` makes the mail unique:
/// the same `what` is sent once.
pub(crate) async fn tell_table(
    ctx: &Ctx,
    conn: &mut PgConnection,
    g: &GameRow,
    what: &str,
    subject: &str,
    paragraphs: &[String],
) -> Result<(), ServiceError> {
    let game = g.id;
    for seat in store::games::seats(conn, g.id).await? {
        let n = Notice {
            game: &g.name,
            greeting: &seat.player_name,
            paragraphs: paragraphs.to_vec(),
            block: None,
            link: Some(format!("{}/games/{}", ctx.settings.base(), game)),
        };
        let m = SeatMail {
            key: format!("table:{game}:{what}:{}:{}", seat.seat.0, seat.token_generation),
            kind: "notice",
            subject: format!("[{}] {subject}", g.name),
            calendar: None,
        };
        notices::queue_to_seat(ctx, conn, game, &seat, m, &n).await?;
    }
    Ok(())
}

/// The calendar entry of a game's open turn, for a mail that mentions its deadline; `None` when
/// no turn is open.
pub(crate) async fn open_turn_calendar(
    ctx: &Ctx,
    conn: &mut PgConnection,
    g: &GameRow,
) -> Result<Option<String>, ServiceError> {
    Ok(store::turns::open_deadline(conn, g.id, g.current_turn)
        .await?
        .map(|d| calendar(ctx, g, g.current_turn, d.deadline, d.deadline_version)))
}
