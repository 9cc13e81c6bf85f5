//! Game options: the two option sets of `rules/1835/game.toml` (our PBEM defaults and Rails'
//! defaults) and how a game's `SetupSpec.options` pick one and override single keys.
//!
//! ```json
//! {"preset": "rails", "variant": "snake"}
//! ```
//! Missing keys come from the preset (default `pbem`); unknown keys and values are refused.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The start-packet procedure and share release (FACTS §4.3; HR 21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    Standard,
    Snake,
    Clemens,
    FullThompson,
    /// "The Thompson variation (2-3-2)" of HR 21, the PBEM default (RULING K1).
    HalfThompson,
}

impl Variant {
    /// Every start-packet item is on sale at once (Clemens and both Thompson variants).
    pub fn all_items_available(self) -> bool {
        matches!(self, Variant::Clemens | Variant::FullThompson | Variant::HalfThompson)
    }
    /// One of the Thompson variants.
    pub fn thompson(self) -> bool {
        matches!(self, Variant::FullThompson | Variant::HalfThompson)
    }
}

/// When the rule "no sales in the first stock round" ends (FACTS §6; Rails option
/// FirstRoundSellRestriction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoSalesIn {
    /// Nobody sells during stock round 1.
    FirstStockRound,
    /// Nobody sells while the start packet is on sale in stock round 1.
    StartPacket,
}

/// The options of one game. Keys are documented in `rules/1835/game.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub variant: Variant,
    pub separate_sales_same_price: bool,
    pub no_sales_in: NoSalesIn,
    pub by_float_percent: u8,
    pub ld_income: i64,
    pub minors_require_floated_by: bool,
    pub nf_pfb_token_step_only: bool,
    /// A company may declare a revenue below the maximum its trains can earn (RULING K21).
    #[serde(default)]
    pub revenue_below_maximum: bool,
    pub empty_operating_rounds: bool,
    /// The dividend of a company whose orders are silent (issue 15; RULINGS K62).
    #[serde(default)]
    pub silent_dividend: SilentDividend,
    /// The compulsory train of a company whose orders are silent (issue 15; RULINGS K62).
    #[serde(default)]
    pub silent_train: SilentTrain,
    /// How many rounds one PBEM turn covers (HR 14, RULING K65): our PBEM games 2, Rails' 1.
    /// Games stored before the option play one round per turn, as they always did.
    #[serde(default = "one_round")]
    pub rounds_per_turn: u8,
    /// How a train changes hands between companies of two players (issue 33; RULING K36).
    /// Games stored before the option: by agreement, which is all they could have done.
    #[serde(default)]
    pub foreign_train_trades: ForeignTrainTrades,
    // Issue 33 (helper ledger35): behaviours of Rails the `rails` preset follows so that games
    // recorded there replay here. Games stored before them keep the house-rule behaviour.
    /// Which ordinary certificates a new president hands over for the director's certificate
    /// (RULING K10).
    #[serde(default)]
    pub presidency_swap: PresidencySwap,
    /// The Badische places its home station when it floats, like every other share company
    /// (Rails), rather than at its first operation (HR 8; RULING K91).
    #[serde(default)]
    pub baden_home_on_float: bool,
    /// A tile lay need not connect to the company's stations (Rails does not check it); the
    /// report names such a lay as unconnected (RULING K92).
    #[serde(default)]
    pub unconnected_lays: bool,
}

/// How a company buys a train from a company another player directs (FACTS §7.6: "at any
/// agreed price"; RULINGS K36, K75).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForeignTrainTrades {
    /// Only with the selling director's agreement: the buyer's `offer_train` and the seller's
    /// `answer_train_offer` (by mail: a `BUY TRAIN … FROM` matched by a `SELL TRAIN … TO`).
    #[default]
    Offer,
    /// Also the buyer's `buy_train` alone, at the price the two agreed off the board, as Rails
    /// records a trade; offers work as well.
    Direct,
}

/// Which ordinary certificates the new president gives the old one for the director's
/// certificate when a presidency changes hands (RR §12.3; RULING K10).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PresidencySwap {
    /// The fewest certificates (one 20 % rather than two 10 %): the choice the rules give the
    /// old president, made as a silent player would (fewest papers against the limit).
    #[default]
    Fewest,
    /// Single-share certificates (10 %, the Prussian's 5 %) when the new president holds enough
    /// of them, else one certificate of the director's size (Rails); a sale that passes the
    /// presidency moves the certificates as Rails does (RULING K94, `dump.rs`).
    SingleSharesFirst,
}

/// What a company whose orders say nothing does with its revenue (RULINGS K62).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SilentDividend {
    /// Pay it out: the shareholders' income now (the default, RULING K34).
    #[default]
    Payout,
    /// Withhold it: the treasury keeps it for trains (the GM's other reading of the
    /// shareholders' interest).
    Withhold,
}

/// Which compulsory train a company whose orders say nothing buys (RULINGS K62).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SilentTrain {
    /// The cheapest in the bank or the pool (RULING K40; the default).
    #[default]
    Cheapest,
    /// The bank's next train when the treasury pays for it (it rusts later), else the cheapest.
    Newest,
}

/// `rounds_per_turn` of a game stored before the option existed (RULING K18, then K65).
fn one_round() -> u8 {
    1
}

use crate::engine::{OptionKind, OptionSpec};

