//! Benchmark (issue 38): N 1835 games in the middle of an operating round share one deadline —
//! the time from the deadline until every game is published and every report mail, with its
//! pictures, is accepted by a local SMTP server; the server's RSS meanwhile; and which step
//! bounds it. Target for 10,000 games: < 180 s and RSS < 500 MB on the 2-core machine.
//!
//! Against a real Postgres (DATABASE_URL's server): a scratch database; each game its own
//! position (`common/positions_1835.rs`: a company's turn starting in an operating round —
//! tiles laid, trains bought, several companies running — cut from the four-player PBEM
//! fixture logs `tests/fixtures/1835/{whole_game,bankruptcy_game}.jsonl`, then from random
//! four-player games when the games outnumber those cuts), so that each game's turn ends in its
//! own table and its own drawings as in real play. N four-seat games (each its own players) are
//! created through the service (PBEM preset: the default NMR policy, review auto; set-up not
//! timed) and each position copied into its game by UPDATEs (state and turn; the copies carry
//! the state, not the log before it, which publishing only appends to). The welcome mails are
//! marked sent. Then the real server binary is started (`stationmaster serve`, system clock, SMTP to
//! an in-process counting sink — mailin's RFC 5321 session, the tests' engine — metrics on a
//! port of their own), the deadline passes, and the driver samples every 250 ms the reports
//! received at the sink and the server's RSS, and once a second (until all are) the turns
//! published; at the end the CPU time of the server, of Postgres and of this driver (the sink). No seat sends orders: every move is the rules' default, HR 17's
//! ladder included — the heaviest turn.
//!
//! Run: `cargo bench --bench storm_1835 -- [GAMES]` (default 10000 games).

#[path = "common/settings.rs"]
mod bench_settings;
#[path = "common/positions_1835.rs"]
mod positions;
use anyhow::{Context, bail};
use chrono::Utc;
use stationmaster::clock::Clock;
use stationmaster::domain::{EmailAddress, Mailbox};
use stationmaster::games::r1835::{R1835, State};
use stationmaster::service::{self, CreateGame, Ctx, GameClock, Review};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

mod sink {
    //! An SMTP server that accepts every message and counts messages and bytes.
    use mailin::{Action, Handler, Response, SessionBuilder};
    use std::net::IpAddr;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    use tokio::net::{TcpListener, TcpStream};

    #[derive(Default)]
    pub struct Counts {
        pub messages: AtomicU64,
        pub bytes: AtomicU64,
    }

    struct Counter(Arc<Counts>);

    impl Handler for Counter {
        fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
            self.0.bytes.fetch_add(buf.len() as u64, Ordering::Relaxed);
            Ok(())
        }
        fn data_end(&mut self) -> Response {
            self.0.messages.fetch_add(1, Ordering::Relaxed);
            mailin::response::OK
        }
    }

    /// Listens on a free port of 127.0.0.1; its port.
    pub async fn start(counts: Arc<Counts>) -> std::io::Result<u16> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        tokio::spawn(async move {
            while let Ok((socket, peer)) = listener.accept().await {
                tokio::spawn(session(socket, peer.ip(), counts.clone()));
            }
        });
        Ok(port)
    }

    async fn session(socket: TcpStream, peer: IpAddr, counts: Arc<Counts>) -> std::io::Result<()> {
        let mut session = SessionBuilder::new("sink.bench").build(peer, Counter(counts));
        let mut stream = BufReader::with_capacity(256 * 1024, socket);
        stream.get_mut().write_all(&session.greeting().buffer()?).await?;
        let mut line = Vec::with_capacity(256);
        loop {
            line.clear();
            if stream.read_until(b'\n', &mut line).await? == 0 {
                return Ok(());
            }
            let response = session.process(&line);
            match response.action {
                Action::Reply => stream.get_mut().write_all(&response.buffer()?).await?,
                Action::Close | Action::UpgradeTls => {
                    stream.get_mut().write_all(&response.buffer()?).await?;
                    return Ok(());
                }
                Action::NoReply => {}
            }
        }
    }
}

/// CPU seconds (user + system) a process used so far, from `/proc/PID/stat`.
fn cpu_secs(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return 0.0 };
    let Some((_, rest)) = stat.rsplit_once(") ") else { return 0.0 };
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f.get(11).and_then(|u| u.parse().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|s| s.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}

