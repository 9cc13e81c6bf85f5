//! Read-only views: a seat's page, public games, the export of a game (order version lists are
//! in `order_pages`).

use super::guides::guide_path;
use super::listings::{GameSummary, MailView, TurnSummary, VersionView};
use super::{SeatAuth, ServiceError, load_game};
use crate::domain::{GameId, GameStatus, TurnStatus};
use crate::engine::{LoggedAction, Seat, SetupSpec};
use crate::store;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

/// A seat as exported (names only; addresses and tokens stay on the server).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportedSeat {
    pub seat: Seat,
    pub name: String,
}

/// A game as setup + action log: enough to replay it anywhere (`stationmaster replay`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameExport {
    pub engine: String,
    pub rules_version: u32,
    pub name: String,
    pub seed: u64,
    pub setup: SetupSpec,
    pub seats: Vec<ExportedSeat>,
    pub actions: Vec<LoggedAction>,
}

/// Exports a game's published history.
pub async fn export_game(conn: &mut PgConnection, game: GameId) -> Result<GameExport, ServiceError> {
    let g = load_game(conn, game).await?;
    let setup: SetupSpec = serde_json::from_value(g.setup.clone())
        .map_err(|e| ServiceError::Internal(format!("stored setup: {e}")))?;
    let seats = store::games::seats(conn, game)
        .await?
        .into_iter()
        .map(|s| ExportedSeat { seat: s.seat, name: s.player_name })
        .collect();
    let actions = store::games::actions(conn, game)
        .await?
        .into_iter()
        .map(|a| LoggedAction {
            seq: u64::try_from(a.seq).unwrap_or(0),
            seat: a.seat,
            action: a.action,
            by_default: a.by_default,
        })
        .collect();
    Ok(GameExport {
        engine: g.engine,
        rules_version: u32::try_from(g.rules_version).unwrap_or(0),
        name: g.name,
        seed: g.seed as u64,
        setup,
        seats,
        actions,
    })
}

/// What a seat sees on its private page.
pub struct SeatPage {
    pub game_id: GameId,
    pub game: String,
    pub title: &'static str,
    pub seat: Seat,
    pub player: String,
    pub turn: i32,
    pub turn_status: TurnStatus,
    pub deadline: chrono::DateTime<chrono::Utc>,
    /// The deadline in the player's zone (or the game's).
    pub deadline_local: String,
    /// When the open turn closes, in sentences (deadline, early close after the cooling-off,
    /// grace, pause, hold); empty when no turn is open.
    pub closing: Vec<String>,
    /// The zone the player chose, if any.
    pub zone: Option<String>,
    pub acting: bool,
    /// What this seat has to decide now and by when, in one sentence (issue 36).
    pub your_move: String,
    /// What the seat can order now, by decision (the order builder; empty when the engine lists
    /// nothing, or the seat does not act).
    pub choices: Vec<crate::engine::Choices>,
    /// The seat may see its orders played now against the table (open information, no dice).
    pub previewable: bool,
    /// The table as this seat may see it (its own hand included, nobody else's).
    pub table: String,
    /// The same as a drawing in parts (SVG documents, issue 36), when the game has one.
    pub pictures: Vec<crate::draw::Part>,
    /// A short example of the game's order text, for the phase the game is in (issue 36).
    pub order_example: &'static str,
    /// Where the game's order guide is served, when it has one.
    pub guide: Option<String>,
    /// This seat's latest order versions for the current turn (a page of them), newest first.
    pub versions: Vec<VersionView>,
    /// How many older versions are not on the page.
    pub older_versions: i64,
    /// This seat's stated intentions in force, as its orders on file leave them (HR 12, RULING
    /// S24): kept from turn to turn until withdrawn; its own, shown to it alone.
    pub intentions: Vec<String>,
    /// The report of the last published turn as this seat received it (the public result and
    /// this seat's own part, nothing of another seat's).
    pub last_report: Option<SeatReport>,
    /// Every turn this seat has a report of: (turn, subject), oldest first.
    pub reports: Vec<(i32, String)>,
    pub finished: bool,
    /// The seat's chat webhook, masked (RULING W14), if one is registered.
    pub webhook: Option<String>,
}

/// A turn's report as one seat received it.
pub struct SeatReport {
    pub turn: i32,
    pub subject: String,
    /// The report's text part, complete on its own.
    pub text: String,
}

impl SeatReport {
    /// A stored report as its seat reads it: the link's placeholder is the reader's own link,
    /// `link` (RULING P8).
    fn read_by(r: store::games::ReportRow, link: &str) -> Self {
        SeatReport {
            turn: r.turn,
            subject: r.subject,
            text: super::mail_secrets::with_link(&r.body_text, link),
        }
    }
}

