//! Benchmark (issue #3): 10,000 games whose deadlines fall in the same minute — the time until
//! every one is adjudicated and its reports are queued. Target: under 60 s on the 2-core machine.
//!
//! Against a real Postgres (DATABASE_URL's server, default 127.0.0.1:5432): creates a scratch
//! database, creates the games through the service (Railroaded, 4 seats, review auto; set-up is
//! not timed), moves the fixed clock past the shared deadline, then runs `WORKERS` scheduler
//! passes in parallel — as several server processes would — until none finds work. No seat
//! sends orders, so every seat is played by the rules' default: the heaviest case per turn.
//! Run: `cargo bench --bench deadline_storm [-- GAMES WORKERS]`.

use chrono::{Duration, TimeZone, Utc};
use stationmaster::clock::Clock;
use stationmaster::domain::{EmailAddress, Mailbox};
use stationmaster::service::{self, CreateGame, Ctx, GameClock, Review};
use std::time::Instant;

#[path = "common/settings.rs"]
mod bench_settings;
use bench_settings::settings;

#[tokio::main(flavor = "multi_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let workers: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let server = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let base = server.rsplit_once('/').map_or(server.as_str(), |(b, _)| b).to_string();
    let db = format!("sm_bench_storm_{}", std::process::id());
    let url = format!("{base}/{db}");
    // Each worker adjudicates up to 8 turns at once (service::turn::close::CLOSE_CONCURRENCY).
    let pool = stationmaster::store::connect_and_migrate(
        &url,
        workers as u32 * 8 + 4,
        stationmaster::store::SERVER_DB_WAIT,
    )
    .await?;
    let t0 = Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).single().unwrap_or_default();
    let clock = Clock::fixed(t0);
    let ctx = Ctx::new(pool.clone(), settings(url.clone()), clock.clone()).await?;

    let setup = Instant::now();
    let creators = 8;
    let mut tasks = Vec::new();
    for w in 0..creators {
        let ctx = ctx.clone();
        tasks.push(tokio::spawn(async move {
            for i in (w..games).step_by(creators) {
                let req = CreateGame {
                    engine: "railroaded".into(),
                    name: format!("Storm {i}"),
                    gm: EmailAddress::parse("gm@bench.test")?,
                    players: (1..=4)
                        .map(|s| Mailbox::parse(&format!("P{s} <p{s}.{i}@bench.test>")))
                        .collect::<Result<_, _>>()?,
                    seed: Some(i as u64),
                    turn_length: "48h".parse()?,
                    review: Review::Auto,
                    options: serde_json::json!({}),
                    clock: GameClock { reminders: Vec::new(), ..GameClock::default() },
                };
                service::create_game(&ctx, req).await?;
            }
            anyhow::Ok(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    println!("set-up: {games} games created in {:.1} s (not timed below)", setup.elapsed().as_secs_f64());

    clock.advance(Duration::hours(48) + Duration::seconds(30));
    let start = Instant::now();
    let mut passes = Vec::new();
    for _ in 0..workers {
        let ctx = ctx.clone();
        passes.push(tokio::spawn(async move {
            let mut closed = 0usize;
            loop {
                let n = stationmaster::scheduler::tick(&ctx).await?;
                if n == 0 {
                    return anyhow::Ok(closed);
                }
                closed += n;
            }
        }));
    }
    let mut closed = 0;
    for p in passes {
        closed += p.await??;
    }
    let took = start.elapsed().as_secs_f64();
    let reports: i64 =
        sqlx::query_scalar("SELECT count(*) FROM outbox WHERE kind = 'report'").fetch_one(&pool).await?;
    let open: i64 = sqlx::query_scalar("SELECT count(*) FROM turns WHERE status = 'open' AND number = 1")
        .fetch_one(&pool)
        .await?;
    println!(
        "deadline storm: {closed} turns adjudicated and published, {reports} reports queued, {open} first turns \
         still open, by {workers} scheduler workers in {took:.1} s ({:.0} games/s)",
        closed as f64 / took
    );
    pool.close().await;
    let admin = stationmaster::store::connect_options(&format!("{base}/postgres"))?;
    let admin = sqlx::PgPool::connect_with(admin).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)")))
        .execute(&admin)
        .await?;
    anyhow::ensure!(closed == games && reports == 4 * games as i64, "not every game was adjudicated");
    Ok(())
}
