//! Issue #3, the clock: rhythm deadlines, cooling-off, grace, reminders with calendars in the
//! player's zone, never-earlier, pause and resume, absences and the outage guard — all driven by
//! the fixed test clock against a real Postgres.

use crate::db::test_db;
use crate::helpers::{spawn_app, spawn_app_with};
use chrono::{Datelike, Duration, NaiveDate, TimeZone, Utc, Weekday};
use stationmaster::clock::Clock;
use stationmaster::schedule::{DeadlineChange, Rhythm, RhythmWords};
use stationmaster::service::audit::Actor;
use stationmaster::service::{GameClock, Review, lifecycle};

fn rhythm(length: &str, at: &str, days: &str, tz: &str, grace: Option<&str>) -> Rhythm {
    Rhythm::parse(&RhythmWords { length, at: Some(at), days: Some(days), tz: Some(tz), grace, cron: None })
        .unwrap()
}

fn clock_with(rhythm: Option<Rhythm>) -> GameClock {
    GameClock { rhythm, ..GameClock::default() }
}

#[tokio::test]
async fn early_close_waits_for_the_cooling_off_delay_after_the_last_final_mark() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let orders = app.claim_orders(&g).await;
    for (i, o) in orders.iter().enumerate() {
        app.submit(&g, i, o.as_deref().unwrap(), true).await;
    }
    assert_eq!(app.tick().await, 0, "every seat is final, but players may still change their minds");
    app.ctx.clock.advance(Duration::minutes(29));
    assert_eq!(app.tick().await, 0);
    app.ctx.clock.advance(Duration::minutes(1));
    assert_eq!(app.tick().await, 1);
    assert_eq!(app.turn(g.id, 1).await.close_reason.as_deref(), Some("closed: all orders final"));
}

#[tokio::test]
async fn a_new_version_after_the_final_mark_restarts_the_wait() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let orders = app.claim_orders(&g).await;
    for (i, o) in orders.iter().enumerate() {
        app.submit(&g, i, o.as_deref().unwrap(), true).await;
    }
    app.ctx.clock.advance(Duration::minutes(20));
    app.submit(&g, 0, orders[0].as_deref().unwrap(), false).await;
    app.ctx.clock.advance(Duration::hours(1));
    assert_eq!(app.tick().await, 0, "seat 1's newest version is not final");
}

#[tokio::test]
async fn the_deadline_lands_on_an_allowed_weekday_at_the_local_time_across_a_dst_change() {
    let (pool, _db) = test_db().await;
    // Thursday 2026-10-22 12:00 UTC; 48h later is Saturday; the next weekday is Monday the 26th,
    // the first day of winter time in Berlin (UTC+1): 20:00 local is 19:00 UTC.
    let clock = Clock::fixed(Utc.with_ymd_and_hms(2026, 10, 22, 12, 0, 0).unwrap());
    let app = spawn_app_with(pool, clock).await;
    let g = app
        .create_game_with(
            Review::Gm,
            clock_with(Some(rhythm("48h", "20:00", "mon-fri", "Europe/Berlin", None))),
        )
        .await;
    assert_eq!(g.deadline, Utc.with_ymd_and_hms(2026, 10, 26, 19, 0, 0).unwrap());
    assert_eq!(g.deadline.weekday(), Weekday::Mon);
    let welcome = app.outbox().await.into_iter().find(|m| m.kind == "welcome").unwrap();
    assert!(welcome.body_text.contains("20:00 CET"), "{}", welcome.body_text);
    let ics = welcome.calendar.expect("the welcome mail carries the first deadline as a calendar entry");
    assert!(ics.contains("DTSTART:20261026T190000Z"), "{ics}");
}

