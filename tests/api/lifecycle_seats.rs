//! Issue #3, seats and review: the NMR ladder (HR 12–13), replacement, holding a turn for the
//! GM, orders entered by the GM, rollback and re-run, the audit chain, and restart safety.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use axum::http::StatusCode;
use chrono::Duration;
use stationmaster::domain::Mailbox;
use stationmaster::engine::Seat;
use stationmaster::orders::OrderText;
use stationmaster::service::policy::NmrPolicy;
use stationmaster::service::{self, CloseOutcome, CreatedGame, GameClock, Review, Source, lifecycle};

/// Lets every turn run out with only seat 1 ordering (its claim in turn 1), `turns` times.
async fn run_turns_without_seat_2(app: &TestApp, g: &CreatedGame, turns: usize) {
    let orders = app.claim_orders(g).await;
    for _ in 0..turns {
        let n = app.turn(g.id, current(app, g).await).await;
        if n.number == 1 {
            app.submit(g, 0, orders[0].as_deref().unwrap(), false).await;
        }
        app.ctx.clock.advance(Duration::hours(49));
        app.tick().await;
    }
}

async fn current(app: &TestApp, g: &CreatedGame) -> i32 {
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    stationmaster::store::games::get_game(&mut conn, g.id).await.unwrap().unwrap().current_turn
}

#[tokio::test]
async fn house_rule_13_flags_a_seat_at_its_second_nmr_and_tells_the_gm_and_the_table() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    run_turns_without_seat_2(&app, &g, 1).await;
    assert!(app.seats(g.id).await[1].flagged_at.is_none(), "the first NMR only counts");
    run_turns_without_seat_2(&app, &g, 1).await;
    let seat2 = &app.seats(g.id).await[1];
    assert_eq!(seat2.nmr_count, 2);
    assert!(seat2.flagged_at.is_some());
    let mail = app.outbox().await;
    assert!(
        mail.iter().any(|m| m.kind == "gm-alert" && m.subject.contains("seat 2 flagged for replacement"))
    );
    let table = mail
        .iter()
        .filter(|m| m.kind == "notice" && m.subject.contains("Seat 2 needs a replacement"))
        .count();
    assert_eq!(table, 4);
}

#[tokio::test]
async fn a_replacement_gets_a_fresh_secret_the_history_and_a_clean_nmr_count() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    run_turns_without_seat_2(&app, &g, 2).await;
    let new = Mailbox::parse("Erin <erin@example.org>").unwrap();
    let r = lifecycle::replace_player(&app.ctx, g.id, "gm@example.org", 2, &new).await.unwrap();
    let old = app
        .get_with(
            &format!("/api/v1/games/{}", g.id),
            "authorization",
            &format!("Bearer {}", g.seats[1].token.reveal()),
        )
        .await;
    assert!(old.status.is_client_error(), "the old secret stops working at once");
    let token = r.link.rsplit('/').next().unwrap();
    assert_eq!(
        app.get_with(&format!("/api/v1/games/{}", g.id), "authorization", &format!("Bearer {token}"))
            .await
            .status,
        200
    );
    let seat2 = &app.seats(g.id).await[1];
    assert_eq!((seat2.email.as_str(), seat2.nmr_count, seat2.flagged_at), ("erin@example.org", 0, None));
    let welcome = app.outbox().await.into_iter().find(|m| m.to_addr == "erin@example.org").unwrap();
    assert!(
        welcome.body_text.contains("==== ") && welcome.body_text.contains("Turn 2"),
        "the seat's reports"
    );
    assert!(welcome.body_text.contains(&r.link));
}

fn strict() -> GameClock {
    GameClock { nmr_policy: NmrPolicy::STRICT, ..GameClock::default() }
}

