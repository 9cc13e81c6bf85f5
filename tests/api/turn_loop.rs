//! The turn loop: sealed orders → adjudication (deadline, all final, or GM) → draft → publish →
//! next turn and reports in the outbox; replay reproduces the published state.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use axum::http::StatusCode;
use chrono::Duration;
use stationmaster::domain::GameId;
use stationmaster::registry;
use stationmaster::service::{self, CloseOutcome, CreatedGame, Review};
use stationmaster::store;

async fn submit_claims(app: &TestApp, g: &CreatedGame, final_: bool) -> Vec<Option<String>> {
    let orders = app.claim_orders(g).await;
    for (s, o) in g.seats.iter().zip(&orders) {
        if let Some(o) = o {
            let q = if final_ { "?final=true" } else { "" };
            let req = axum::http::Request::post(format!("/api/v1/games/{}/orders{q}", g.id))
                .header("authorization", format!("Bearer {}", s.token.reveal()))
                .body(axum::body::Body::from(o.clone()))
                .unwrap();
            let r = app.send(req).await;
            assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        }
    }
    orders
}

async fn game_row(app: &TestApp, id: GameId) -> store::games::GameRow {
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    store::games::get_game(&mut conn, id).await.unwrap().unwrap()
}

async fn turn_row(app: &TestApp, id: GameId, n: i32) -> store::turns::TurnRow {
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    store::turns::get_turn(&mut conn, id, n).await.unwrap().unwrap()
}

#[tokio::test]
async fn when_every_seat_is_final_the_first_pass_after_the_cooling_off_closes_the_turn() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let orders = submit_claims(&app, &g, true).await;
    assert!(orders.iter().all(Option::is_some), "seed 7 lets every seat claim from hand");
    assert_eq!(stationmaster::scheduler::tick(&app.ctx).await.unwrap(), 0, "the cooling-off delay runs");
    app.ctx.clock.advance(Duration::minutes(30));
    let closed = stationmaster::scheduler::tick(&app.ctx).await.unwrap();
    assert_eq!(closed, 1);
    let t = turn_row(&app, g.id, 1).await;
    assert_eq!(t.status.as_str(), "draft");
    assert_eq!(t.close_reason.as_deref(), Some("closed: all orders final"));
    let draft: stationmaster::registry::TurnOutcome = t.draft.unwrap().0;
    assert!(draft.nmr.is_empty(), "every seat gave usable orders: {:?}", draft.notes);
    assert_eq!(draft.actions.len(), 4);
    assert!(app.outbox().await.iter().any(|m| m.kind == "gm-alert" && m.to_addr == "gm@example.org"));
}

#[tokio::test]
async fn a_turn_with_orders_not_final_waits_for_its_deadline() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    submit_claims(&app, &g, false).await;
    assert_eq!(stationmaster::scheduler::tick(&app.ctx).await.unwrap(), 0);
    app.ctx.clock.advance(Duration::hours(48));
    assert_eq!(stationmaster::scheduler::tick(&app.ctx).await.unwrap(), 1);
    assert_eq!(turn_row(&app, g.id, 1).await.close_reason.as_deref(), Some("closed: deadline"));
}

#[tokio::test]
async fn a_seat_without_orders_gets_the_default_and_an_nmr() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    // Only seat 1 orders.
    let orders = app.claim_orders(&g).await;
    let r = app.post_orders(&g.id, g.seats[0].token.reveal(), orders[0].clone().unwrap()).await;
    assert_eq!(r.status, StatusCode::CREATED);
    app.ctx.clock.advance(Duration::hours(48));
    stationmaster::scheduler::tick(&app.ctx).await.unwrap();
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let seats = store::games::seats(&mut conn, g.id).await.unwrap();
    let nmr: Vec<i32> = seats.iter().map(|s| s.nmr_count).collect();
    assert_eq!(nmr, vec![0, 1, 1, 1]);
    let game = game_row(&app, g.id).await;
    assert_eq!(game.current_turn, 2, "the game went on with the defaults");
}