#[tokio::test]
async fn a_grace_period_keeps_the_turn_open_for_a_seat_without_orders() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app
        .create_game_with(Review::Gm, clock_with(Some(rhythm("48h", "12:00", "all", "UTC", Some("6h")))))
        .await;
    let orders = app.claim_orders(&g).await;
    for (i, o) in orders.iter().enumerate().take(3) {
        app.submit(&g, i, o.as_deref().unwrap(), false).await;
    }
    app.ctx.clock.advance(Duration::hours(49));
    assert_eq!(app.tick().await, 0, "seat 4 has no orders, so the grace period applies");
    app.submit(&g, 3, orders[3].as_deref().unwrap(), false).await;
    assert_eq!(app.tick().await, 1, "with every seat's orders in, the passed deadline closes the turn");
}

#[tokio::test]
async fn without_orders_the_turn_closes_when_the_grace_period_ends() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app
        .create_game_with(Review::Gm, clock_with(Some(rhythm("48h", "12:00", "all", "UTC", Some("6h")))))
        .await;
    app.ctx.clock.advance(Duration::hours(53));
    assert_eq!(app.tick().await, 0);
    app.ctx.clock.advance(Duration::hours(1));
    assert_eq!(app.tick().await, 1);
    assert_eq!(app.turn(g.id, 1).await.close_reason.as_deref(), Some("closed: deadline and grace period"));
}

#[tokio::test]
async fn reminders_go_only_to_seats_without_final_orders_in_their_own_zone() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    lifecycle::set_player_zone(&app.ctx, g.id, stationmaster::engine::Seat(2), Some("America/New_York"))
        .await
        .unwrap();
    let orders = app.claim_orders(&g).await;
    app.submit(&g, 0, orders[0].as_deref().unwrap(), true).await;
    app.submit(&g, 1, orders[1].as_deref().unwrap(), false).await;
    app.ctx.clock.advance(Duration::hours(36)); // the 12h reminder is due
    app.tick().await;
    let reminders: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "reminder").collect();
    let to: Vec<&str> = reminders.iter().map(|m| m.to_addr.as_str()).collect();
    assert_eq!(to, ["bert@example.org", "cleo@example.org", "dan@example.org"], "seat 1 is final");
    assert!(reminders[0].body_text.contains("EST"), "seat 2 reads New York time: {}", reminders[0].body_text);
    assert!(reminders[0].body_text.contains("not marked final"));
    assert!(reminders[1].body_text.contains("no orders on file"));
    assert!(reminders.iter().all(|m| m.calendar.as_deref().is_some_and(|c| c.contains("BEGIN:VEVENT"))));
    app.tick().await;
    let again = app.outbox().await.into_iter().filter(|m| m.kind == "reminder").count();
    assert_eq!(again, 3, "a reminder is sent once");
}

#[tokio::test]
async fn a_deadline_never_moves_earlier_unless_the_gm_forces_it() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let earlier = g.deadline - Duration::hours(24);
    let refused =
        lifecycle::change_deadline(&app.ctx, g.id, "gm@example.org", DeadlineChange::SetTo(earlier)).await;
    assert!(refused.unwrap_err().to_string().contains("earlier"), "never earlier than announced");
    assert_eq!(app.turn(g.id, 1).await.deadline, g.deadline, "a refused change changes nothing");
    let forced = DeadlineChange::Shorten { to: earlier, forced: true };
    assert_eq!(lifecycle::change_deadline(&app.ctx, g.id, "gm@example.org", forced).await.unwrap(), earlier);
    let t = app.turn(g.id, 1).await;
    assert_eq!((t.deadline, t.deadline_version), (earlier, 1));
    let notices = app.outbox().await.into_iter().filter(|m| m.kind == "deadline").count();
    assert_eq!(notices, 4, "every seat is told, with the calendar entry updated");
}

