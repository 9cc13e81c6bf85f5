//! Tests of `sealing`: what a stored message keeps of its reply addresses and `ORDERS` tokens.

use super::*;

const GAME: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaa";
const TAG: &str = "bcdefghijklmnop2";
const TOKEN: &str = "abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst";

fn text(f: &ForStorage<'_>) -> String {
    String::from_utf8(f.raw.to_vec()).unwrap()
}

#[test]
fn a_reply_address_keeps_its_shape_and_loses_its_tag_everywhere_it_is_written() {
    let to = format!("orders+{GAME}-3.{TAG}@play.sm.test");
    let mail = format!(
        "To: A <{}>\r\nDelivered-To: {to}\r\nSubject: x\r\n\r\nCLAIM 9D EAST\r\n> Reply-To: {to}\r\n",
        to.to_uppercase()
    );
    let stored = for_storage(mail.as_bytes(), Some(&to));
    let placeholder = stored.sealed.clone().seal(TAG);
    let want = mail.replace(TAG, &placeholder).replace(&TAG.to_uppercase(), &placeholder);
    assert_eq!(text(&stored), want, "the tag is replaced and nothing else changed");
    assert!(!text(&stored).to_lowercase().contains(TAG));
    let sealed_to = format!("orders+{GAME}-3.{placeholder}@play.sm.test");
    assert_eq!(stored.envelope_to.as_deref(), Some(sealed_to.as_str()));
    assert!(stored.sealed.holds(&placeholder, TAG));
}

#[test]
fn a_gm_reply_address_is_sealed_too() {
    let mail = format!("To: gm+{GAME}.{TAG}@play.sm.test\r\n\r\nANSWER 1 2\r\n");
    let stored = for_storage(mail.as_bytes(), None);
    assert!(!text(&stored).contains(TAG));
    let placeholder = stored.sealed.clone().seal(TAG);
    assert!(text(&stored).contains(&format!("gm+{GAME}.{placeholder}@play.sm.test")));
}

#[test]
fn an_orders_line_token_is_sealed_quoted_or_not_and_read_back_as_its_placeholder() {
    let game = "0192f0c4-0000-7000-8000-000000000001";
    let mail = format!(
        "From: b@example.org\r\nSubject: x\r\n\r\nORDERS {game} 2 {}\r\nCLAIM 9D EAST\r\n\r\n> orders {game} 2 {TOKEN}\r\n",
        TOKEN.to_uppercase()
    );
    let stored = for_storage(mail.as_bytes(), None);
    let got = text(&stored);
    assert!(!got.to_lowercase().contains(TOKEN), "{got}");
    let parsed = ParsedMail::parse(&stored.raw, None);
    let read = MailCommands::parse(&parsed.body).token.unwrap().token;
    assert!(stored.sealed.is_placeholder(&read));
    assert_eq!(stored.sealed.digest(&read), crate::domain::SecretToken::presented(TOKEN).hash());
}

#[test]
fn a_token_split_by_a_soft_line_break_or_in_a_base64_part_is_sealed() {
    let (a, b) = TOKEN.split_at(30);
    let qp = format!(
        "Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nORDERS g 1 {a}=\r\n{b}\r\n"
    );
    let stored = for_storage(qp.as_bytes(), None);
    assert!(!text(&stored).contains(b), "{}", text(&stored));
    assert!(!stored.sealed.is_empty());

    let body = data_encoding::BASE64.encode(format!("ORDERS g 1 {TOKEN}\r\nCLAIM 9D EAST\r\n").as_bytes());
    let b64 = format!(
        "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\
         Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n{body}\r\n--b--\r\n"
    );
    let stored = for_storage(b64.as_bytes(), None);
    let parsed = ParsedMail::parse(&stored.raw, None);
    assert!(!parsed.body.contains(TOKEN));
    let read = MailCommands::parse(&parsed.body).token.unwrap().token;
    assert!(stored.sealed.holds(&read, TOKEN));
}

#[test]
fn a_token_only_the_parser_finds_is_sealed_where_it_stands() {
    // HTML-only: the line is `ORDERS g 1 <b>TOKEN</b>`, no blank before the token.
    let mail = format!("Content-Type: text/html\r\n\r\n<p>ORDERS g 1<b> {TOKEN}</b></p>\r\n");
    let stored = for_storage(mail.as_bytes(), None);
    assert!(!text(&stored).contains(TOKEN), "{}", text(&stored));
    let parsed = ParsedMail::parse(&stored.raw, None);
    let read = MailCommands::parse(&parsed.body).token.unwrap().token;
    assert!(stored.sealed.holds(&read, TOKEN));
}

#[test]
fn a_placeholder_copied_into_a_new_mail_is_sealed_again_and_stands_for_nothing() {
    let mut earlier = SealedSecrets::default();
    let copied = earlier.seal(TAG);
    let mail = format!("To: orders+{GAME}-3.{copied}@play.sm.test\r\n\r\nCLAIM 9D EAST\r\n");
    let stored = for_storage(mail.as_bytes(), None);
    let parsed = ParsedMail::parse(&stored.raw, None);
    let read = crate::domain::ReplyAddress::parse(&parsed.recipients[0]).unwrap().tag;
    assert_ne!(read, copied);
    assert!(!stored.sealed.holds(&read, TAG), "it stands for the placeholder, not the tag");
}

#[test]
fn mail_without_secrets_is_stored_as_it_came() {
    let mail = b"To: orders@play.sm.test\r\nSubject: my orders\r\n\r\nORDERS to follow\r\nCLAIM 9D EAST\r\n";
    let stored = for_storage(mail, Some("orders@play.sm.test"));
    assert!(matches!(stored.raw, Cow::Borrowed(_)));
    assert!(stored.sealed.is_empty());
}
