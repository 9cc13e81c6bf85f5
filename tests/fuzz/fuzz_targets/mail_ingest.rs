//! Fuzzes everything inbound mail passes through before it touches the database: MIME parsing,
//! body cleaning, command splitting, reply-address parsing, and the order-text edge checks and
//! Railroaded's order parser. Nothing may panic, whatever the bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use stationmaster::domain::ReplyAddress;
use stationmaster::registry;
use stationmaster::inbound_mail::{MailCommands, ParsedMail, clean_body};
use stationmaster::orders::OrderText;

fuzz_target!(|data: &[u8]| {
    let mail = ParsedMail::parse(data, Some("mx.sm.test"));
    for r in &mail.recipients {
        let _ = ReplyAddress::parse(r);
    }
    let commands = MailCommands::parse(&mail.body);
    let _ = clean_body(&String::from_utf8_lossy(data));
    if let Ok(text) = OrderText::parse(&commands.order_text)
        && let Ok(engine) = registry::find("railroaded")
        && let Ok(state) = engine.setup(&stationmaster::engine::SetupSpec { seats: 4, options: serde_json::json!({}) }, 1)
    {
        let _ = engine.check_orders(&state, stationmaster::engine::Seat(1), text.as_str());
    }
});
