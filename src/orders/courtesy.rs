//! Courtesy words on an order sheet (HR 16, RULING S1): "please", "thanks", greetings and
//! sign-offs are not orders and not errors. A line made only of them is ignored with a note; a
//! line the order language cannot read as written but can once a leading greeting or a trailing
//! "please"/"thanks" is taken off ("One round please") is read without them, with a note. Words
//! are only taken off a line the language could not read, so no order word is ever lost to this.

/// Words that make a line a courtesy when every word of it is one of these (and one of
/// [`CORE`]): "Thanks a lot", "Hi all", "Best regards", "Thank you very much".
const FILLERS: &[&str] = &[
    "a", "all", "and", "as", "always", "dear", "everyone", "for", "gm", "in", "kind", "lot", "many", "much",
    "so", "very", "warm", "you", "your", "advance", "good", "luck", "have", "fun", "again",
];

/// The words that carry the courtesy: a line of fillers alone ("all you") is no courtesy.
const CORE: &[&str] = &[
    "please",
    "pls",
    "plz",
    "kindly",
    "thanks",
    "thank",
    "thx",
    "ty",
    "cheers",
    "regards",
    "best",
    "wishes",
    "greetings",
    "hi",
    "hello",
    "hey",
    "bye",
    "ciao",
    "yours",
    "sincerely",
    "danke",
    "bitte",
    "merci",
    "gruss",
    "gruß",
    "grüße",
    "grüsse",
];

/// Words taken off the start of an unreadable line ("Please BUY 1 BY", "Hi GM, PASS").
const LEADING: &[&str] = &["please", "pls", "plz", "kindly", "hi", "hello", "hey", "dear", "gm", "bitte"];

/// Words taken off the end of an unreadable line ("ONE ROUND please", "PASS, thanks").
const TRAILING: &[&str] =
    &["please", "pls", "plz", "thanks", "thank", "you", "thx", "ty", "cheers", "bitte", "danke"];

/// Whether `word` (lower case, no punctuation) is a courtesy word ("thanks", "regards", "hi"…):
/// the one list the mail's sign-off (`inbound_mail::signoff`, RULING M5) shares with HR 16.
pub fn is_courtesy_word(word: &str) -> bool {
    CORE.contains(&word)
}

/// A word as compared: lower case, without the punctuation around it.
fn bare(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()
}

/// Whether a whole line is a courtesy ("Thanks!", "Hi all,", "Best regards").
pub fn is_courtesy(line: &str) -> bool {
    let words: Vec<String> = line.split_whitespace().map(bare).filter(|w| !w.is_empty()).collect();
    !words.is_empty()
        && words.iter().all(|w| CORE.contains(&w.as_str()) || FILLERS.contains(&w.as_str()))
        && words.iter().any(|w| CORE.contains(&w.as_str()))
}

/// A line with its courtesy words taken off its ends, and the words taken off; `None` when
/// there are none to take off, or nothing would be left.
pub fn strip(line: &str) -> Option<(String, Vec<String>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let lead = words.iter().take_while(|w| LEADING.contains(&bare(w).as_str())).count();
    let trail = words[lead..].iter().rev().take_while(|w| TRAILING.contains(&bare(w).as_str())).count();
    if lead + trail == 0 || lead + trail >= words.len() {
        return None;
    }
    let kept = &words[lead..words.len() - trail];
    let mut text = kept.join(" ");
    // "PASS, thanks" leaves "PASS,": the comma belonged to the courtesy.
    if trail > 0 {
        text = text.trim_end_matches([',', ';', '-']).trim_end().to_string();
    }
    if lead > 0 {
        text = text.trim_start_matches([',', ';', '-', ':']).trim_start().to_string();
    }
    let dropped = words[..lead].iter().chain(&words[words.len() - trail..]).map(|w| w.to_string()).collect();
    (!text.is_empty()).then_some((text, dropped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn house_rule_16_greetings_thanks_and_sign_offs_are_courtesies() {
        for line in ["Thanks!", "thank you very much", "Hi all,", "Best regards", "Cheers", "Danke"] {
            assert!(is_courtesy(line), "{line}");
        }
    }

    #[test]
    fn house_rule_16_a_line_with_an_order_word_or_fillers_alone_is_no_courtesy() {
        for line in
            ["PASS", "BUY 1 BY please", "all you", "and pick up some Bay if it gets cheap, thanks", ""]
        {
            assert!(!is_courtesy(line), "{line}");
        }
    }

    #[test]
    fn house_rule_16_please_and_thanks_come_off_the_ends_of_a_line() {
        assert_eq!(strip("One round please"), Some(("One round".into(), vec!["please".into()])));
        assert_eq!(strip("PASS, thanks"), Some(("PASS".into(), vec!["thanks".into()])));
        assert_eq!(strip("Hi GM, BUY 1 BY"), Some(("BUY 1 BY".into(), vec!["Hi".into(), "GM,".into()])));
        assert_eq!(
            strip("Please SELL 1 SX thank you"),
            Some(("SELL 1 SX".into(), vec!["Please".into(), "thank".into(), "you".into()]))
        );
    }

    #[test]
    fn house_rule_16_nothing_comes_off_a_line_without_courtesies_or_made_only_of_them() {
        assert_eq!(strip("BUY 1 BY"), None);
        assert_eq!(strip("please thanks"), None);
        assert_eq!(strip("and pick up some Bay if it gets cheap"), None);
    }
}
