//! What counts as an NMR, and what follows from it: the one place.
//!
//! - At the close, [`sheets_at_close`] decides which sheet each acting seat plays: its orders,
//!   else its standing orders when the policy uses them (HR 12), else none — the seats left
//!   without any are `missing` (the strict policy holds the turn for them). The intentions a
//!   seat stated on earlier sheets and has not withdrawn are carried into the sheet it plays,
//!   and stand in for a silent seat like standing orders (HR 12, RULING S24).
//! - The adjudication marks a seat NMR when it sent no orders at all; orders that are only partly
//!   usable are not an NMR (HR 16, RULINGS S2; the loop lives in `adjudication::run`).
//!   [`settle`] then adds what the policy says about standing orders: played, noted to the seat,
//!   and still an NMR when the policy counts them (HR 12, the `hr1835` preset).
//! - At publication [`count_and_flag`] counts each NMR seat once and flags the seat at the
//!   policy's Nth NMR (HR 13), telling the GM and the table; a rollback takes the counts back
//!   ([`uncount`]).

use super::draft::draft_of;
use super::state::TurnPhase;
use crate::domain::{GameId, NmrPolicy};
use crate::engine::{LineNote, Seat};
use crate::orders::{Intentions, LastingLine, lasting};
use crate::registry::TurnOutcome;
use crate::service::audit::{self, Actor};
use crate::service::{Ctx, ServiceError, deadlines, notices};
use crate::store;
use crate::store::games::GameRow;
use crate::store::turns::TurnRow;
use serde_json::json;
use sqlx::PgConnection;
use std::collections::{BTreeMap, BTreeSet};

/// The sheets a turn is adjudicated from, as the NMR policy fills them in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct SheetsAtClose {
    /// Each seat's order text: its own, or its standing orders.
    pub orders: BTreeMap<Seat, String>,
    /// The stated intentions carried into each seat's sheet from earlier turns (HR 12).
    pub carried: BTreeMap<Seat, Vec<String>>,
    /// The acting seats whose standing orders or stated intentions stand in for the turn's
    /// (HR 12).
    pub from_standing: BTreeSet<Seat>,
    /// Of those, the seats played from their stated intentions alone.
    pub intentions_only: BTreeSet<Seat>,
    /// The acting seats with no sheet at all.
    pub missing: Vec<u8>,
}

/// The sheets of the acting seats at the close: the turn's orders, standing orders for the
/// silent seats when the policy uses them (HR 12), and which seats remain without any. Each
/// sheet played gets the seat's intentions in force (`intents`) that it does not restate
/// (`lasting` reads a sheet's lasting lines); a silent seat with intentions but no standing
/// orders plays them alone when the policy uses standing orders.
pub(crate) fn sheets_at_close(
    policy: &NmrPolicy,
    acting: &[Seat],
    mut orders: BTreeMap<Seat, String>,
    standing: impl IntoIterator<Item = (Seat, String)>,
    intents: &BTreeMap<Seat, Intentions>,
    lasting: &dyn Fn(&str) -> Vec<LastingLine>,
) -> SheetsAtClose {
    let mut from_standing = BTreeSet::new();
    let mut intentions_only = BTreeSet::new();
    if policy.use_standing_orders {
        // HR 12: stated intentions stand in for missing orders.
        for (seat, body) in standing {
            if acting.contains(&seat) && !orders.contains_key(&seat) {
                orders.insert(seat, body);
                from_standing.insert(seat);
            }
        }
        for seat in acting {
            if !orders.contains_key(seat) && intents.get(seat).is_some_and(|i| !i.is_empty()) {
                orders.insert(*seat, String::new());
                from_standing.insert(*seat);
                intentions_only.insert(*seat);
            }
        }
    }
    let carried = orders
        .iter()
        .filter_map(|(seat, body)| {
            let lines = lasting::carried(intents.get(seat)?, &lasting(body));
            (!lines.is_empty()).then_some((*seat, lines))
        })
        .collect();
    let missing = acting.iter().filter(|s| !orders.contains_key(s)).map(|s| s.0).collect();
    SheetsAtClose { orders, carried, from_standing, intentions_only, missing }
}

/// Completes an adjudicated outcome with the policy's word on standing orders: each seat played
/// from them (or from its stated intentions alone, `intentions_only`) is told so, and counts as
/// NMR when the policy says it still does (HR 12).
pub(crate) fn settle(
    policy: &NmrPolicy,
    outcome: &mut TurnOutcome,
    from_standing: &BTreeSet<Seat>,
    intentions_only: &BTreeSet<Seat>,
) {
    for seat in from_standing {
        let note = LineNote {
            line: 0,
            executed: true,
            note: if intentions_only.contains(seat) {
                "no orders for this turn: the GM followed your stated intentions (HR 12)".into()
            } else {
                "no orders for this turn: your standing orders were used".into()
            },
        };
        outcome.notes.entry(*seat).or_default().insert(0, note);
        if !outcome.anchors.is_empty() {
            // The note stands before the turn's first event, and the seat's other notes keep theirs.
            outcome.anchors.entry(*seat).or_default().insert(0, 0);
        }
        if policy.standing_counts_as_nmr {
            outcome.nmr.insert(*seat); // HR 12 "this would still count as the first NMR"
        } else {
            outcome.nmr.remove(seat);
        }
    }
}

