//! Sealed orders: authenticating a seat, appending a version with its echo and receipt, marking
//! orders final. The same functions serve the web form, the JSON API, the console and mail.

use super::audit::{self, Actor};
use super::notices::{self, Notice, SeatMail};
use super::{Ctx, ServiceError, Source, engine_of, load_game};
use crate::domain::{GameId, SecretToken, TurnStatus};
use crate::engine::Seat;
use crate::orders::Echo;
use crate::orders::{OrderText, SealedLines, seal_lines};
use crate::registry::{DynGame, Prepared};
use crate::store;
use crate::store::intake::SeatKey;
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::PgConnection;

/// A seat proven by its secret token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatAuth {
    pub game: GameId,
    pub seat: Seat,
    pub player_name: String,
    pub email: String,
    /// The zone the player reads deadlines in, if they chose one.
    pub time_zone: Option<String>,
}

/// Finds the seat a token belongs to. With `game` given, a token of another game is refused the
/// same way as an unknown one, so a token never reveals which games exist.
pub async fn authenticate_seat(
    conn: &mut PgConnection,
    game: Option<GameId>,
    token: &SecretToken,
) -> Result<SeatAuth, ServiceError> {
    authenticate_seat_hash(conn, game, &token.hash()).await
}

/// [`authenticate_seat`] by the token's hash (an `ORDERS` line's sealed token, RULING M11).
pub async fn authenticate_seat_hash(
    conn: &mut PgConnection,
    game: Option<GameId>,
    token_hash: &str,
) -> Result<SeatAuth, ServiceError> {
    let row = store::games::seat_by_token(conn, token_hash).await?.ok_or(ServiceError::BadToken)?;
    if game.is_some_and(|g| g != row.game_id) {
        return Err(ServiceError::BadToken);
    }
    Ok(SeatAuth {
        game: row.game_id,
        seat: row.seat,
        player_name: row.player_name,
        email: row.email,
        time_zone: row.time_zone,
    })
}

/// The answer to a submission: the echo and the receipt.
#[derive(Debug, Clone, Serialize)]
pub struct Submitted {
    pub game: GameId,
    pub turn: i32,
    pub seat: Seat,
    pub version: i32,
    pub digest: String,
    pub is_final: bool,
    pub deadline: DateTime<Utc>,
    /// The deadline as the player reads it (their zone, or the game's).
    pub deadline_local: String,
    pub echo: Echo,
    /// How often the deadline has been moved (the calendar entry's sequence number).
    #[serde(skip)]
    pub deadline_version: i32,
}

/// Appends a new version of a seat's orders for the open turn (never overwriting an earlier one)
/// and answers with the echo and receipt digest. A line the game's order language cannot read
/// does not cost the sheet (HR 16, RULING S1): it is stored, marked "not understood" in the echo
/// and ignored at adjudication. Only a sheet with no readable order at all is refused
/// ([`ServiceError::Rejected`], with the echo naming each bad line) and changes nothing: the
/// seat's previous version stays in force.
pub async fn submit_orders(
    ctx: &Ctx,
    who: &SeatAuth,
    text: &OrderText,
    source: Source,
    final_now: bool,
) -> Result<Submitted, ServiceError> {
    if !final_now && !source.by_gm() {
        // RULING W19: a player's new version before the deadline takes the short path.
        let key = SeatKey::Seat(who.seat);
        if let Some(done) = super::submit_fast::try_submit(ctx, who.game, key, text, source).await? {
            return Ok(done);
        }
    }
    submit_locked(ctx, who, text, source, final_now).await
}

/// [`submit_orders`] in a transaction that locks the turn: the path that gives every refusal.
async fn submit_locked(
    ctx: &Ctx,
    who: &SeatAuth,
    text: &OrderText,
    source: Source,
    final_now: bool,
) -> Result<Submitted, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let done = submit_in(ctx, &mut tx, who, text, source, final_now).await?;
    tx.commit().await?;
    if final_now {
        ctx.turn_wake.notify_one();
    }
    Ok(done)
}

