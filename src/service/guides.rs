//! The games' order guides: where each is served, for the links of pages and mails, and its
//! text for the guide page.

use crate::registry::DynGame;

/// Where a game's order guide is served (`None` when the engine has none).
pub(crate) fn guide_path(engine: &dyn DynGame) -> Option<String> {
    engine.order_guide().map(|_| format!("/guides/{}", engine.slug()))
}

/// A game's order guide: its title and Markdown text.
pub struct OrderGuide {
    pub title: &'static str,
    pub markdown: &'static str,
}

/// The order guide of the engine with this slug (`None`: no such engine, or it has no guide).
pub fn order_guide(slug: &str) -> Option<OrderGuide> {
    let engine = crate::registry::find(slug).ok()?;
    Some(OrderGuide { title: engine.title(), markdown: engine.order_guide()? })
}