#[tokio::test]
async fn a_paused_game_closes_nothing_and_resuming_moves_the_deadline_by_the_pause() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    app.ctx.clock.advance(Duration::hours(10));
    lifecycle::pause_game(&app.ctx, g.id, "gm@example.org").await.unwrap();
    app.ctx.clock.advance(Duration::hours(72));
    assert_eq!(app.tick().await, 0, "no turn closes while paused");
    let orders = app.claim_orders(&g).await;
    app.submit(&g, 0, orders[0].as_deref().unwrap(), false).await; // past the old deadline: the clock stands
    let resumed = lifecycle::resume_game(&app.ctx, g.id, "gm@example.org").await.unwrap();
    assert_eq!(resumed, Some(g.deadline + Duration::hours(72)));
    assert_eq!(app.tick().await, 0);
    app.ctx.clock.advance(Duration::hours(38));
    assert_eq!(app.tick().await, 1, "the 38 hours left at the pause run out");
}

#[tokio::test]
async fn an_absence_of_an_acting_seat_moves_the_deadline_past_it_within_the_cap() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await; // deadline 2026-03-03 12:00 UTC
    let day = |d| NaiveDate::from_ymd_opt(2026, 3, d).unwrap();
    let too_long = lifecycle::add_absence(&app.ctx, g.id, Actor::Seat(2), 2, day(2), day(25)).await;
    assert!(too_long.unwrap_err().to_string().contains("at most 14 days"));
    let gm = Actor::Gm("gm@example.org");
    let moved = lifecycle::add_absence(&app.ctx, g.id, gm, 2, day(3), day(5)).await.unwrap();
    let lifecycle::AbsenceOutcome::Recorded(Some(moved)) = moved else {
        panic!("the deadline fell on an absent day: {moved:?}")
    };
    assert!(moved.date_naive() > day(5), "{moved}");
    assert_eq!(app.turn(g.id, 1).await.deadline, moved);
}

#[tokio::test]
async fn the_outage_guard_extends_deadlines_that_fell_in_the_gap_and_tells_the_players() {
    let (pool, _db) = test_db().await;
    let mut app = spawn_app(pool).await;
    std::sync::Arc::make_mut(&mut app.ctx.settings).outage_secs = 900;
    let g = app.create_game(Review::Gm).await;
    app.tick().await; // the heartbeat
    app.ctx.clock.advance(Duration::hours(50)); // the server was down over the deadline
    assert_eq!(app.tick().await, 0, "never adjudicated late without notice");
    let t = app.turn(g.id, 1).await;
    assert_eq!(t.deadline, g.deadline + Duration::hours(50));
    let notices: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "deadline").collect();
    assert_eq!(notices.len(), 4);
    assert!(notices[0].body_text.contains("not running"), "{}", notices[0].body_text);
    let log = stationmaster::service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    assert!(log.entries.iter().any(|e| e.action == "deadline extended after outage"));
}

#[tokio::test]
async fn a_player_sets_their_own_zone_and_a_bad_zone_changes_nothing() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let base = format!("/play/{}", g.seats[0].token.reveal());
    let bad = app.post_form(&format!("{base}/zone"), "zone=Europe%2FBerln", None).await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.body.contains("Europe/Berlin"), "the error suggests the right name: {}", bad.body);
    assert_eq!(app.seats(g.id).await[0].time_zone, None);
    let ok = app.post_form(&format!("{base}/zone"), "zone=Asia%2FTokyo", None).await;
    assert!(ok.status.is_redirection(), "{}", ok.body);
    assert_eq!(app.seats(g.id).await[0].time_zone.as_deref(), Some("Asia/Tokyo"));
    let page = app.get(&base).await;
    assert!(page.body.contains("21:00 JST"), "the deadline in the player's zone");
}

#[tokio::test]
async fn settings_for_a_seat_the_game_does_not_have_are_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let zone = lifecycle::set_player_zone(&app.ctx, g.id, stationmaster::engine::Seat(9), Some("UTC")).await;
    assert!(zone.unwrap_err().to_string().contains("no seat 9"));
    let text = stationmaster::orders::OrderText::from_bytes(b"DRAW").unwrap();
    let standing =
        lifecycle::set_standing_orders(&app.ctx, g.id, stationmaster::engine::Seat(9), &text).await;
    assert!(standing.unwrap_err().to_string().contains("no seat 9"));
}