/// [`submit_orders`] for the seat whose token was presented (the JSON API): the short path
/// proves the token in the same statement that reads the turn (RULING W19); when it cannot
/// decide, the token is authenticated as [`authenticate_seat`] does (a token of another game is
/// refused like an unknown one) and the orders take the usual way.
pub async fn submit_with_token(
    ctx: &Ctx,
    game: GameId,
    token: &SecretToken,
    text: &OrderText,
    source: Source,
    final_now: bool,
) -> Result<Submitted, ServiceError> {
    if !final_now {
        let hash = token.hash();
        let key = SeatKey::TokenHash(&hash);
        if let Some(done) = super::submit_fast::try_submit(ctx, game, key, text, source).await? {
            return Ok(done);
        }
    }
    let who = {
        let mut conn = ctx.pool.acquire().await?;
        authenticate_seat(&mut conn, Some(game), token).await?
    };
    submit_locked(ctx, &who, text, source, final_now).await
}

/// [`submit_orders`] inside the caller's transaction (which must then commit and, when the
/// orders were marked final, wake the scheduler).
pub(crate) async fn submit_in(
    ctx: &Ctx,
    tx: &mut PgConnection,
    who: &SeatAuth,
    text: &OrderText,
    source: Source,
    final_now: bool,
) -> Result<Submitted, ServiceError> {
    let game = load_game(&mut *tx, who.game).await?;
    submit_for(ctx, tx, &game, who, text, source, final_now).await
}

/// [`submit_in`] for a game the caller has already loaded in this transaction.
pub(crate) async fn submit_for(
    ctx: &Ctx,
    tx: &mut PgConnection,
    game: &store::games::GameRow,
    who: &SeatAuth,
    text: &OrderText,
    source: Source,
    final_now: bool,
) -> Result<Submitted, ServiceError> {
    let now = ctx.now();
    let engine = engine_of(game)?;
    // While the game is paused the clock stands still: orders are taken past the old deadline.
    let unlimited = source.by_gm() || game.paused_at.is_some();
    let turn = open_turn_for(&mut *tx, who, game.current_turn, now, unlimited).await?;
    let checked = check(engine, &turn.start_state, who.seat, text)?;
    if !source.by_gm() {
        refuse_over_cap(&mut *tx, who, turn.number).await?;
    }
    let new = checked.version(who.game, who.seat, turn.number, text, source, now);
    let version = store::orders::append(&mut *tx, &new).await?;
    crate::metrics::order_stored(source.as_str());
    if final_now {
        store::orders::mark_final(&mut *tx, who.game, turn.number, who.seat, version, now).await?;
    }
    store::turns::refresh_all_final(&mut *tx, who.game, turn.number, now).await?;
    if source.by_gm() {
        copy_to_player(ctx, &mut *tx, game, who, turn.number, version, text.as_str()).await?;
    }
    tracing::info!(game.id = %who.game, turn.number = turn.number, seat = who.seat.0, version, source = source.as_str(), not_understood = checked.echo.errors, "orders stored");
    Ok(Submitted {
        game: who.game,
        turn: turn.number,
        seat: who.seat,
        version,
        is_final: final_now,
        deadline: turn.deadline,
        deadline_local: super::deadlines::words(game, who.time_zone.as_deref(), turn.deadline),
        digest: checked.digest,
        echo: checked.echo,
        deadline_version: turn.deadline_version,
    })
}

/// A seat's orders checked against a turn's start state and sealed, ready to append.
pub(super) struct Checked {
    pub(super) echo: Echo,
    pub(super) digest: String,
    pub(super) salts: Vec<String>,
}

impl Checked {
    /// The version to append for `who` in turn `turn`.
    pub(super) fn version<'a>(
        &'a self,
        game: GameId,
        seat: Seat,
        turn: i32,
        text: &'a OrderText,
        source: Source,
        now: DateTime<Utc>,
    ) -> store::orders::NewVersion<'a> {
        store::orders::NewVersion {
            game_id: game,
            turn,
            seat,
            body: text.as_str(),
            canonical: &self.echo.canonical,
            salt: "",
            digest: &self.digest,
            line_salts: &self.salts,
            echo: &self.echo,
            source,
            submitted_at: now,
        }
    }
}

