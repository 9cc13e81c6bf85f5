//! The picture of the table after a published turn, for its stable address
//! (`/games/{id}/turns/{n}/table.svg`, issue 16): always the public drawing, never a seat's; and
//! the whole picture of the table now as a viewer may see it, the full size of the parts a page
//! shows (issue 36). The PNG of a drawing, for the mail and the pages: rendered once per distinct
//! drawing, outside the publishing transaction, and kept under the SHA-256 of its SVG (issue 38,
//! RULINGS O23–O25; `store::drawings`).

use super::Ctx;
use super::held_pngs::Picture;
use super::{ServiceError, engine_of, load_game};
use crate::domain::{GameId, TurnStatus};
use crate::draw::{DrawError, DrawingKey};
use crate::engine::Viewer;
use crate::store;
use sqlx::PgConnection;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The public drawing of the state after published turn `turn` of `game`. A turn that is not
/// published (open, held, a draft, failed) or does not exist is [`ServiceError::TurnNotFound`],
/// and so is a game whose engine draws nothing.
pub async fn turn_picture(conn: &mut PgConnection, game: GameId, turn: i32) -> Result<String, ServiceError> {
    let g = load_game(conn, game).await?;
    let engine = engine_of(&g)?;
    let row = store::turns::get_turn(conn, game, turn).await?;
    let outcome = row
        .filter(|t| t.status == TurnStatus::Published)
        .and_then(|t| t.draft)
        .ok_or(ServiceError::TurnNotFound(game, turn))?;
    engine.draw(&outcome.state, Viewer::Public)?.ok_or(ServiceError::TurnNotFound(game, turn))
}

/// The whole picture of `game`'s table now as `viewer` may see it (a seat's own, with its hand,
/// only for that seat: the caller has proven who it is). A game whose engine draws nothing is
/// `None`.
pub async fn current_picture(
    conn: &mut PgConnection,
    game: GameId,
    viewer: Viewer,
) -> Result<Option<String>, ServiceError> {
    let g = load_game(conn, game).await?;
    Ok(engine_of(&g)?.draw(&g.state, viewer)?)
}

/// How a drawing becomes a PNG: resvg ([`crate::draw::png`]) in the server; a test may put in
/// one that counts its calls ([`Renderer::new`]).
#[derive(Clone)]
pub struct Renderer(Arc<RenderFn>);

/// A function from a drawing's SVG to its PNG.
type RenderFn = dyn Fn(&str) -> Result<Vec<u8>, DrawError> + Send + Sync;

impl Renderer {
    /// A renderer that calls `f`.
    pub fn new(f: impl Fn(&str) -> Result<Vec<u8>, DrawError> + Send + Sync + 'static) -> Self {
        Renderer(Arc::new(f))
    }

    /// Renders one drawing.
    pub fn render(&self, svg: &str) -> Result<Vec<u8>, DrawError> {
        (self.0)(svg)
    }
}

impl Default for Renderer {
    /// resvg, each drawing over its printed layer when it names one of the registered games'
    /// ([`crate::draw::Layers`], RULING O28), its own elements from their kept rasters (O34),
    /// whole otherwise.
    fn default() -> Self {
        Renderer::new(|svg| {
            let layers = printed_layers();
            let png = layers.png(svg);
            let (kept, rendered) = layers.pieces_counts();
            crate::metrics::drawing_pieces(kept, rendered);
            png
        })
    }
}

/// The printed layers of every registered game, with their rasters: one per process.
fn printed_layers() -> &'static crate::draw::Layers {
    static LAYERS: std::sync::OnceLock<crate::draw::Layers> = std::sync::OnceLock::new();
    LAYERS.get_or_init(|| {
        crate::draw::Layers::new(crate::registry::engines().iter().flat_map(|e| e.printed_layers()))
    })
}

/// Keeps the drawings a turn's reports show, in the publishing transaction: the SVG only, each
/// distinct drawing once; nothing is rendered here (RULING O23).
pub(crate) async fn keep(
    ctx: &Ctx,
    conn: &mut PgConnection,
    drawings: &[(DrawingKey, &str)],
) -> Result<(), ServiceError> {
    Ok(store::drawings::insert_new(conn, drawings, ctx.now()).await?)
}

