//! The GM's console commands: games, orders, turns, accounts.

use super::output::{InputError, input, print};
use super::serve::connect;
use super::{CreateArgs, GameCommand, GmCommand, OrdersCommand, TurnCommand};
use crate::config::Settings;
use crate::domain::{EmailAddress, Mailbox, TurnLength};
use crate::engine::{Seat, Viewer};
use crate::orders::OrderText;
use crate::service::export::{ImportOptions, ReportSource};
use crate::service::{self, CreateGame, Review, Source, gm_auth};
use anyhow::Context;
use serde_json::json;

use super::lifecycle::{self, game_id};

pub async fn game(settings: Settings, cmd: GameCommand, json: bool) -> anyhow::Result<()> {
    match cmd {
        GameCommand::Create(args) => create(settings, *args, json).await,
        GameCommand::Show { game, seat } => {
            let id = game_id(&game)?;
            let ctx = connect(settings).await?;
            let mut conn = ctx.pool.acquire().await?;
            let viewer = match seat {
                Some(s) => Viewer::Seat(service::seat_by_number(&mut conn, id, s).await?.seat),
                None => Viewer::Public,
            };
            let g = service::public_game(&mut conn, id, viewer).await?;
            let turn = g.turns.last();
            let value = json!({
                "id": g.game.id, "name": g.game.name, "engine": g.game.engine, "status": g.game.status,
                "turn": g.game.current_turn, "turn_status": turn.map(|t| t.status),
                "deadline": turn.map(|t| t.deadline), "seats": g.seats, "view": g.view,
            });
            print(&value, json, |_| {
                let head = format!(
                    "{} ({}), turn {} {}, deadline {}",
                    g.game.name,
                    g.title,
                    g.game.current_turn,
                    turn.map(|t| t.status.as_str()).unwrap_or("?"),
                    turn.map(|t| t.deadline.format("%Y-%m-%d %H:%M UTC").to_string()).unwrap_or_default()
                );
                format!("{head}\n\n{}", g.table)
            });
            Ok(())
        }
        GameCommand::Pause { game } => lifecycle::pause(settings, &game, false, json).await,
        GameCommand::Resume { game } => lifecycle::pause(settings, &game, true, json).await,
        GameCommand::Audit { game } => lifecycle::audit(settings, &game, json).await,
        GameCommand::Referrals { game, how } => {
            let ctx = connect(settings).await?;
            let ask = how == "ask";
            service::questions::set_referrals(&ctx, game_id(&game)?, lifecycle::CONSOLE, ask).await?;
            print(&json!({ "referrals": how }), json, |_| {
                if ask {
                    "Referrals will wait for your answer.".to_string()
                } else {
                    "Referrals will be played by their best-ranked choice, and noted.".to_string()
                }
            });
            Ok(())
        }
        GameCommand::Correct { game, patch, note } => {
            lifecycle::correct(settings, &game, &patch, &note, json).await
        }
        GameCommand::Export { id, game } => {
            super::export::export(settings, id.or(game).unwrap_or_default()).await
        }
        GameCommand::Import { file, new_id, confirm_addresses, rerender_reports } => {
            let options = ImportOptions {
                new_id,
                confirmed: confirm_addresses,
                reports: if rerender_reports { ReportSource::Rendered } else { ReportSource::Document },
            };
            super::export::import(settings, &file, &options, json).await
        }
    }
}

async fn create(settings: Settings, args: CreateArgs, json: bool) -> anyhow::Result<()> {
    let players = args.players.iter().map(|p| input(Mailbox::parse(p))).collect::<Result<Vec<_>, _>>()?;
    let (clock, rhythm) = lifecycle::clock_from(&args)?;
    let req = CreateGame {
        engine: args.engine,
        name: args.name,
        gm: input(EmailAddress::parse(&args.gm))?,
        players,
        seed: args.seed,
        turn_length: input(args.deadline.parse::<TurnLength>())?,
        review: args.review.parse::<Review>().map_err(|e| InputError(e.to_string()))?,
        options: inline_option_files(
            serde_json::from_str(&args.options)
                .map_err(|e| InputError(format!("--options is not JSON: {e}")))?,
        )?,
        clock,
    };
    let ctx = connect(settings).await?;
    let g = service::create_game(&ctx, req).await?;
    let seats: Vec<_> = g
        .seats
        .iter()
        .map(|s| json!({ "seat": s.seat, "name": s.player.name, "email": s.player.email, "token": s.token.reveal(), "link": s.link }))
        .collect();
    let value =
        json!({ "game": g.id, "seed": g.seed, "deadline": g.deadline, "rhythm": rhythm, "seats": seats });
    print(&value, json, |_| {
        let mut out = format!(
            "Created game {} (seed {}), first deadline {}\n",
            g.id,
            g.seed,
            g.deadline.format("%Y-%m-%d %H:%M UTC")
        );
        for s in &g.seats {
            out.push_str(&format!(
                "  seat {}: {} <{}>\n    token {}\n    link  {}\n",
                s.seat,
                s.player.name,
                s.player.email,
                s.token.reveal(),
                s.link
            ));
        }
        if let Some(r) = &rhythm {
            out.push_str(&format!("Deadlines: {r}\n"));
        }
        out.push_str("Each player has been sent a welcome mail with their private link.");
        out
    });
    Ok(())
}

