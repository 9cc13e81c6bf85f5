//! The mail corpus (tests/mail_corpus/): raw mails as the common mail programs write them —
//! Gmail, Outlook (desktop and web), Apple Mail (Mac and iPhone), Thunderbird, mutt — replying
//! above a quote, below it, between quoted lines, in HTML only, and forwarding. Every `.eml`
//! has a sidecar `.expected` with what must be read out of it, checked exactly:
//!
//! ```text
//! [orders]
//! the player's own lines, in order, blank lines left out (a sign-off such as "Anna" is
//! still here: RULING M5 takes it off later, by the echo)
//! [set aside]
//! quote 1-24           one run per line: its kind (quote, forwarded, signature) and lines
//! ```

use stationmaster::inbound_mail::{Aside, ParsedMail, html_to_text};
use std::path::{Path, PathBuf};

/// What a sidecar says and what was read, in the sidecar's own form.
#[derive(Debug, PartialEq, Eq)]
struct Reading {
    orders: Vec<String>,
    set_aside: Vec<String>,
}

fn read_mail(raw: &[u8]) -> Reading {
    let mail = ParsedMail::parse(raw, None);
    let kind = |a: Aside| match a {
        Aside::Quote => "quote",
        Aside::Forwarded => "forwarded",
        Aside::Signature => "signature",
    };
    Reading {
        orders: mail.body.lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect(),
        set_aside: mail
            .set_aside
            .iter()
            .map(|s| format!("{} {}-{}", kind(s.aside), s.first, s.last))
            .collect(),
    }
}

/// The text the line numbers count, numbered: the plain part, else the HTML part as text (shown
/// when a mail reads otherwise, to write or mend its sidecar).
fn numbered_text(raw: &[u8]) -> String {
    let Some(m) = mail_parser::MessageParser::default().parse(raw) else { return String::new() };
    let text = match m.body_html(0) {
        Some(html) if m.text_part(0).is_none_or(|p| p.is_text_html()) => html_to_text(&html),
        _ => m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
    };
    text.replace("\r\n", "\n").lines().enumerate().map(|(i, l)| format!("  {:>3} {l}\n", i + 1)).collect()
}

fn read_sidecar(path: &Path) -> Reading {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut orders, mut set_aside) = (Vec::new(), Vec::new());
    let mut section = None;
    for line in text.lines() {
        match line.trim_end() {
            "[orders]" => section = Some(&mut orders),
            "[set aside]" => section = Some(&mut set_aside),
            "" => {}
            l => section
                .as_mut()
                .unwrap_or_else(|| panic!("{}: a line before [orders]", path.display()))
                .push(l.to_string()),
        }
    }
    Reading { orders, set_aside }
}

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail_corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_mail_of_the_corpus_reads_as_its_sidecar_says() {
    let files = corpus();
    assert!(files.len() >= 40, "the corpus is there: {} mails", files.len());
    let mut wrong = Vec::new();
    for eml in &files {
        let raw = std::fs::read(eml).unwrap();
        let expected = read_sidecar(&eml.with_extension("expected"));
        let got = read_mail(&raw);
        if got != expected {
            wrong.push(format!(
                "{}:\n  expected {expected:?}\n  got      {got:?}\n{}",
                eml.display(),
                numbered_text(&raw)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} mails read otherwise:\n{}",
        wrong.len(),
        files.len(),
        wrong.join("\n")
    );
}

#[test]
fn every_client_and_style_is_in_the_corpus() {
    let names: Vec<String> =
        corpus().iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    for client in ["gmail", "outlook_desktop", "outlook_web", "apple_mail", "iphone", "thunderbird", "mutt"] {
        assert!(names.iter().any(|n| n.starts_with(client)), "no mail from {client}");
    }
    for style in ["top", "bottom", "inline", "html_only", "forward"] {
        assert!(names.iter().any(|n| n.contains(style)), "no mail in the style {style}");
    }
}