/// CPU seconds of every process whose name is `name` (Postgres: postmaster and backends).
fn cpu_of_all(name: &str) -> f64 {
    let Ok(dir) = std::fs::read_dir("/proc") else { return 0.0 };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == name))
        .map(cpu_secs)
        .sum()
}

/// Resident memory of a process in MB.
fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The machine's busy CPU seconds so far (all cores), from `/proc/stat`.
fn machine_busy_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let f: Vec<f64> = stat
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .filter_map(|v| v.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal: busy = all but idle and iowait
    f.iter().take(8).enumerate().filter(|(i, _)| *i != 3 && *i != 4).map(|(_, v)| v).sum::<f64>() / 100.0
}

/// The sum of a Prometheus histogram (`NAME_sum` over its label sets) in a scrape.
/// A metric's value on the line that starts with `series` (name and labels).
fn metric_value(scrape: &str, series: &str) -> f64 {
    scrape
        .lines()
        .filter(|l| l.starts_with(series))
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<f64>().ok())
        .sum()
}

fn metric_sum(scrape: &str, name: &str) -> f64 {
    scrape
        .lines()
        .filter(|l| l.starts_with(&format!("{name}_sum")))
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<f64>().ok())
        .sum()
}

/// Each game's own position (issue 38): the company-turn starts in operating rounds of the
/// four-player fixture logs, in log order, then as many from random four-player games as the
/// games need beyond them; game `i` gets position `i`. Prints what was chosen.
fn positions(games: usize) -> Vec<positions::Position> {
    let g = R1835::standard().expect("1835 data");
    // Several companies: at least two share companies floated as well.
    let several = |p: &positions::Position| {
        p.state["majors"].as_array().is_some_and(|m| m.iter().filter(|c| c["floated"] == true).count() >= 2)
    };
    let fixtures: Vec<positions::Position> =
        positions::from_fixtures(&g, &positions::PBEM_FIXTURES).into_iter().filter(several).collect();
    let found = fixtures.len();
    // Fewer games than cuts: cuts spread evenly over the fixtures.
    let mut all: Vec<positions::Position> = if games < found {
        (0..games).map(|k| fixtures[k * found / games].clone()).collect()
    } else {
        fixtures
    };
    let mut seed = 0;
    while all.len() < games {
        all.extend(positions::from_random_game(&g, 4, seed, 1).into_iter().filter(several));
        seed += 1;
    }
    all.truncate(games.max(1));
    let mut sources: Vec<(String, usize, u64, u64)> = Vec::new();
    for p in &all {
        match sources.last_mut() {
            Some((s, n, _, last)) if *s == p.source => (*n, *last) = (*n + 1, p.at),
            _ => sources.push((p.source.clone(), 1, p.at, p.at)),
        }
    }
    println!(
        "positions: {} company-turn starts in operating rounds ({} of the fixtures' {found}, then random games)",
        all.len(),
        found.min(all.len())
    );
    for (source, n, first, last) in sources.iter().take(8) {
        println!("  {source}: {n} cut points, after actions {first}..={last}");
    }
    if sources.len() > 8 {
        println!("  and {} random games more", sources.len() - 8);
    }
    for (i, p) in all.iter().enumerate().filter(|(i, _)| i.is_multiple_of((all.len() / 6).max(1))) {
        let s: State = serde_json::from_value(p.state.clone()).expect("a state");
        println!("  game {i}: {} — {}", p.name(), positions::describe(&s));
    }
    all
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let server = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let base = server.rsplit_once('/').map_or(server.as_str(), |(b, _)| b).to_string();
    let db = format!("sm_bench_storm1835_{}", std::process::id());
    let url = format!("{base}/{db}");
    let pool =
        stationmaster::store::connect_and_migrate(&url, 12, stationmaster::store::SERVER_DB_WAIT).await?;

    let setup = Instant::now();
    let chosen = Arc::new(positions(games));
    let settings = bench_settings::settings(url.clone());
    let ctx = Ctx::new(pool.clone(), settings, Clock::system()).await?;
    let mut tasks = Vec::new();
    for w in 0..4 {
        let (ctx, chosen) = (ctx.clone(), chosen.clone());
        tasks.push(tokio::spawn(async move {
            for i in (w..games).step_by(4) {
                let p = &chosen[i % chosen.len()];
                let req = CreateGame {
                    engine: "1835".into(),
                    name: format!("Storm {i}"),
                    gm: EmailAddress::parse("gm@bench.test")?,
                    // Each game's own players (their names are on its picture).
                    players: (1..=4)
                        .map(|s| Mailbox::parse(&format!("Player {s} of {i} <p{s}.{i}@bench.test>")))
                        .collect::<Result<_, _>>()?,
                    seed: Some(p.seed),
                    turn_length: "48h".parse()?,
                    review: Review::Auto,
                    options: p.options.clone(),
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
    let lead = Duration::from_secs(20);
    let deadline = Utc::now() + chrono::Duration::from_std(lead)?;
    // Each position into its games (game i has position i mod the positions chosen).
    let engine = stationmaster::registry::find("1835")?;
    for (j, p) in chosen.iter().enumerate() {
        let names: Vec<String> = (j..games).step_by(chosen.len()).map(|i| format!("Storm {i}")).collect();
        let acting: Vec<i16> = engine.acting_seats(&p.state)?.iter().map(|s| i16::from(s.0)).collect();
        sqlx::query("UPDATE games SET state = $1, next_seq = $2 WHERE name = ANY($3)")
            .bind(&p.state)
            .bind(p.at as i64)
            .bind(&names)
            .execute(&pool)
            .await?;
        sqlx::query(
            "UPDATE turns SET start_state = $1, first_seq = $2, acting_seats = $3, deadline = $4 \
             WHERE number = 1 AND game_id IN (SELECT id FROM games WHERE name = ANY($5))",
        )
        .bind(&p.state)
        .bind(p.at as i64)
        .bind(&acting)
        .bind(deadline)
        .bind(&names)
        .execute(&pool)
        .await?;
    }
    sqlx::query("UPDATE outbox SET sent_at = now()").execute(&pool).await?;
    sqlx::query("VACUUM ANALYZE").execute(&pool).await?;
    println!("set-up: {games} games in {:.1} s (not timed)", setup.elapsed().as_secs_f64());

    let counts = Arc::new(sink::Counts::default());
    let smtp_port = sink::start(counts.clone()).await?;
    let metrics_port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0")?;
        l.local_addr()?.port()
    };
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stationmaster"))
        .arg("serve")
        .arg("--metrics-addr")
        .arg(format!("127.0.0.1:{metrics_port}"))
        .env("DATABASE_URL", &url)
        .env("STATIONMASTER_BIND", "127.0.0.1:0")
        .env("STATIONMASTER_SMTP_URL", format!("smtp://127.0.0.1:{smtp_port}"))
        .env("STATIONMASTER_SECRET_KEY", "bench")
        .env("STATIONMASTER_MAIL_FROM", "Stationmaster <sm@bench.test>")
        .env("STATIONMASTER_TICK_SECS", "1")
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .spawn()
        .context("starting the server")?;
    let pid = child.id();

    tokio::time::sleep(lead.saturating_sub(Duration::from_secs(1))).await;
    let rss_before = rss_mb(pid);
    while Utc::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let start = Instant::now();
    let wal = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8";
    let wal0: f64 = sqlx::query_scalar(wal).fetch_one(&pool).await?;
    let (server0, pg0, me0, busy0) =
        (cpu_secs(pid), cpu_of_all("postgres"), cpu_secs(std::process::id()), machine_busy_secs());
    let reports = games as i64 * 4;
    let (mut published_at, mut rss_max) = (None, rss_before);
    let mut polled = Instant::now();
    let sent_at = loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        rss_max = rss_max.max(rss_mb(pid));
        // The reports sent are counted at the sink; the turns published in the database only until
        // all are, and at most once a second — the count reads the whole table, and polling
        // it four times a second made up a growing share of the database's CPU at 10,000 games.
        let sent = counts.messages.load(Ordering::Relaxed) as i64;
        let published: i64 = if published_at.is_none() && polled.elapsed() >= Duration::from_secs(1) {
            polled = Instant::now();
            sqlx::query_scalar("SELECT count(*) FROM turns WHERE number = 1 AND status = 'published'")
                .fetch_one(&pool)
                .await?
        } else {
            -1
        };
        if published_at.is_none() && published == games as i64 {
            published_at = Some(start.elapsed());
        }
        if sent >= reports && published_at.is_some() {
            break start.elapsed();
        }
        if let Some(status) = child.try_wait()? {
            bail!("the server stopped: {status}");
        }
        if start.elapsed() > Duration::from_secs(3600) {
            bail!("not done after an hour: {published} published, {sent} of {reports} reports sent");
        }
    };
    let (server1, pg1, me1, busy1) =
        (cpu_secs(pid), cpu_of_all("postgres"), cpu_secs(std::process::id()), machine_busy_secs());
    let wal1: f64 = sqlx::query_scalar(wal).fetch_one(&pool).await?;
    let scrape = reqwest_metrics(metrics_port).await.unwrap_or_default();
    let (drawings, rendered): (i64, i64) =
        sqlx::query_as("SELECT (SELECT count(*) FROM drawings), (SELECT count(*) FROM drawing_pngs)")
            .fetch_one(&pool)
            .await?;
    let _ = child.kill();
    let _ = child.wait();

    let wall = sent_at.as_secs_f64();
    let (server, pg, sinkcpu, busy) = (server1 - server0, pg1 - pg0, me1 - me0, busy1 - busy0);
    let render_wall = metric_sum(&scrape, "stationmaster_drawing_render_duration_seconds");
    let engine_wall = metric_sum(&scrape, "stationmaster_adjudication_duration_seconds");
    // The threads' own CPU time (the durations count the waits for a core on a busy machine).
    let render = metric_sum(&scrape, "stationmaster_drawing_render_cpu_seconds");
    let engine_s = metric_sum(&scrape, "stationmaster_adjudication_cpu_seconds");
    println!(
        "storm: {games} games published in {:.1} s; {reports} reports sent ({} messages, {:.0} MB at the sink) \
         in {wall:.1} s from the deadline",
        published_at.unwrap_or_default().as_secs_f64(),
        counts.messages.load(Ordering::Relaxed),
        counts.bytes.load(Ordering::Relaxed) as f64 / 1e6,
    );
    println!(
        "WAL written over the storm (the whole server's): {:.0} MB, {:.0} KB a game",
        (wal1 - wal0) / 1e6,
        (wal1 - wal0) / 1e3 / games.max(1) as f64
    );
    println!(
        "drawings: {drawings} kept, {rendered} rendered; server RSS {rss_before:.0} MB before, {rss_max:.0} MB at most"
    );
    // RULING O34: the elements of the map parts painted from kept rasters and rendered.
    let (kept, drawn) = (
        metric_value(&scrape, "stationmaster_drawing_pieces{from=\"kept\"}"),
        metric_value(&scrape, "stationmaster_drawing_pieces{from=\"rendered\"}"),
    );
    println!(
        "elements painted over printed layers: {kept:.0} from kept rasters, {drawn:.0} rendered ({:.1} % kept)",
        100.0 * kept / (kept + drawn).max(1.0)
    );
    println!(
        "engine: {engine_s:.2} s CPU ({:.2} ms a game; {engine_wall:.1} s wall); rendering: {render:.1} s CPU \
         ({:.0} ms a drawing; {render_wall:.1} s wall); load average at the end {}",
        1000.0 * engine_s / games.max(1) as f64,
        1000.0 * render / rendered.max(1) as f64,
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim(),
    );
    println!(
        "CPU over the storm ({:.1} core-s available): server {server:.1} s (engine {engine_s:.1}, rendering \
         {render:.1}, the rest: DB client, mail building, SMTP client), Postgres {pg:.1} s, SMTP sink + driver \
         {sinkcpu:.1} s, whole machine busy {busy:.1} s",
        wall * 2.0
    );
    for (what, s) in [
        ("engine (adjudication)", engine_s),
        ("rendering", render),
        ("server, other (DB client, mail, SMTP client)", server - engine_s - render),
        ("Postgres", pg),
        ("SMTP sink + driver", sinkcpu),
    ] {
        println!("  share of busy CPU: {what:45} {:5.1} %", 100.0 * s / busy.max(0.001));
    }
    pool.close().await;
    let admin =
        sqlx::PgPool::connect_with(stationmaster::store::connect_options(&format!("{base}/postgres"))?)
            .await?;
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)")))
        .execute(&admin)
        .await?;
    Ok(())
}

/// A GET of the server's `/metrics` (plain HTTP/1.0 over a socket: no client library needed).
async fn reqwest_metrics(port: u16) -> anyhow::Result<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
    s.write_all(b"GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n").await?;
    let mut out = String::new();
    s.read_to_string(&mut out).await?;
    Ok(out)
}