/// When the open turn closes, as the player reads it: the deadline, and the early close once
/// every acting seat's orders are final (RULINGS D7, D8; the scheduler's due condition).
fn closing_words(
    g: &store::games::GameRow,
    zone: Option<&str>,
    turn: &store::turns::TurnRow,
    all_final_at: Option<chrono::DateTime<chrono::Utc>>,
) -> Vec<String> {
    use crate::schedule::{CloseReason, close_at, format_span};
    if turn.status != TurnStatus::Open {
        return Vec::new();
    }
    let words = |at| super::deadlines::words(g, zone, at);
    let cooling_off = chrono::Duration::seconds(g.cooling_off_secs.max(0));
    let grace = chrono::Duration::seconds(turn.grace_secs.max(0));
    let mut out = vec![format!("Turn {} closes at the deadline, {}.", turn.number, words(turn.deadline))];
    if g.paused_at.is_some() {
        out.push(
            "The game is paused: the clock stands still, and the deadline moves on by the pause.".into(),
        );
    }
    if turn.held_at.is_some() {
        out.push("The GM holds this turn: it closes when the GM releases it.".into());
    }
    match all_final_at {
        Some(final_at) => {
            let close = close_at(turn.deadline, Some(grace), Some(final_at), cooling_off, true);
            if close.why == CloseReason::EarlyClose {
                out.push(format!(
                    "Every seat's orders are final, so it closes early: at {}, after the cooling-off of {}. \
                     Orders may still be changed until then; a new version not marked final cancels the \
                     early close.",
                    words(close.at),
                    format_span(cooling_off)
                ));
            }
        }
        None => out.push(format!(
            "It closes earlier when every seat's orders are final: {} after the last one is marked \
             final (the cooling-off), never later than the deadline.",
            format_span(cooling_off)
        )),
    }
    if turn.grace_secs > 0 {
        out.push(format!(
            "A seat with no orders at all at the deadline is waited for {} more (the grace period).",
            format_span(grace)
        ));
    }
    out
}

/// Builds a seat's private page, reached by its own link `link`; its report is the one mailed to
/// the seat (RULING W11).
pub async fn seat_page(
    conn: &mut PgConnection,
    who: &SeatAuth,
    link: &str,
) -> Result<SeatPage, ServiceError> {
    let g = load_game(conn, who.game).await?;
    let engine = super::engine_of(&g)?;
    let turn = store::turns::get_turn(conn, who.game, g.current_turn)
        .await?
        .ok_or(ServiceError::TurnNotFound(who.game, g.current_turn))?;
    let seat = who.seat;
    let page = super::order_pages::bound(super::order_pages::PAGE_SIZE);
    let versions = store::orders::page_of_seat(conn, who.game, turn.number, seat, None, page).await?;
    let total = store::orders::count_of_seat(conn, who.game, turn.number, seat).await?;
    let all_final_at = store::turns::all_final_at(conn, who.game, turn.number).await?;
    let intentions = super::turn::intentions_of_seat(conn, engine, who.game, turn.number, seat).await?;
    let reports = store::games::report_turns_of_seat(conn, who.game, seat).await?;
    let last_report = match reports.last() {
        Some((n, _)) => store::games::report_of_seat(conn, who.game, seat, *n)
            .await?
            .map(|r| SeatReport::read_by(r, link)),
        None => None,
    };
    let viewer = crate::engine::Viewer::Seat(who.seat);
    let deadline_local = super::deadlines::words(&g, who.time_zone.as_deref(), turn.deadline);
    let acting = turn.acting_seats.contains(&who.seat);
    let next = if turn.status == TurnStatus::Open { engine.next_decision(&turn.start_state)? } else { None };
    let finished = g.status == GameStatus::Finished;
    let choices = if turn.status == TurnStatus::Open && acting && !finished {
        engine.choices(&turn.start_state, seat)?
    } else {
        Vec::new()
    };
    let your_move = super::your_move::sentence(&super::your_move::Standing {
        seat,
        turn: turn.number,
        status: turn.status,
        acting,
        finished,
        next: next.as_ref(),
        deadline: &deadline_local,
    });
    Ok(SeatPage {
        older_versions: total - i64::try_from(versions.len()).unwrap_or(total),
        game_id: who.game,
        title: engine.title(),
        seat: who.seat,
        player: who.player_name.clone(),
        turn: turn.number,
        previewable: acting && turn.status == TurnStatus::Open && super::orders_preview::previewable(engine),
        acting,
        your_move,
        choices,
        turn_status: turn.status,
        deadline: turn.deadline,
        deadline_local,
        closing: closing_words(&g, who.time_zone.as_deref(), &turn, all_final_at),
        zone: who.time_zone.clone(),
        table: engine.describe(&g.state, viewer)?,
        pictures: engine.draw_parts(&g.state, viewer)?,
        order_example: engine.order_example_at(&g.state)?,
        guide: guide_path(engine),
        versions: versions.into_iter().map(VersionView::from).collect(),
        intentions,
        last_report,
        reports,
        finished,
        webhook: super::webhooks::shown_hook(conn, who.game, super::webhooks::HookOwner::Seat(who.seat))
            .await?,
        game: g.name,
    })
}