#[tokio::test]
async fn with_gm_review_the_draft_waits_and_publishing_opens_the_next_turn() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    submit_claims(&app, &g, false).await;
    let out = service::close_turn(&app.ctx, g.id).await.unwrap();
    assert_eq!(out, CloseOutcome::Drafted { game: g.id, turn: 1 });
    assert_eq!(game_row(&app, g.id).await.current_turn, 1, "nothing public changes before publication");
    assert!(!app.outbox().await.iter().any(|m| m.kind == "report"));

    assert_eq!(service::publish_turn(&app.ctx, g.id, "gm@example.org").await.unwrap(), 1);
    let game = game_row(&app, g.id).await;
    assert_eq!((game.current_turn, game.next_seq), (2, 4));
    let t2 = turn_row(&app, g.id, 2).await;
    assert_eq!(t2.status.as_str(), "open");
    assert_eq!(t2.deadline, app.ctx.now() + Duration::hours(48));
    let reports: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "report").collect();
    assert_eq!(reports.len(), 4);
    let again = service::publish_turn(&app.ctx, g.id, "gm@example.org").await;
    assert!(again.is_err(), "a turn is published once");
}

#[tokio::test]
async fn with_auto_review_the_turn_publishes_itself() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    submit_claims(&app, &g, true).await;
    app.ctx.clock.advance(Duration::minutes(30)); // the cooling-off delay
    stationmaster::scheduler::tick(&app.ctx).await.unwrap();
    assert_eq!(turn_row(&app, g.id, 1).await.status.as_str(), "published");
    assert_eq!(game_row(&app, g.id).await.current_turn, 2);
}

#[tokio::test]
async fn replaying_the_log_of_a_published_game_reproduces_its_state() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    submit_claims(&app, &g, true).await;
    app.ctx.clock.advance(Duration::minutes(30)); // the cooling-off delay
    stationmaster::scheduler::tick(&app.ctx).await.unwrap();
    for _ in 0..3 {
        // Rounds of play on defaults: nobody orders, the deadline passes.
        app.ctx.clock.advance(Duration::hours(48));
        stationmaster::scheduler::tick(&app.ctx).await.unwrap();
    }
    let game = game_row(&app, g.id).await;
    assert_eq!(game.current_turn, 5);
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let export = service::export_game(&mut conn, g.id).await.unwrap();
    assert_eq!(export.actions.len() as i64, game.next_seq);
    let engine = registry::find(&export.engine).unwrap();
    let replayed = engine.replay(&export.setup, export.seed, &export.actions).unwrap();
    assert_eq!(replayed, game.state);
}

#[tokio::test]
async fn two_schedulers_adjudicate_a_due_turn_exactly_once() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let mut games = Vec::new();
    for _ in 0..6 {
        games.push(app.create_game(Review::Auto).await);
    }
    app.ctx.clock.advance(Duration::hours(48));
    let (a, b) =
        tokio::join!(stationmaster::scheduler::tick(&app.ctx), stationmaster::scheduler::tick(&app.ctx));
    assert_eq!(a.unwrap() + b.unwrap(), 6);
    for g in &games {
        assert_eq!(game_row(&app, g.id).await.current_turn, 2);
    }
    let reports = app.outbox().await.into_iter().filter(|m| m.kind == "report").count();
    assert_eq!(reports, 24, "4 reports per game, none twice");
}

#[tokio::test]
async fn the_web_form_takes_orders_and_shows_the_echo() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let token = g.seats[0].token.reveal();
    let orders = app.claim_orders(&g).await;
    let form = format!("orders={}&final=1", orders[0].clone().unwrap().replace(' ', "+"));
    let r = app.post_form(&format!("/play/{token}/orders"), &form, None).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = app.get(&format!("/play/{token}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Version 1") && page.body.contains("(final)"), "{}", page.body);
    assert!(page.body.contains(&orders[0].clone().unwrap()), "the echo shows the order as understood");
}