/// Whether a seat's `count`th NMR (counted after this turn) flags it for replacement (HR 13).
pub(crate) fn flags(policy: &NmrPolicy, count: i32) -> bool {
    u32::try_from(count).is_ok_and(|c| policy.flags_at(c))
}

/// Counts the NMRs of a turn being published and flags the seats the policy flags (HR 13).
/// Returns the flagged seats with their counts, for [`announce_flags`] once the turn is out.
pub(crate) async fn count_and_flag(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    outcome: &TurnOutcome,
) -> Result<Vec<(Seat, i32)>, ServiceError> {
    let policy = game.nmr_policy.0;
    let mut flagged = Vec::new();
    for seat in &outcome.nmr {
        let count = store::games::add_nmr(conn, game.id, *seat).await?;
        if flags(&policy, count) {
            store::lifecycle::flag_seat(conn, game.id, *seat, ctx.now()).await?;
            flagged.push((*seat, count));
        }
    }
    Ok(flagged)
}

/// Takes back the NMRs that the published turns among `turns` counted (a rollback undoes them).
pub(crate) async fn uncount(
    conn: &mut PgConnection,
    game: GameId,
    turns: &[TurnRow],
) -> Result<(), ServiceError> {
    for t in turns {
        if TurnPhase::of(t) != TurnPhase::Published {
            continue;
        }
        for seat in draft_of(t)?.nmr {
            store::rollback::uncount_nmr(conn, game, seat).await?;
        }
    }
    Ok(())
}