/// Checks a seat's orders against the turn's start state (the echo) and seals them line by line.
pub(super) fn check(
    engine: &dyn DynGame,
    start_state: &serde_json::Value,
    seat: Seat,
    text: &OrderText,
) -> Result<Checked, ServiceError> {
    sealed(engine.check_orders(start_state, seat, text.as_str())?)
}

/// [`check`] against a start state the engine has already decoded (the short path's memory).
pub(super) fn check_prepared(
    engine: &dyn DynGame,
    start_state: &Prepared,
    seat: Seat,
    text: &OrderText,
) -> Result<Checked, ServiceError> {
    sealed(engine.check_prepared(start_state, seat, text.as_str())?)
}

/// A sheet's echo, refused when nothing of it can be played, else sealed line by line.
fn sealed(echo: Echo) -> Result<Checked, ServiceError> {
    refuse_unreadable(&echo)?;
    if echo.readable() == 0 {
        // RULING W5: an empty sheet would silently count as orders on file (no NMR).
        return Err(ServiceError::BadInput(
            "these orders have no orders in them (only blank lines, comments or courtesies); nothing \
             was stored and your previous orders stand"
                .into(),
        ));
    }
    // RULING P3: sealed line by line, so hidden lines can be published as hashes alone.
    let lines: Vec<String> = echo.canonical_lines().into_iter().map(|(_, text)| text).collect();
    let SealedLines { salts, digest } = seal_lines(&lines);
    Ok(Checked { echo, digest, salts })
}

/// The echo order text would get from the open turn, without storing anything (the mail reads
/// a sign-off off it first, RULING M5); `None` when the game has no current turn.
pub(crate) async fn check_for(
    tx: &mut PgConnection,
    game: &store::games::GameRow,
    who: &SeatAuth,
    text: &str,
) -> Result<Option<Echo>, ServiceError> {
    let Some(turn) = store::turns::get_turn(&mut *tx, who.game, game.current_turn).await? else {
        return Ok(None);
    };
    Ok(Some(engine_of(game)?.check_orders(&turn.start_state, who.seat, text)?))
}

/// HR 16, RULING S1: a sheet is refused only when no line of it is readable and some line is
/// not understood (the echo names each); one readable order makes it a sheet, and its
/// unreadable lines are kept as "not understood". The previous version stays in force.
pub(crate) fn refuse_unreadable(echo: &Echo) -> Result<(), ServiceError> {
    if echo.errors > 0 && echo.readable() == 0 {
        return Err(ServiceError::Rejected(echo.clone()));
    }
    Ok(())
}

/// Refuses a player's version past the cap of versions per turn (RULING W1).
async fn refuse_over_cap(conn: &mut PgConnection, who: &SeatAuth, turn: i32) -> Result<(), ServiceError> {
    let cap = super::order_pages::MAX_VERSIONS_PER_TURN;
    let sent = store::orders::count_of_seat(conn, who.game, turn, who.seat).await?;
    if sent >= cap {
        return Err(ServiceError::BadInput(format!(
            "you have sent {sent} versions of your orders for turn {turn}, the most a seat may send for one \
             turn; nothing was stored and your version {sent} stands (the GM can still enter orders for you)"
        )));
    }
    Ok(())
}

/// Orders the GM entered for a seat: logged, and a copy mailed to the player so nothing is done
/// in their name unseen.
async fn copy_to_player(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &store::games::GameRow,
    who: &SeatAuth,
    turn: i32,
    version: i32,
    body: &str,
) -> Result<(), ServiceError> {
    let detail = json!({"turn": turn, "seat": who.seat.0, "version": version});
    audit::record(
        &mut *conn,
        ctx.now(),
        who.game,
        Actor::Gm(&game.gm_email),
        "orders entered for a seat",
        detail,
    )
    .await?;
    let seat = store::games::seats(&mut *conn, who.game)
        .await?
        .into_iter()
        .find(|s| s.seat == who.seat)
        .ok_or_else(|| ServiceError::Internal(format!("seat {} vanished", who.seat.0)))?;
    let n = Notice {
        game: &game.name,
        greeting: &who.player_name,
        paragraphs: vec![format!(
            "the GM has entered these orders for your seat in turn {turn} (version {version}). They are \
             now your orders on file; send new ones before the deadline to replace them."
        )],
        block: Some(body.to_string()),
        link: Some(notices::SEAT_LINK.into()),
    };
    let m = SeatMail {
        key: format!("gm-orders:{}:{turn}:{}:{version}", who.game, who.seat.0),
        kind: "gm-orders",
        subject: format!("[{}] The GM entered orders for your seat (turn {turn})", game.name),
        calendar: None,
    };
    notices::queue_to_seat(ctx, conn, who.game, &seat, m, &n).await
}