#[tokio::test]
async fn a_wait_for_gm_policy_holds_the_turn_until_the_gm_enters_the_missing_orders() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game_with(Review::Gm, strict()).await;
    let orders = app.claim_orders(&g).await;
    for (i, o) in orders.iter().enumerate().take(3) {
        app.submit(&g, i, o.as_deref().unwrap(), false).await;
    }
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let t = app.turn(g.id, 1).await;
    assert_eq!((t.status.as_str(), t.held_reason.as_deref()), ("open", Some("no orders from seat(s) 4")));
    assert!(app.outbox().await.iter().any(|m| m.kind == "gm-alert" && m.subject.contains("waiting for you")));
    // The GM enters seat 4's orders (received by phone); a copy goes to the player.
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let who = service::seat_by_number(&mut conn, g.id, 4).await.unwrap();
    drop(conn);
    let text = OrderText::from_bytes(orders[3].as_deref().unwrap().as_bytes()).unwrap();
    service::submit_orders(&app.ctx, &who, &text, Source::GmAsSeat, true).await.unwrap();
    let copy = app.outbox().await.into_iter().find(|m| m.kind == "gm-orders").unwrap();
    assert_eq!(copy.to_addr, "dan@example.org");
    assert!(copy.body_text.contains(orders[3].as_deref().unwrap()));
    let out = service::close_turn(&app.ctx, g.id).await.unwrap();
    assert!(matches!(out, CloseOutcome::Drafted { .. }), "{out:?}");
}

#[tokio::test]
async fn house_rule_12_standing_orders_stand_in_for_missing_orders_and_still_count() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let orders = app.claim_orders(&g).await;
    let standing = OrderText::from_bytes(orders[1].as_deref().unwrap().as_bytes()).unwrap();
    lifecycle::set_standing_orders(&app.ctx, g.id, Seat(2), &standing).await.unwrap();
    app.submit(&g, 0, orders[0].as_deref().unwrap(), false).await;
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let t = app.turn(g.id, 1).await;
    let draft: stationmaster::registry::TurnOutcome = t.draft.unwrap().0;
    let notes = &draft.notes[&Seat(2)];
    assert!(notes[0].note.contains("standing orders were used"), "{notes:?}");
    assert!(notes.iter().any(|n| n.executed && n.line > 0), "the standing claim was carried out: {notes:?}");
    assert_eq!(app.seats(g.id).await[1].nmr_count, 1, "HR 12: it still counts as an NMR");
}

#[tokio::test]
async fn a_rollback_and_rerun_reproduce_the_same_result() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let orders = app.claim_orders(&g).await;
    for (i, o) in orders.iter().enumerate() {
        app.submit(&g, i, o.as_deref().unwrap(), false).await;
    }
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let first = app.turn(g.id, 1).await.draft.unwrap();
    assert_eq!(current(&app, &g).await, 2);
    let r = service::rollback::rollback(&app.ctx, g.id, "gm@example.org", 1, true).await.unwrap();
    assert_eq!((r.turn, r.turns_undone), (1, 2));
    assert_eq!(current(&app, &g).await, 1);
    let t = app.turn(g.id, 1).await;
    assert_eq!((t.status.as_str(), t.reopened), ("open", 1));
    assert_eq!(app.tick().await, 0, "a rolled-back turn waits for the GM");
    service::close_turn(&app.ctx, g.id).await.unwrap();
    assert_eq!(app.turn(g.id, 1).await.draft.unwrap().0.state, first.0.state, "same orders, same result");
    let reports = app.outbox().await.into_iter().filter(|m| m.kind == "report").count();
    assert_eq!(reports, 8, "the re-published turn mails its reports again");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let archived: i64 =
        sqlx::query_scalar("SELECT jsonb_array_length(archive->'actions')::bigint FROM rollbacks")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
    assert_eq!(archived, 4, "the undone actions are kept in the archive");
}

#[tokio::test]
async fn the_audit_log_chains_every_change_and_shows_tampering() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    lifecycle::change_deadline(
        &app.ctx,
        g.id,
        "gm@example.org",
        stationmaster::schedule::DeadlineChange::Extend(Duration::hours(24)),
    )
    .await
    .unwrap();
    service::close_turn(&app.ctx, g.id).await.unwrap();
    service::publish_turn(&app.ctx, g.id, "gm@example.org").await.unwrap();
    let log = service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    let actions: Vec<&str> = log.entries.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        ["game created", "deadline changed", "turn adjudicated", "turn closed", "turn published"]
    );
    assert!(log.intact);
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let refused =
        sqlx::query("UPDATE audit_log SET actor = 'server' WHERE seq = 2").execute(&mut *conn).await;
    assert!(refused.is_err(), "the table refuses updates");
    sqlx::query("ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change")
        .execute(&mut *conn)
        .await
        .unwrap();
    sqlx::query("UPDATE audit_log SET detail = '{\"turn\":1}' WHERE seq = 2")
        .execute(&mut *conn)
        .await
        .unwrap();
    let log = service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    assert_eq!(log.first_break.map(|b| b.seq), Some(2));
}