pub async fn orders(settings: Settings, cmd: OrdersCommand, json: bool) -> anyhow::Result<()> {
    let OrdersCommand::Submit { game, seat, file, final_ } = cmd;
    let id = game_id(&game)?;
    let text = input(OrderText::from_bytes(&lifecycle::read_file(&file)?))?;
    let ctx = connect(settings).await?;
    let mut conn = ctx.pool.acquire().await?;
    let who = service::seat_by_number(&mut conn, id, seat).await?;
    drop(conn);
    let done = service::submit_orders(&ctx, &who, &text, Source::Console, final_).await?;
    print(&done, json, |d| {
        let mut out = format!(
            "Stored version {} of {}'s orders for turn {}; receipt {}\n",
            d.version,
            Seat(seat),
            d.turn,
            d.digest
        );
        if d.echo.errors > 0 {
            out.push_str(&format!(
                "{} line(s) not understood: stored, marked, and ignored at adjudication (HR 16)\n",
                d.echo.errors
            ));
        }
        for l in &d.echo.lines {
            match (&l.understood, &l.error) {
                (Some(u), _) => out.push_str(&format!("  {:>3}: {u}\n", l.line)),
                (None, Some(e)) => {
                    out.push_str(&format!("  {:>3}: NOT UNDERSTOOD ({e}): {}\n", l.line, l.text));
                    if let Some(hint) = &l.suggestion {
                        out.push_str(&format!("       suggestion: {hint}\n"));
                    }
                }
                (None, None) => out.push_str(&format!("  {:>3}: ignored: {}\n", l.line, l.text)),
            }
            if let Some(a) = &l.advice {
                out.push_str(&format!("       note: {a}\n"));
            }
        }
        out
    });
    Ok(())
}

pub async fn turn(settings: Settings, cmd: TurnCommand, json: bool) -> anyhow::Result<()> {
    let ctx = connect(settings).await?;
    match cmd {
        TurnCommand::Close { game } => {
            let out = service::close_turn(&ctx, game_id(&game)?).await?;
            print(&out, json, |o| match o {
                service::CloseOutcome::Drafted { turn, .. } => {
                    format!("Turn {turn} adjudicated; the draft waits for your review (turn publish).")
                }
                service::CloseOutcome::Published { turn, .. } => {
                    format!("Turn {turn} adjudicated and published; reports are queued.")
                }
                service::CloseOutcome::Failed { turn, reason, .. } => {
                    format!("Turn {turn} could not be adjudicated: {reason}")
                }
                service::CloseOutcome::Held { turn, missing, .. } => {
                    format!("Turn {turn} is held for you: no orders from seat(s) {missing:?}")
                }
                service::CloseOutcome::Asked { turn, question, .. } => question_text(*turn, question),
            });
        }
        TurnCommand::Answer { game, choice } => {
            let (out, said) =
                service::questions::answer_question_saying(&ctx, game_id(&game)?, "console", choice).await?;
            print(&out, json, |o| match o {
                service::CloseOutcome::Asked { turn, question, .. } => {
                    format!("{said}\n{}", question_text(*turn, question))
                }
                _ => said.clone(),
            });
        }
        TurnCommand::Extend { game, by } => {
            lifecycle::move_deadline_cmd(&ctx, &game, lifecycle::extend_by(&by), json).await?
        }
        TurnCommand::Rollback { game, to, discard_orders } => {
            let r =
                service::rollback::rollback(&ctx, game_id(&game)?, "console", to, !discard_orders).await?;
            print(&r, json, |r| {
                format!(
                    "Rolled back to turn {} ({} turn(s) undone, archived as #{}); it is held for you: \
                     correct what is needed, then `turn close`.",
                    r.turn, r.turns_undone, r.archive
                )
            });
        }
        TurnCommand::Deadline { game, at, force } => {
            lifecycle::move_deadline_cmd(&ctx, &game, lifecycle::set_to(&at, force), json).await?
        }
        TurnCommand::Publish { game } => {
            let n = service::publish_turn(&ctx, game_id(&game)?, lifecycle::CONSOLE).await?;
            print(&json!({ "published": n }), json, |_| format!("Turn {n} published; reports are queued."));
        }
    }
    Ok(())
}

