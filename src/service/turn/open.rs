//! Opening a turn: its deadline from the game's rhythm (or turn length), moved past the absences
//! of the seats that must act (capped by the game's limit), the rhythm's grace period, and its
//! reminder timers armed.

use crate::domain::TimerKind;
use crate::engine::Seat;
use crate::schedule;
use crate::service::ServiceError;
use crate::service::audit::{self, Actor};
use crate::service::deadlines::rhythm_of;
use crate::store;
use crate::store::games::GameRow;
use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};
use sqlx::PgConnection;

/// Opens turn `number`: its deadline is the game's rhythm from `now` (or `now` + the turn length
/// for games without one), moved past the absences of the seats that must act (capped by the
/// game's limit); the turn gets the rhythm's grace period and its reminders are armed. Returns
/// the deadline.
pub(crate) async fn open_turn(
    conn: &mut PgConnection,
    g: &GameRow,
    number: i32,
    state: &Value,
    first_seq: i64,
    acting: &[Seat],
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>, ServiceError> {
    let rhythm = rhythm_of(g);
    let base = if g.rhythm.is_some() {
        rhythm.deadline_after(now)
    } else {
        now + Duration::seconds(g.turn_length_secs)
    };
    let from_day = (base - Duration::days(1)).date_naive();
    let absences: Vec<schedule::Absence> = store::lifecycle::absences(conn, g.id, from_day)
        .await?
        .into_iter()
        .filter_map(|a| schedule::Absence::new(a.seat.0, a.first_day, a.last_day).ok())
        .collect();
    let acting_u8: Vec<u8> = acting.iter().map(|s| s.0).collect();
    let cap = Duration::days(i64::from(g.max_absence_days));
    let (deadline, push) = schedule::push_for_absences(base, &rhythm, &absences, &acting_u8, cap);
    let grace_secs = if g.rhythm.is_some() { rhythm.grace().map_or(0, |d| d.num_seconds()) } else { 0 };
    store::turns::open_turn(
        conn,
        &store::turns::NewTurn {
            game_id: g.id,
            number,
            opened_at: now,
            deadline,
            acting_seats: acting,
            start_state: state,
            first_seq,
            grace_secs,
        },
    )
    .await?;
    arm_reminders(conn, g, number, now, deadline).await?;
    if let Some(push) = push {
        let detail = json!({"turn": number, "from": base, "to": deadline, "why": push.to_string()});
        audit::record(conn, now, g.id, Actor::Server, "deadline moved for absences", detail).await?;
    }
    Ok(deadline)
}

/// Arms the reminders of a newly opened turn: one per offset that still lies ahead.
async fn arm_reminders(
    conn: &mut PgConnection,
    game: &GameRow,
    number: i32,
    now: DateTime<Utc>,
    deadline: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let offsets: Vec<Duration> = game.reminder_offsets.iter().map(|s| Duration::seconds(*s)).collect();
    for due in schedule::reminder_times(deadline, &offsets, now) {
        let offset = (deadline - due).num_seconds();
        store::lifecycle::arm_timer(conn, game.id, number, TimerKind::Reminder, Some(offset), due).await?;
    }
    Ok(())
}