#[tokio::test]
async fn a_server_killed_after_claiming_a_turn_leaves_it_to_be_adjudicated_exactly_once() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    app.create_game(Review::Auto).await;
    app.ctx.clock.advance(Duration::hours(49));
    // A "server" claims the due turn and dies before committing.
    let mut dying = pool.acquire().await.unwrap();
    let pid: i32 = sqlx::query_scalar("SELECT pg_backend_pid()").fetch_one(&mut *dying).await.unwrap();
    sqlx::query("BEGIN").execute(&mut *dying).await.unwrap();
    let due = stationmaster::store::turns::due_candidates(&mut dying, app.ctx.now(), 10).await.unwrap();
    assert_eq!(due.len(), 1);
    let claimed =
        stationmaster::store::turns::claim_due_turn(&mut dying, due[0].game_id, due[0].number, app.ctx.now())
            .await;
    assert_eq!(claimed.unwrap().as_deref(), Some("deadline"));
    assert_eq!(app.tick().await, 0, "a claimed turn is skipped by the other server");
    let mut killer = pool.acquire().await.unwrap();
    sqlx::query("SELECT pg_terminate_backend($1)").bind(pid).execute(&mut *killer).await.unwrap();
    drop(dying);
    // The restarted scheduler (two passes at once) adjudicates it once.
    let (a, b) =
        tokio::join!(stationmaster::scheduler::tick(&app.ctx), stationmaster::scheduler::tick(&app.ctx));
    assert_eq!(a.unwrap() + b.unwrap(), 1);
    assert_eq!(app.tick().await, 0);
    let reports: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "report").collect();
    assert_eq!(reports.len(), 4, "each report queued exactly once");
    let mut conn = pool.acquire().await.unwrap();
    let actions: i64 =
        sqlx::query_scalar("SELECT count(*) FROM actions").fetch_one(&mut *conn).await.unwrap();
    assert_eq!(actions, 4, "the turn's actions were logged once");
}

#[tokio::test]
async fn the_gm_is_mailed_a_preview_of_the_draft_with_each_line_read_and_the_changes() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let orders = app.claim_orders(&g).await;
    app.submit(&g, 0, orders[0].as_deref().unwrap(), false).await;
    service::close_turn(&app.ctx, g.id).await.unwrap();
    let preview = app
        .outbox()
        .await
        .into_iter()
        .find(|m| m.to_addr == "gm@example.org" && m.kind == "gm-alert")
        .unwrap();
    assert!(preview.subject.contains("draft ready for review"));
    let body = &preview.body_text;
    assert!(body.contains("Seat 1 (Anna)") && body.contains("line 1: carried out"), "{body}");
    assert!(body.contains("Seat 2 (Bert) — NMR"), "{body}");
    assert!(body.contains("What changed on the table") && body.contains("\n  + "), "{body}");
    let page = app.get(&format!("/gm/games/{}", g.id)).await;
    assert!(page.status.is_redirection(), "the dashboard needs a GM session");
}

