//! The GM's questions of issue 15 through the server: an HR 14 checkpoint answered on the
//! dashboard (stored as a checkpoint answer, the turn adjudicated again and published), and the
//! game's setting for the rules' referrals (RULINGS S18–S20).

use crate::db::test_db;
use crate::helpers::{TestApp, create_game_on, spawn_app};
use axum::http::StatusCode;
use stationmaster::engine::Seat;
use stationmaster::engine::outcome::{Checkpoint, GmQuestion, QuestionKind};
use stationmaster::schedule::GameClock;
use stationmaster::service::{self, CreatedGame, Review};
use stationmaster::store;

/// A four-player 1835 game (PBEM preset: two rounds a turn) with the start packet ordered.
async fn packet_game(app: &TestApp) -> CreatedGame {
    let g = create_game_on(&app.ctx, "1835", serde_json::json!({}), Review::Gm, GameClock::default()).await;
    let orders = [
        "BUY NF\nBUY BY\nBUY OBB",
        "BUY LD\nBUY M4\nBUY M5",
        "BUY M2\nBUY M3\nBUY PFB",
        "BUY M1\nBUY BB\nBUY HB\nBUY M6",
    ];
    for (i, text) in orders.iter().enumerate() {
        app.submit(&g, i, text, true).await;
    }
    g
}

/// Parks turn 1 on the checkpoint question the adjudicator asks when a seat's orders no longer
/// fit after a round (what `Orders::misfit` reports; 1835's own comes with its order language).
async fn park_on_checkpoint(app: &TestApp, g: &CreatedGame) -> GmQuestion {
    let q = GmQuestion {
        number: 0,
        seat: Seat(3),
        prompt: "HR 14: round 1 of this turn is over and these orders no longer fit the position — \
                 seat 3: the Prussian formed. Go on with the next round, or stop after this one?"
            .into(),
        kind: QuestionKind::Checkpoint,
        candidates: Checkpoint::candidates(),
    };
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let why = "a round ended and the turn goes on only if you say so";
    store::turns::set_question(&mut conn, g.id, 1, Some((&q, app.ctx.now(), why))).await.unwrap();
    q
}

#[tokio::test]
async fn a_gm_answers_a_checkpoint_on_the_dashboard_and_the_turn_publishes() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = packet_game(&app).await;
    park_on_checkpoint(&app, &g).await;
    let cookie = app.gm_cookie("gm@example.org").await;
    let page = app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("the turn goes on only if you say so"), "{}", page.body);
    assert!(page.body.contains("stop after this round"), "{}", page.body);
    assert!(page.body.contains("Answer and go on"));

    let r = app.post_form(&format!("/gm/games/{}/answer", g.id), "choice=2", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let t = app.turn(g.id, 1).await;
    assert_eq!(t.gm_answers.0, vec![Checkpoint::Stop.to_answer()], "stored as a checkpoint answer");
    assert!(t.question.is_none());
    assert_eq!(t.status.as_str(), "draft", "adjudicated again: {:?}", t.failure);

    let r = app.post_form(&format!("/gm/games/{}/publish", g.id), "", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "published");
    assert_eq!(app.turn(g.id, 2).await.status.as_str(), "open");
    let log = service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    assert!(log.entries.iter().any(|e| e.action == "question answered"));
}

#[tokio::test]
async fn a_checkpoint_answer_out_of_range_is_refused_and_changes_nothing() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = packet_game(&app).await;
    park_on_checkpoint(&app, &g).await;
    let refused = service::questions::answer_question(&app.ctx, g.id, "gm@example.org", 3).await;
    assert!(refused.unwrap_err().to_string().contains("choose one of the moves 1 to 2"));
    let t = app.turn(g.id, 1).await;
    assert!(t.gm_answers.0.is_empty());
    assert!(t.question.is_some_and(|q| q.0.kind == QuestionKind::Checkpoint));
}

