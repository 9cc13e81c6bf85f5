//! Fuzzes everything inbound mail passes through before it touches the database: MIME parsing,
//! body cleaning, command splitting, reply-address parsing, and the order-text edge checks and
//! Railroaded's order parser. Nothing may panic, whatever the bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use stationmaster::domain::ReplyAddress;
use stationmaster::registry;
use stationmaster::inbound_mail::{MailCommands, ParsedMail, clean_body};
use stationmaster::orders::OrderText;
use std::sync::OnceLock;

/// Railroaded's engine with a four-seat game at its start, set up once (not per execution).
fn railroaded() -> Option<&'static (&'static dyn registry::DynGame, serde_json::Value)> {
    static GAME: OnceLock<Option<(&'static dyn registry::DynGame, serde_json::Value)>> = OnceLock::new();
    GAME.get_or_init(|| {
        let engine = registry::find("railroaded").ok()?;
        let spec = stationmaster::engine::SetupSpec { seats: 4, options: serde_json::json!({}) };
        Some((engine, engine.setup(&spec, 1).ok()?))
    })
    .as_ref()
}

fuzz_target!(|data: &[u8]| {
    let mail = ParsedMail::parse(data, Some("mx.sm.test"));
    for r in &mail.recipients {
        let _ = ReplyAddress::parse(r);
    }
    let commands = MailCommands::parse(&mail.body);
    let _ = clean_body(&String::from_utf8_lossy(data));
    if let Ok(text) = OrderText::parse(&commands.order_text)
        && let Some((engine, state)) = railroaded()
    {
        let _ = engine.check_orders(state, stationmaster::engine::Seat(1), text.as_str());
    }
});