#[tokio::test]
async fn a_gm_correction_is_logged_replayed_and_refused_when_it_breaks_the_state() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let bad = service::correct_state(
        &app.ctx,
        g.id,
        "gm@example.org",
        &serde_json::json!({"to_move": "nobody"}),
        "fix",
    )
    .await;
    assert!(bad.unwrap_err().to_string().contains("does not fit the game"));
    let before = app.turn(g.id, 1).await;
    assert_eq!(before.first_seq, 0, "a refused correction changes nothing");
    let patch = serde_json::json!({"turns_done": 7});
    service::correct_state(&app.ctx, g.id, "gm@example.org", &patch, "turn count was off").await.unwrap();
    let t = app.turn(g.id, 1).await;
    assert_eq!((t.first_seq, t.start_state["turns_done"].as_u64()), (1, Some(7)));
    assert!(
        app.outbox().await.iter().any(|m| m.kind == "notice" && m.body_text.contains("turn count was off"))
    );
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let export = service::export_game(&mut conn, g.id).await.unwrap();
    assert_eq!(export.actions[0].seat, stationmaster::engine::GM_SEAT);
    let engine = stationmaster::registry::find("railroaded").unwrap();
    let replayed = engine.replay(&export.setup, export.seed, &export.actions).unwrap();
    let game = stationmaster::store::games::get_game(&mut conn, g.id).await.unwrap().unwrap();
    assert_eq!(replayed, game.state, "replay applies the correction where it was made");
}

#[tokio::test]
async fn house_rule_15_an_adjudicated_result_stands_until_published() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    service::close_turn(&app.ctx, g.id).await.unwrap();
    let patch = serde_json::json!({"turns_done": 7});
    let refused = service::correct_state(&app.ctx, g.id, "gm@example.org", &patch, "too late").await;
    assert!(refused.unwrap_err().to_string().contains("HR 15"));
}

#[tokio::test]
async fn gm_questions_answered_with_the_rules_default_reproduce_the_default_play() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let asked = app
        .create_game_with(Review::Gm, GameClock { nmr_policy: NmrPolicy::GM_DECIDES, ..GameClock::default() })
        .await;
    let plain = app.create_game(Review::Gm).await;
    for g in [&asked, &plain] {
        let orders = app.claim_orders(g).await;
        app.submit(g, 0, orders[0].as_deref().unwrap(), false).await;
    }
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let t = app.turn(asked.id, 1).await;
    assert_eq!(t.status.as_str(), "open", "the turn waits on the GM");
    assert!(t.held_reason.as_deref().is_some_and(|r| r.contains("seat 2")), "{:?}", t.held_reason);
    assert!(app.outbox().await.iter().any(|m| m.subject.contains("a decision for you (seat 2)")));
    assert!(service::questions::answer_question(&app.ctx, asked.id, "gm@example.org", 99).await.is_err());
    let mut questions = 0;
    loop {
        match service::questions::answer_question(&app.ctx, asked.id, "gm@example.org", 1).await.unwrap() {
            CloseOutcome::Asked { question, .. } => {
                assert!(!question.candidates.is_empty());
                questions += 1;
            }
            CloseOutcome::Drafted { .. } => break,
            other => panic!("unexpected {other:?}"),
        }
        assert!(questions < 50, "the questions end");
    }
    let (a, p) = (app.turn(asked.id, 1).await, app.turn(plain.id, 1).await);
    assert_eq!(a.draft.unwrap().0.state, p.draft.unwrap().0.state);
    let log = service::audit::audit_log(&app.ctx, asked.id).await.unwrap();
    assert!(log.entries.iter().filter(|e| e.action == "question answered").count() >= 3);
}

#[tokio::test]
async fn a_draft_the_gm_leaves_alone_is_released_after_the_auto_release_time() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let clock = GameClock { auto_release: Some(Duration::hours(24)), ..GameClock::default() };
    let g = app.create_game_with(Review::Gm, clock).await;
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "draft");
    app.ctx.clock.advance(Duration::hours(23));
    app.tick().await;
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "draft", "the GM still has an hour");
    app.ctx.clock.advance(Duration::hours(1));
    app.tick().await;
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "published");
    assert_eq!(app.outbox().await.iter().filter(|m| m.kind == "report").count(), 4);
    let log = service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    assert!(log.entries.iter().any(|e| e.action == "draft auto-released"));
}

