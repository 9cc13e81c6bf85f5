//! What pages show of waiting games: the GM's page of one (its places, who holds a seat, the
//! requests to approve), the GM's list, and the public list of open games — engine, seats free
//! and rhythm, never an address (RULING W48).

use super::{authorized_read, seating_commitment};
use crate::domain::{GameId, PlaceKind, PlaceStatus, WaitingStatus};
use crate::registry;
use crate::service::ServiceError;
use crate::service::gm_access::Gm;
use crate::store;
use crate::store::waiting::WaitingRow;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// One place as the GM sees it.
#[derive(Debug, Clone)]
pub struct WaitingPlace {
    pub id: i64,
    pub kind: PlaceKind,
    pub name: String,
    pub email: String,
    pub status: PlaceStatus,
    pub expires_at: Option<DateTime<Utc>>,
}

/// A waiting game as its GM sees it.
#[derive(Debug, Clone)]
pub struct WaitingView {
    pub id: GameId,
    pub name: String,
    pub engine: String,
    pub seats: i16,
    pub free: usize,
    pub rhythm: String,
    pub shuffle: bool,
    pub approval: bool,
    pub status: WaitingStatus,
    pub commitment: String,
    pub places: Vec<WaitingPlace>,
    /// Whether the rules allow a start with the players seated now.
    pub may_start: bool,
    /// Its co-GMs (RULING W62).
    pub co_gms: Vec<String>,
}

/// A game open to players who ask to join, as everyone may see it.
#[derive(Debug, Clone)]
pub struct OpenGame {
    pub id: GameId,
    pub name: String,
    pub engine: String,
    pub blurb: String,
    pub seats: i16,
    pub free: usize,
    pub waiting_list: usize,
    pub rhythm: String,
    pub shuffle: bool,
    pub commitment: String,
    pub approval: bool,
}

fn rhythm(w: &WaitingRow) -> String {
    match w.clock_words.0.parse().ok().and_then(|c| c.rhythm) {
        Some(r) => r.describe(),
        None => format!("a turn every {}", w.clock_words.0.deadline.trim()),
    }
}

/// The GM's page of a waiting game (its GM, a co-GM or the operator).
pub async fn waiting_view(conn: &mut PgConnection, id: GameId, gm: &Gm) -> Result<WaitingView, ServiceError> {
    let w = authorized_read(conn, id, gm).await?;
    let places = store::waiting::places(conn, id).await?;
    let held = places.iter().filter(|p| p.status.holds_seat()).count();
    let seated = places.iter().filter(|p| p.status == PlaceStatus::Accepted).count();
    let engine = registry::find(&w.engine).map_err(|e| ServiceError::Internal(e.to_string()))?;
    Ok(WaitingView {
        id,
        name: w.name.clone(),
        engine: engine.title().to_string(),
        seats: w.seats,
        free: usize::try_from(w.seats).unwrap_or(0).saturating_sub(held),
        rhythm: rhythm(&w),
        shuffle: w.shuffle,
        approval: w.approval,
        status: w.status,
        commitment: seating_commitment(w.seed as u64),
        may_start: w.status == WaitingStatus::Waiting
            && engine.seat_counts().contains(&u8::try_from(seated).unwrap_or(u8::MAX)),
        co_gms: store::gm_roles::co_gms(conn, id).await?,
        places: places
            .into_iter()
            .map(|p| WaitingPlace {
                id: p.id,
                kind: p.kind,
                name: p.name.unwrap_or_default(),
                email: p.email.unwrap_or_default(),
                status: p.status,
                expires_at: p.expires_at,
            })
            .collect(),
    })
}

/// The games a GM or co-GM waits to fill (the operator: every one).
pub async fn waiting_of_gm(conn: &mut PgConnection, gm: &Gm) -> Result<Vec<WaitingView>, ServiceError> {
    let rows = if gm.operator {
        store::waiting::all_waiting(conn, 1000).await?
    } else {
        store::waiting::of_gm(conn, &gm.email).await?
    };
    let mut out = Vec::new();
    for w in rows {
        out.push(waiting_view(conn, w.id, gm).await?);
    }
    Ok(out)
}

async fn open_game_of(conn: &mut PgConnection, w: WaitingRow) -> Result<Option<OpenGame>, ServiceError> {
    let places = store::waiting::places(conn, w.id).await?;
    let invited = places.iter().filter(|p| p.kind == PlaceKind::Invited).count();
    let seats = usize::try_from(w.seats).unwrap_or(0);
    // RULING W48: listed when the GM left a seat open.
    if w.status != WaitingStatus::Waiting || invited >= seats {
        return Ok(None);
    }
    let held = places.iter().filter(|p| p.status.holds_seat()).count();
    let engine = registry::find(&w.engine).map_err(|e| ServiceError::Internal(e.to_string()))?;
    Ok(Some(OpenGame {
        id: w.id,
        name: w.name.clone(),
        engine: engine.title().to_string(),
        blurb: engine.blurb().to_string(),
        seats: w.seats,
        free: seats.saturating_sub(held),
        waiting_list: places.iter().filter(|p| p.status == PlaceStatus::Waitlisted).count(),
        rhythm: rhythm(&w),
        shuffle: w.shuffle,
        commitment: seating_commitment(w.seed as u64),
        approval: w.approval,
    }))
}

/// The games open to players who ask to join.
pub async fn open_games(conn: &mut PgConnection) -> Result<Vec<OpenGame>, ServiceError> {
    let mut out = Vec::new();
    for w in store::waiting::all_waiting(conn, 200).await? {
        if let Some(g) = open_game_of(conn, w).await? {
            out.push(g);
        }
    }
    Ok(out)
}

/// One open game's public page; none when it is not open (any more).
pub async fn open_game_page(conn: &mut PgConnection, id: GameId) -> Result<Option<OpenGame>, ServiceError> {
    match store::waiting::get(conn, id).await? {
        Some(w) => open_game_of(conn, w).await,
        None => Ok(None),
    }
}