/// The PNG of each of these kept drawings, for a mail or a page: held in memory when shown
/// lately (RULING O29), read back when rendered before, otherwise rendered now — outside any
/// publishing transaction, on a blocking thread — and kept, so each drawing is rendered once
/// however many mails and pages show it (RULINGS O24, O25). A drawing not kept, or one that
/// does not render (logged), is absent.
pub async fn pngs(
    ctx: &Ctx,
    keys: &[DrawingKey],
) -> Result<BTreeMap<DrawingKey, Arc<Picture>>, ServiceError> {
    let mut out: BTreeMap<DrawingKey, Arc<Picture>> = BTreeMap::new();
    let mut missing: Vec<DrawingKey> = Vec::new();
    for &key in keys {
        match ctx.held_pngs.get(&key) {
            Some(picture) => {
                out.insert(key, picture);
            }
            None => missing.push(key),
        }
    }
    if missing.is_empty() {
        return Ok(out);
    }
    let mut conn = ctx.pool.acquire().await?;
    for (key, png) in store::drawings::rendered(&mut conn, &missing).await? {
        out.insert(key, hold(ctx, key, png));
    }
    drop(conn);
    for key in missing {
        if !out.contains_key(&key)
            && let Some(picture) = render_kept(ctx, key).await?
        {
            out.insert(key, picture);
        }
    }
    Ok(out)
}

/// The PNGs of the kept drawings an HTML body names (`src="drawing:<sha256>"`), as [`pngs`].
pub async fn pngs_in(ctx: &Ctx, html: &str) -> Result<BTreeMap<DrawingKey, Arc<Picture>>, ServiceError> {
    pngs(ctx, &DrawingKey::all_in(html)).await
}

/// A drawing's PNG held in memory for the next mails and pages that show it (RULING O29).
fn hold(ctx: &Ctx, key: DrawingKey, png: Vec<u8>) -> Arc<Picture> {
    let picture = Arc::new(Picture::new(png));
    ctx.held_pngs.put(key, &picture);
    picture
}

/// Renders a kept drawing and keeps its PNG. The drawing's row is locked meanwhile (in a short
/// transaction of its own), so a second renderer — another worker, another server — waits and
/// then takes the PNG instead of rendering it again.
async fn render_kept(ctx: &Ctx, key: DrawingKey) -> Result<Option<Arc<Picture>>, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let Some((svg, png)) = store::drawings::lock(&mut tx, key).await? else {
        return Ok(None);
    };
    if let Some(png) = png {
        return Ok(Some(hold(ctx, key, png)));
    }
    let renderer = ctx.renderer.clone();
    let png = match tokio::task::spawn_blocking(move || {
        crate::metrics::drawing_render(|| renderer.render(&svg))
    })
    .await
    {
        Ok(Ok(png)) => png,
        Ok(Err(e)) => {
            tracing::warn!(drawing = %key, error = %e, "a drawing could not be rendered; shown without it");
            return Ok(None);
        }
        Err(e) => {
            tracing::error!(drawing = %key, error = %e, "rendering a drawing failed");
            return Ok(None);
        }
    };
    store::drawings::set_png(&mut tx, key, &png, ctx.now()).await?;
    tx.commit().await?;
    Ok(Some(hold(ctx, key, png)))
}

/// The PNG of the drawing `svg` (a page's picture): kept under the SHA-256 of the document
/// itself, so a viewer is only ever given the rendering of its own drawing (RULING O25).
/// A drawing that does not render is an internal error.
pub async fn png_of(ctx: &Ctx, svg: &str) -> Result<Vec<u8>, ServiceError> {
    let key = DrawingKey::of(svg);
    if let Some(picture) = ctx.held_pngs.get(&key) {
        return Ok(picture.png().to_vec());
    }
    {
        let mut conn = ctx.pool.acquire().await?;
        if let Some((_, png)) = store::drawings::rendered(&mut conn, &[key]).await?.pop() {
            hold(ctx, key, png.clone());
            return Ok(png);
        }
        keep(ctx, &mut conn, &[(key, svg)]).await?;
    }
    render_kept(ctx, key)
        .await?
        .map(|picture| picture.png().to_vec())
        .ok_or_else(|| ServiceError::Internal(format!("drawing {key} could not be rendered")))
}