#[tokio::test]
async fn a_players_own_absence_waits_for_the_gms_approval_before_it_moves_the_deadline() {
    let (pool, _db) = test_db().await;
    use lifecycle::AbsenceOutcome;
    use service::audit::Actor;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await; // deadline 2026-03-03 12:00 UTC; approval by default
    let page = app.get(&format!("/play/{}", g.seats[1].token.reveal())).await;
    assert!(page.body.contains("once the GM approves"), "the player is told: {}", page.body);
    let day = |d| chrono::NaiveDate::from_ymd_opt(2026, 3, d).unwrap();
    let asked = lifecycle::add_absence(&app.ctx, g.id, Actor::Seat(2), 2, day(3), day(5)).await.unwrap();
    assert_eq!(asked, AbsenceOutcome::AwaitsApproval);
    assert_eq!(app.turn(g.id, 1).await.deadline, g.deadline, "nothing moves without the GM");
    let mails = app.outbox().await;
    assert!(mails.iter().all(|m| m.kind != "deadline"), "the table is told nothing yet");
    let alert = mails.iter().find(|m| m.kind == "gm-alert").expect("the GM is asked");
    assert_eq!(alert.to_addr, "gm@example.org");
    assert!(alert.body_text.contains("seat 2 asks to be away"), "{}", alert.body_text);

    let moved = lifecycle::approve_absences(&app.ctx, g.id, "gm@example.org", 2).await.unwrap();
    let moved = moved.expect("the deadline fell on an absent day");
    assert!(moved.date_naive() > day(5), "{moved}");
    assert_eq!(app.turn(g.id, 1).await.deadline, moved);
    assert_eq!(app.outbox().await.iter().filter(|m| m.kind == "deadline").count(), 4);
    let log = service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    let approved = log.entries.iter().find(|e| e.action == "absence approved").expect("logged");
    assert_eq!(approved.actor, "gm:gm@example.org");
    let again = lifecycle::approve_absences(&app.ctx, g.id, "gm@example.org", 2).await.unwrap_err();
    assert!(again.to_string().contains("no absence waiting"), "{again}");
}

#[tokio::test]
async fn the_gm_sees_an_absence_request_on_the_dashboard_and_approves_it_there() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await; // deadline 2026-03-03 12:00 UTC; approval by default
    let day = |d| chrono::NaiveDate::from_ymd_opt(2026, 3, d).unwrap();
    let seat = service::audit::Actor::Seat(2);
    lifecycle::add_absence(&app.ctx, g.id, seat, 2, day(3), day(5)).await.unwrap();
    let cookie = app.gm_cookie("gm@example.org").await;
    let dashboard = format!("/gm/games/{}", g.id);
    let page = app.get_with(&dashboard, "cookie", &cookie).await;
    assert!(page.body.contains("Absences waiting for your approval"), "{}", page.body);
    assert!(page.body.contains("2026-03-03") && page.body.contains("2026-03-05"), "{}", page.body);
    let approve = format!("/gm/games/{}/absences/approve", g.id);
    let stranger = app.gm_cookie("other@example.org").await;
    let r = app.post_form(&approve, "seat=2", Some(&stranger)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "only the game's GM approves");
    assert_eq!(app.turn(g.id, 1).await.deadline, g.deadline);
    let r = app.post_form(&approve, "seat=2", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert!(app.turn(g.id, 1).await.deadline.date_naive() > day(5), "the deadline moved past the absence");
    let page = app.get_with(&dashboard, "cookie", &cookie).await;
    assert!(!page.body.contains("Absences waiting for your approval"), "{}", page.body);
}

#[tokio::test]
async fn without_approval_a_players_own_absence_moves_the_deadline_at_once() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let clock = GameClock { absence_approval: false, ..GameClock::default() };
    let g = app.create_game_with(Review::Gm, clock).await;
    let day = |d| chrono::NaiveDate::from_ymd_opt(2026, 3, d).unwrap();
    let seat = service::audit::Actor::Seat(2);
    let done = lifecycle::add_absence(&app.ctx, g.id, seat, 2, day(3), day(5)).await.unwrap();
    let lifecycle::AbsenceOutcome::Recorded(Some(moved)) = done else { panic!("moved at once: {done:?}") };
    let page = app.get(&format!("/play/{}", g.seats[1].token.reveal())).await;
    assert!(!page.body.contains("once the GM approves"), "{}", page.body);
    assert_eq!(app.turn(g.id, 1).await.deadline, moved);
}