/// Marks the seat's latest orders final. Returns the version marked.
pub async fn mark_final(ctx: &Ctx, who: &SeatAuth) -> Result<i32, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let version = mark_final_in(ctx, &mut tx, who).await?;
    tx.commit().await?;
    ctx.turn_wake.notify_one();
    Ok(version)
}

/// [`mark_final`] inside the caller's transaction.
pub(crate) async fn mark_final_in(
    ctx: &Ctx,
    tx: &mut PgConnection,
    who: &SeatAuth,
) -> Result<i32, ServiceError> {
    let now = ctx.now();
    let game = load_game(&mut *tx, who.game).await?;
    let turn = open_turn_for(&mut *tx, who, game.current_turn, now, game.paused_at.is_some()).await?;
    let seat = who.seat;
    let latest = store::orders::latest_of_seat(&mut *tx, who.game, turn.number, seat)
        .await?
        .ok_or(ServiceError::NoOrders { seat: who.seat })?;
    if !latest.is_final {
        store::orders::mark_final(&mut *tx, who.game, turn.number, seat, latest.version, now).await?;
        store::turns::refresh_all_final(&mut *tx, who.game, turn.number, now).await?;
    }
    Ok(latest.version)
}

/// Locks the open turn and checks that it still takes orders from this seat: until the deadline,
/// or until the end of the grace period for a seat with no orders on file. With `unlimited` (the
/// GM entering orders for a seat, or a paused game) orders are taken as long as the turn is open
/// (RULINGS S6, D13).
async fn open_turn_for(
    conn: &mut PgConnection,
    who: &SeatAuth,
    number: i32,
    now: DateTime<Utc>,
    unlimited: bool,
) -> Result<store::turns::TurnRow, ServiceError> {
    let turn = store::turns::lock_turn(conn, who.game, number)
        .await?
        .ok_or(ServiceError::TurnNotFound(who.game, number))?;
    if turn.status != TurnStatus::Open {
        return Err(ServiceError::Conflict(format!(
            "turn {} is closed; orders can no longer be given or changed for it",
            turn.number
        )));
    }
    let grace_open = turn.grace_secs > 0
        && now < turn.deadline + chrono::Duration::seconds(turn.grace_secs)
        && store::orders::count_of_seat(&mut *conn, who.game, number, who.seat).await? == 0;
    if turn.deadline <= now && !unlimited && !grace_open {
        return Err(ServiceError::Conflict(format!(
            "the deadline of turn {} passed at {}; orders can no longer be given or changed",
            turn.number,
            turn.deadline.format("%Y-%m-%d %H:%M UTC")
        )));
    }
    if !turn.acting_seats.contains(&who.seat) {
        return Err(ServiceError::Conflict(format!(
            "{} has nothing to order in turn {}",
            who.seat, turn.number
        )));
    }
    Ok(turn)
}

/// The seat with this number, for orders the GM enters by other means (console, dashboard).
pub async fn seat_by_number(
    conn: &mut PgConnection,
    game: GameId,
    seat: u8,
) -> Result<SeatAuth, ServiceError> {
    let found = store::games::seats(conn, game).await?.into_iter().find(|s| s.seat == Seat(seat));
    let Some(row) = found else {
        // A game without seats does not exist: say so rather than blame the seat number.
        load_game(conn, game).await?;
        return Err(ServiceError::BadInput(format!("game {game} has no seat {seat}")));
    };
    Ok(SeatAuth {
        game,
        seat: Seat(seat),
        player_name: row.player_name,
        email: row.email,
        time_zone: row.time_zone,
    })
}