/// Engine options naming a file (`"<name>_file": "path"`) are read here and passed inline as
/// `"<name>": "<text>"`: engines read no files, and the game keeps the data it was set up with.
fn inline_option_files(options: serde_json::Value) -> Result<serde_json::Value, InputError> {
    let serde_json::Value::Object(map) = options else { return Ok(options) };
    let mut out = serde_json::Map::new();
    for (key, value) in map {
        match (key.strip_suffix("_file"), value.as_str()) {
            (Some(name), Some(path)) if !name.is_empty() => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| InputError(format!("--options {key}: cannot read {path}: {e}")))?;
                out.insert(name.to_string(), serde_json::Value::String(text));
            }
            _ => {
                out.insert(key, value);
            }
        }
    }
    Ok(serde_json::Value::Object(out))
}

/// A question for the GM, with its numbered candidates.
fn question_text(turn: i32, q: &crate::registry::GmQuestion) -> String {
    let mut out = format!(
        "Turn {turn} waits for your decision. {}\n{}\nAnswer with `turn answer --choice N`:\n",
        q.why(),
        q.prompt
    );
    for (i, c) in q.candidates.iter().enumerate() {
        out.push_str(&format!("  {:>3}. {}\n", i + 1, c.label));
    }
    out
}

pub async fn gm(settings: Settings, cmd: GmCommand) -> anyhow::Result<()> {
    let email = match cmd {
        GmCommand::SetPassword { email } => email,
        GmCommand::Invite { address } => {
            let address = input(EmailAddress::parse(&address))?;
            service::gm_access::invite_creator(&connect(settings).await?, &address).await?;
            println!("{address} may create games.");
            return Ok(());
        }
        GmCommand::Revoke { address } => {
            let address = input(EmailAddress::parse(&address))?;
            if service::gm_access::revoke_creator(&connect(settings).await?, &address).await? {
                println!("{address} may no longer create games; the games it runs stay its own.");
            } else {
                println!("{address} had no invitation to create games: nothing changed.");
            }
            return Ok(());
        }
        GmCommand::CoGm { game, address } => {
            let (id, address) = (game_id(&game)?, input(EmailAddress::parse(&address))?);
            service::gm_access::add_co_gm(&connect(settings).await?, id, None, &address).await?;
            println!("{address} is a co-GM of game {id}.");
            return Ok(());
        }
    };
    let email = input(EmailAddress::parse(&email))?;
    let mut password = String::new();
    std::io::stdin().read_line(&mut password).context("cannot read the password from standard input")?;
    let ctx = connect(settings).await?;
    gm_auth::set_password(&ctx, &email, password.trim_end_matches(['\r', '\n'])).await?;
    println!("Password set for {email}.");
    Ok(())
}

/// `key rotate`: a new server key, new links mailed (RULING P6).
pub async fn rotate_key(settings: Settings, json: bool) -> anyhow::Result<()> {
    let ctx = connect(settings).await?;
    let done = crate::service::rotate_key(&ctx).await?;
    if json {
        println!("{}", serde_json::to_string(&done)?);
    } else {
        println!(
            "New server key in {}: {} seat link(s) re-derived, {} player(s) mailed their new link.\n\
             A running server takes it up on its next scheduler pass.",
            done.key_file, done.seats, done.mailed
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::inline_option_files;
    use serde_json::json;

    #[test]
    fn an_option_naming_a_file_is_read_by_the_console_and_passed_inline() {
        let path = std::env::temp_dir().join(format!("sm-deck-{}.toml", std::process::id()));
        std::fs::write(&path, "[deck]\ntitle = \"House\"\n").unwrap();
        let got =
            inline_option_files(json!({"deck_file": path.to_string_lossy(), "turn_size": "round"})).unwrap();
        assert_eq!(got, json!({"deck": "[deck]\ntitle = \"House\"\n", "turn_size": "round"}));
        let missing = inline_option_files(json!({"deck_file": "/nonexistent/deck.toml"})).unwrap_err();
        assert!(missing.0.contains("cannot read /nonexistent/deck.toml"), "{}", missing.0);
        let _ = std::fs::remove_file(&path);
    }
}