const fn flag(name: &'static str, help: &'static str) -> OptionSpec {
    OptionSpec { name, help, kind: OptionKind::Flag }
}

const fn choice(name: &'static str, help: &'static str, words: &'static [&'static str]) -> OptionSpec {
    OptionSpec { name, help, kind: OptionKind::Choice(words) }
}

/// The options of the "New game" form (issue 37): the preset and the single keys of
/// `rules/1835/game.toml` a game may override, as `--options` takes them. `empty_operating_rounds`
/// is left out: it is for tests and replays, not a way to play.
pub const SPECS: &[OptionSpec] = &[
    choice("preset", "the option set: our PBEM defaults (pbem) or Rails' (rails)", &["pbem", "rails"]),
    choice(
        "variant",
        "start-packet procedure and share release (FACTS §4.3, HR 21)",
        &["standard", "snake", "clemens", "full_thompson", "half_thompson"],
    ),
    flag(
        "separate_sales_same_price",
        "a later sale of a company in the same turn gets the first sale's price",
    ),
    choice("no_sales_in", "when the first-round sale ban ends", &["first_stock_round", "start_packet"]),
    OptionSpec { name: "by_float_percent", help: "BY floats at 50 or 20 percent", kind: OptionKind::Number },
    OptionSpec { name: "ld_income", help: "LD's income, 20 or 30", kind: OptionKind::Number },
    flag("minors_require_floated_by", "minors do not operate until BY has floated"),
    flag("nf_pfb_token_step_only", "NF and PfB tokens only in the token step (HR 6)"),
    flag("revenue_below_maximum", "a run may declare less than its maximum (RULING K21)"),
    OptionSpec {
        name: "rounds_per_turn",
        help: "rounds one PBEM turn covers, 1 to 4 (HR 14)",
        kind: OptionKind::Number,
    },
    choice(
        "foreign_train_trades",
        "trains between two players' companies (RULING K36)",
        &["offer", "direct"],
    ),
    choice("silent_dividend", "a silent company's revenue (RULING K62)", &["payout", "withhold"]),
    choice("silent_train", "a silent company's compulsory train (RULING K62)", &["cheapest", "newest"]),
    choice(
        "presidency_swap",
        "certificates for the director's (RULING K10)",
        &["fewest", "single_shares_first"],
    ),
    flag("baden_home_on_float", "BA places its home station when it floats (RULING K91)"),
    flag("unconnected_lays", "a tile lay need not connect to the company's stations (RULING K92)"),
];

/// The preset used when a game names none.
pub const DEFAULT_PRESET: &str = "pbem";

/// Builds a game's options from its setup options: a preset plus overridden keys.
pub fn resolve(presets: &BTreeMap<String, Options>, given: &Value) -> Result<Options, String> {
    let empty = serde_json::Map::new();
    let obj = match given {
        Value::Null => &empty,
        Value::Object(o) => o,
        other => return Err(format!("1835 options must be a JSON object, not {other}")),
    };
    let preset_name = match obj.get("preset") {
        None => DEFAULT_PRESET,
        Some(Value::String(s)) => s.as_str(),
        Some(other) => return Err(format!("option \"preset\" must be a name, not {other}")),
    };
    let Some(preset) = presets.get(preset_name) else {
        let known: Vec<&str> = presets.keys().map(String::as_str).collect();
        return Err(format!("unknown option preset \"{preset_name}\"; known: {}", known.join(", ")));
    };
    let mut merged = match serde_json::to_value(preset) {
        Ok(Value::Object(m)) => m,
        _ => return Err("the option preset could not be read".into()),
    };
    for (key, value) in obj {
        if key == "preset" {
            continue;
        }
        if !merged.contains_key(key) {
            let known: Vec<&str> = merged.keys().map(String::as_str).collect();
            return Err(format!("unknown 1835 option \"{key}\"; known: preset, {}", known.join(", ")));
        }
        merged.insert(key.clone(), value.clone());
    }
    let options: Options =
        serde_json::from_value(Value::Object(merged)).map_err(|e| format!("bad 1835 option: {e}"))?;
    check(&options)?;
    Ok(options)
}

/// Values the rules allow for the numeric options.
pub fn check(o: &Options) -> Result<(), String> {
    if ![20, 50].contains(&o.by_float_percent) {
        return Err(format!("option by_float_percent must be 50 or 20, not {}", o.by_float_percent));
    }
    if !(1..=4).contains(&o.rounds_per_turn) {
        return Err(format!("option rounds_per_turn must be 1 to 4, not {}", o.rounds_per_turn));
    }
    if ![20, 30].contains(&o.ld_income) {
        return Err(format!("option ld_income must be 20 or 30, not {}", o.ld_income));
    }
    Ok(())
}

#[cfg(test)]
mod spec_tests {
    use super::*;

    #[test]
    fn the_form_lists_the_keys_the_presets_hold_and_each_choice_sets_up_a_game() {
        let presets = &super::super::shared().expect("1835 data").data.presets;
        let pbem = serde_json::to_value(presets[DEFAULT_PRESET]).expect("options as JSON");
        for spec in SPECS.iter().filter(|s| s.name != "preset") {
            assert!(pbem.get(spec.name).is_some(), "{} is a key of the presets", spec.name);
        }
        for spec in SPECS {
            for word in spec.choices() {
                let given = serde_json::json!({ spec.name: word });
                assert!(resolve(presets, &given).is_ok(), "{} = {word}", spec.name);
            }
        }
    }
}