#[tokio::test]
async fn rulings_s18_the_gm_chooses_on_the_dashboard_whether_referrals_are_asked() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = packet_game(&app).await;
    let game = |app: &TestApp| {
        let pool = app.ctx.pool.clone();
        async move {
            let mut conn = pool.acquire().await.unwrap();
            store::games::get_game(&mut conn, g.id).await.unwrap().unwrap()
        }
    };
    assert!(game(&app).await.gm_referrals, "asked by default");
    let cookie = app.gm_cookie("gm@example.org").await;
    let page = app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await;
    assert!(page.body.contains("Play the best-ranked choice instead"), "{}", page.body);
    let r = app.post_form(&format!("/gm/games/{}/referrals", g.id), "ask=first", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert!(!game(&app).await.gm_referrals);
    let r = app.post_form(&format!("/gm/games/{}/referrals", g.id), "ask=maybe", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(!game(&app).await.gm_referrals, "a bad answer changes nothing");
    let log = service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    assert_eq!(log.entries.iter().filter(|e| e.action == "referrals setting changed").count(), 1);
}

/// The GM's mail to `to` with `body`, through the ingest path; returns (status, outcome) and the
/// answer mailed back to the GM.
async fn gm_mail(app: &TestApp, from: &str, to: &str, body: &str) -> (String, String, String) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let raw = format!(
        "From: GM <{from}>\r\nTo: {to}\r\nSubject: Re: a decision\r\nMessage-ID: <gm-{n}@mail.example.org>\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    );
    let before = app.outbox().await.len();
    let (status, outcome, _) = crate::inbound::deliver(app, raw.as_bytes()).await;
    let answer = app.outbox().await.into_iter().skip(before).find(|m| m.subject.ends_with("Your answer"));
    (status, outcome, answer.map(|m| m.body_text).unwrap_or_default())
}

#[tokio::test]
async fn the_gm_answers_a_question_by_replying_to_its_mail_and_bad_answers_change_nothing() {
    let (pool, _db) = test_db().await;
    use stationmaster::domain::NmrPolicy;
    let app = spawn_app(pool).await;
    let clock = GameClock { nmr_policy: NmrPolicy::GM_DECIDES, ..GameClock::default() };
    let g = app.create_game_with(Review::Gm, clock).await;
    let orders = app.claim_orders(&g).await;
    app.submit(&g, 0, orders[0].as_deref().unwrap(), false).await;
    app.ctx.clock.advance(chrono::Duration::hours(49));
    app.tick().await;
    let mails = app.outbox().await;
    let asked = mails.iter().find(|m| m.subject.contains("a decision for you (seat 2)")).expect("asked");
    let to = asked.reply_to.clone().expect("the question mail carries the GM's reply address");
    assert!(asked.body_text.contains("ANSWER 1 "), "{}", asked.body_text);
    let unchanged = |t: &store::turns::TurnRow| t.gm_answers.0.is_empty() && t.question.is_some();

    let (status, _, _) = gm_mail(&app, "anna@example.org", &to, "ANSWER 1 1").await;
    assert_eq!(status, "rejected", "only the GM's own address");
    let (status, _, told) = gm_mail(&app, "gm@example.org", &to, "ANSWER 1 999").await;
    assert_eq!(status, "rejected");
    assert!(told.contains("choose one of the moves 1 to") && told.contains("Nothing was changed"), "{told}");
    let (_, _, told) = gm_mail(&app, "gm@example.org", &to, "ANSWER 2 1").await;
    assert!(told.contains("question 2 of turn 1 is not the one waiting for you"), "{told}");
    let (_, _, told) = gm_mail(&app, "gm@example.org", &to, "ANSWER 1 STOP").await;
    assert!(told.contains("CONTINUE and STOP answer a round's checkpoint"), "{told}");
    let (_, _, told) = gm_mail(&app, "gm@example.org", &to, "take the first").await;
    assert!(told.contains("is not understood"), "{told}");
    let forged = to.replacen('.', ".x", 1);
    let (status, outcome, _) = gm_mail(&app, "gm@example.org", &forged, "ANSWER 1 1").await;
    assert_eq!(status, "rejected", "{outcome}");
    assert!(unchanged(&app.turn(g.id, 1).await), "no refused answer changed anything");

    let (status, outcome, told) = gm_mail(&app, "gm@example.org", &to, "ANSWER 1 1\n-- \nThe GM").await;
    assert_eq!(status, "accepted", "{outcome} {told}");
    assert!(told.contains("Question 1 is answered"), "{told}");
    let t = app.turn(g.id, 1).await;
    assert_eq!(t.gm_answers.0.len(), 1, "stored as the dashboard stores it");
    let log = service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    assert!(log.entries.iter().any(|e| e.action == "question answered" && e.actor == "gm:gm@example.org"));
}

#[tokio::test]
async fn the_gm_stops_a_turn_at_its_checkpoint_by_mail() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = packet_game(&app).await;
    park_on_checkpoint(&app, &g).await;
    let to = service::turn::gm_address::gm_reply_address(&app.ctx, g.id, "gm@example.org");
    let (status, outcome, told) = gm_mail(&app, "gm@example.org", &to, "answer 1 stop").await;
    assert_eq!(status, "accepted", "{outcome} {told}");
    assert!(told.contains("stopped after this round") && !told.contains("went on"), "{told}");
    assert!(told.contains("the draft waits for your review"), "{told}");
    let t = app.turn(g.id, 1).await;
    assert_eq!(t.gm_answers.0, vec![Checkpoint::Stop.to_answer()]);
    assert_eq!(t.status.as_str(), "draft", "adjudicated again: {:?}", t.failure);
}

#[tokio::test]
async fn turn_answer_says_whether_the_turn_stopped_after_the_round_or_went_on() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = packet_game(&app).await;
    park_on_checkpoint(&app, &g).await;
    let (out, said) =
        service::questions::answer_question_saying(&app.ctx, g.id, "gm@example.org", 1).await.unwrap();
    assert!(said.contains("Turn 1 went on") && !said.contains("stopped"), "{said}");
    assert!(matches!(out, service::CloseOutcome::Drafted { .. }), "{out:?}");

    let g = packet_game(&app).await;
    park_on_checkpoint(&app, &g).await;
    let (_, said) =
        service::questions::answer_question_saying(&app.ctx, g.id, "gm@example.org", 2).await.unwrap();
    assert!(said.contains("Turn 1 stopped after this round") && !said.contains("went on"), "{said}");
}