/// One turn's report of the seat `who` (its own, as mailed to it, with its own link `link`); not
/// found when that turn has none (not published yet, or undone by a rollback).
pub async fn seat_report(
    conn: &mut PgConnection,
    who: &SeatAuth,
    turn: i32,
    link: &str,
) -> Result<SeatReport, ServiceError> {
    store::games::report_of_seat(conn, who.game, who.seat, turn)
        .await?
        .map(|r| SeatReport::read_by(r, link))
        .ok_or(ServiceError::TurnNotFound(who.game, turn))
}

/// A game as anyone may see it.
pub struct PublicGame {
    pub game: GameSummary,
    pub title: &'static str,
    pub table: String,
    /// The table as a drawing in parts (SVG documents, issue 36), when the game has one.
    pub pictures: Vec<crate::draw::Part>,
    /// Where the game's order guide is served, when it has one.
    pub guide: Option<String>,
    pub view: serde_json::Value,
    pub turns: Vec<TurnSummary>,
    /// What happened in each published turn, newest first (the public report, issue 36).
    pub accounts: Vec<TurnAccount>,
    pub seats: Vec<ExportedSeat>,
}

/// One published turn's public account.
pub struct TurnAccount {
    pub number: i32,
    pub lines: Vec<String>,
}

/// Builds the public view of a game (`viewer` may be a seat proven by its token, for the API).
pub async fn public_game(
    conn: &mut PgConnection,
    game: GameId,
    viewer: crate::engine::Viewer,
) -> Result<PublicGame, ServiceError> {
    let g = load_game(conn, game).await?;
    let engine = super::engine_of(&g)?;
    let rows = store::turns::turns_of_game(conn, game).await?;
    let mut accounts: Vec<TurnAccount> = rows
        .iter()
        .filter_map(|t| Some(TurnAccount { number: t.number, lines: super::feeds::public_account(t)? }))
        .collect();
    accounts.reverse();
    let turns = rows.into_iter().map(TurnSummary::from).collect();
    let seats = store::games::seats(conn, game)
        .await?
        .into_iter()
        .map(|s| ExportedSeat { seat: s.seat, name: s.player_name })
        .collect();
    Ok(PublicGame {
        title: engine.title(),
        table: engine.describe(&g.state, viewer)?,
        pictures: engine.draw_parts(&g.state, viewer)?,
        guide: guide_path(engine),
        view: engine.view(&g.state, viewer)?,
        game: g.into(),
        turns,
        accounts,
        seats,
    })
}

/// Recent games for the front page.
pub async fn recent_games(conn: &mut PgConnection) -> Result<Vec<GameSummary>, ServiceError> {
    Ok(store::games::list_games(conn, 100).await?.into_iter().map(GameSummary::from).collect())
}

/// The games a GM runs (as GM or co-GM); the operator's page lists every game (RULING W42).
pub async fn games_of_gm(
    conn: &mut PgConnection,
    gm: &super::gm_access::Gm,
) -> Result<Vec<GameSummary>, ServiceError> {
    let rows = if gm.operator {
        store::games::list_games(conn, i64::MAX).await?
    } else {
        store::games::games_of_gm(conn, &gm.email).await?
    };
    Ok(rows.into_iter().map(GameSummary::from).collect())
}

/// Recent outbox mail (dev mailbox), as the worker would send it: placeholders filled (RULING P8).
pub async fn outbox_recent(ctx: &super::Ctx, limit: i64) -> Result<Vec<MailView>, ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    let rows = store::outbox::list_recent(&mut conn, limit).await?;
    Ok(rows.iter().map(|m| MailView::from(super::mail_secrets::as_sent(ctx, m))).collect())
}

/// One outbox mail (dev mailbox), as the worker would send it.
pub async fn outbox_mail(ctx: &super::Ctx, id: i64) -> Result<Option<MailView>, ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    Ok(store::outbox::get(&mut conn, id)
        .await?
        .map(|m| MailView::from(super::mail_secrets::as_sent(ctx, &m))))
}