/// HR 13: tells the GM and the other players that each flagged seat needs a replacement; the
/// game goes on with the NMR policy's play for the seat until a replacement takes over.
pub(crate) async fn announce_flags(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    flagged: &[(Seat, i32)],
) -> Result<(), ServiceError> {
    let id = game.id;
    for &(seat, count) in flagged {
        let detail = json!({"seat": seat.0, "nmr": count});
        audit::record(conn, ctx.now(), id, Actor::Server, "seat flagged for replacement", detail).await?;
        let what = format!("seat {} flagged for replacement after NMR no. {count}", seat.0);
        let alert = notices::GmAlert {
            game: &game.name,
            turn: game.current_turn,
            what: &what,
            link: format!("{}/gm/games/{}", ctx.settings.base(), id),
        };
        let key = format!("gm-flag:{}:{}:{count}", game.id, seat.0);
        notices::queue(conn, &ctx.settings, &notices::gm_alert(key, &game.gm_email, id, &alert)?).await?;
        let news = format!(
            "seat {} has missed {count} turns, so under this game's rules the GM is looking for a replacement \
             player. Until one takes over, the seat is played by the game's rules for missing orders.",
            seat.0
        );
        let subject = format!("Seat {} needs a replacement", seat.0);
        deadlines::tell_table(ctx, conn, game, &format!("flag-{}-{count}", seat.0), &subject, &[news])
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome_with_nmr(nmr: &[u8]) -> TurnOutcome {
        TurnOutcome {
            state: json!({}),
            actions: Vec::new(),
            events: Vec::new(),
            notes: BTreeMap::new(),
            anchors: BTreeMap::new(),
            nmr: nmr.iter().map(|s| Seat(*s)).collect(),
            defaulted: BTreeSet::new(),
            game_over: false,
            standings: None,
        }
    }

    fn acting() -> Vec<Seat> {
        vec![Seat(1), Seat(2), Seat(3)]
    }

    fn no_lasting(_: &str) -> Vec<LastingLine> {
        Vec::new()
    }

    /// Seat 1 and seat 3 stated an intention for BY on an earlier sheet.
    fn intents() -> BTreeMap<Seat, Intentions> {
        let by = || Intentions::from([("INTENT BY".to_string(), "INTENT BY: TOWARD E19".to_string())]);
        BTreeMap::from([(Seat(1), by()), (Seat(3), by())])
    }

    /// A sheet's lasting lines: each line `INTENT <co>` states one, `NONE <co>` withdraws it.
    fn lasting_words(text: &str) -> Vec<LastingLine> {
        text.lines()
            .filter_map(|l| match l.split_once(' ') {
                Some(("INTENT", co)) => {
                    Some(LastingLine { key: format!("INTENT {co}"), line: Some(l.into()) })
                }
                Some(("NONE", co)) => Some(LastingLine { key: format!("INTENT {co}"), line: None }),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn house_rule_12_intentions_in_force_are_carried_into_a_sheet_that_does_not_restate_them() {
        let orders = BTreeMap::from([(Seat(1), "PASS".to_string()), (Seat(3), "NONE BY".to_string())]);
        let s = sheets_at_close(&NmrPolicy::HR1835, &acting(), orders, [], &intents(), &lasting_words);
        assert_eq!(s.carried[&Seat(1)], ["INTENT BY: TOWARD E19"]);
        assert!(!s.carried.contains_key(&Seat(3)), "seat 3's sheet withdraws it");
        assert!(s.from_standing.is_empty(), "seats with orders are not played from standing orders");
    }

    #[test]
    fn house_rule_12_a_silent_seats_intentions_stand_in_for_its_orders_and_still_count_under_hr1835() {
        let orders = BTreeMap::from([(Seat(3), "PASS".to_string())]);
        let s = sheets_at_close(&NmrPolicy::HR1835, &acting(), orders, [], &intents(), &lasting_words);
        assert_eq!(
            (s.orders[&Seat(1)].as_str(), &s.carried[&Seat(1)][..]),
            ("", &["INTENT BY: TOWARD E19".to_string()][..])
        );
        assert_eq!(s.intentions_only, BTreeSet::from([Seat(1)]));
        assert_eq!(s.missing, vec![2]);
        let mut o = outcome_with_nmr(&[]);
        settle(&NmrPolicy::HR1835, &mut o, &s.from_standing, &s.intentions_only);
        assert!(o.nmr.contains(&Seat(1)), "HR 12: it still counts as an NMR");
        assert!(o.notes[&Seat(1)][0].note.contains("stated intentions"), "{:?}", o.notes);
    }

    #[test]
    fn house_rule_12_standing_orders_fill_in_only_for_silent_acting_seats() {
        let orders = BTreeMap::from([(Seat(1), "own".to_string())]);
        let standing = [(Seat(1), "s1".into()), (Seat(2), "s2".into()), (Seat(4), "s4".into())];
        let s =
            sheets_at_close(&NmrPolicy::HR1835, &acting(), orders, standing, &BTreeMap::new(), &no_lasting);
        assert_eq!(s.orders[&Seat(1)], "own", "a seat's own orders win over its standing orders");
        assert_eq!(s.orders[&Seat(2)], "s2");
        assert!(!s.orders.contains_key(&Seat(4)), "seat 4 does not act this turn");
        assert_eq!(s.from_standing, BTreeSet::from([Seat(2)]));
        assert_eq!(s.missing, vec![3]);
    }

    #[test]
    fn a_policy_without_standing_orders_leaves_the_silent_seats_missing() {
        let standing = [(Seat(2), "s2".to_string())];
        let s = sheets_at_close(
            &NmrPolicy::STRICT,
            &acting(),
            BTreeMap::new(),
            standing,
            &intents(),
            &no_lasting,
        );
        assert!(s.from_standing.is_empty());
        assert_eq!(s.missing, vec![1, 2, 3]);
    }

    #[test]
    fn house_rule_12_a_turn_played_from_standing_orders_still_counts_under_hr1835_but_not_when_lenient() {
        let standing = BTreeSet::from([Seat(2)]);
        let mut hr = outcome_with_nmr(&[]);
        settle(&NmrPolicy::HR1835, &mut hr, &standing, &BTreeSet::new());
        assert!(hr.nmr.contains(&Seat(2)));
        assert!(hr.notes[&Seat(2)][0].note.contains("standing orders were used"));
        let mut lenient = outcome_with_nmr(&[2]);
        settle(&NmrPolicy::LENIENT, &mut lenient, &standing, &BTreeSet::new());
        assert!(!lenient.nmr.contains(&Seat(2)), "standing orders are as good as orders");
    }

    #[test]
    fn settling_leaves_the_adjudications_own_nmrs_alone() {
        let mut o = outcome_with_nmr(&[3]);
        settle(&NmrPolicy::LENIENT, &mut o, &BTreeSet::from([Seat(2)]), &BTreeSet::new());
        assert_eq!(o.nmr, BTreeSet::from([Seat(3)]));
    }

    #[test]
    fn house_rule_13_flags_at_the_policys_count_only() {
        assert!(!flags(&NmrPolicy::HR1835, 1));
        assert!(flags(&NmrPolicy::HR1835, 2));
        assert!(!flags(&NmrPolicy::HR1835, 3));
        assert!(!flags(&NmrPolicy::LENIENT, 2), "lenient never flags");
        assert!(!flags(&NmrPolicy::HR1835, -1));
    }
}
