//! HTML-only mail to text, by the document's block structure: every block element (`div`, `p`,
//! `li`, `tr`, headings, `pre`, …) and every `<br>` ends a line, so `<div>CLAIM 2H NORTH</div>
//! <div>FINAL</div>` is two lines, as the player saw it. Quoted earlier messages are written as
//! a mail program writes them in plain text, each line starting with `> `, so that the text
//! below or between them stays the player's (RULING M20): `<blockquote>`, and the containers
//! mail programs put quotes and forwards in (Gmail's `gmail_quote`, Thunderbird's
//! `moz-cite-prefix` and `moz-forward-container`, Yahoo's `yahoo_quoted`, Outlook's
//! `mail-editor-reference-message-container`; from Outlook's `divRplyFwdMsg`, `appendonsend` or
//! `OutlookMessageHeader` on, the rest of the mail is the quote). A signature container
//! (`gmail_signature`, `moz-signature`, Outlook's `Signature`, `AppleMailSignature`) starts
//! with a `-- ` line. `head`, `style`, `script` and `title` are not text. Pure: no I/O, never
//! fails.

/// Elements whose start and end each end a line.
#[rustfmt::skip]
const BLOCKS: &[&str] = &[
    "address", "article", "aside", "blockquote", "center", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "tfoot", "thead", "tr",
    "ul",
];

/// Elements whose content is not text the player wrote.
const NOT_TEXT: &[&str] = &["head", "script", "style", "title", "template"];

/// Elements without content (never closed).
const VOID: &[&str] = &["br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"];

/// The text of an HTML body, one line per block, quoted lines starting with `> `.
pub fn html_to_text(html: &str) -> String {
    let mut w = Writer::default();
    // The element being skipped (`head`, `style`, …) and how deep in same-named elements we are.
    let mut skip: Option<(String, usize)> = None;
    // The quote containers open (each with how deep in same-named elements we are in it), and
    // whether an Outlook marker made the rest of the mail the quote.
    let mut quotes: Vec<(String, usize)> = Vec::new();
    let mut rest_quoted = false;
    let mut pre = 0usize;
    let mut rest = html;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            if skip.is_none() {
                w.text(rest, pre > 0);
            }
            break;
        };
        if skip.is_none() {
            w.text(&rest[..lt], pre > 0);
        }
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            continue;
        }
        let Some(tag) = Tag::read(rest) else {
            if skip.is_none() {
                w.text("<", pre > 0);
            }
            rest = &rest[1..];
            continue;
        };
        rest = &rest[tag.len..];
        if tag.name.is_empty() {
            continue; // <!DOCTYPE …>, <?xml …?>
        }
        if let Some((name, depth)) = &mut skip {
            if tag.name == *name && !tag.self_closing {
                if tag.closing {
                    *depth -= 1;
                } else {
                    *depth += 1;
                }
            }
            if *depth == 0 {
                skip = None;
            }
            continue;
        }
        if tag.closing {
            if let Some((name, depth)) = quotes.last_mut()
                && *name == tag.name
            {
                *depth -= 1;
                if *depth == 0 {
                    quotes.pop();
                    w.end_line();
                    w.quoted = rest_quoted || !quotes.is_empty();
                }
            }
            if tag.name == "pre" {
                pre = pre.saturating_sub(1);
            }
            if BLOCKS.contains(&tag.name.as_str()) {
                w.end_line();
            } else if matches!(tag.name.as_str(), "td" | "th") {
                w.space = true;
            }
            continue;
        }
        let opens = !tag.self_closing && !VOID.contains(&tag.name.as_str());
        match quote(&tag) {
            Some(Quote::RestOfMail) => {
                w.end_line();
                rest_quoted = true;
                w.quoted = true;
            }
            Some(Quote::Element) if opens => {
                w.end_line();
                quotes.push((tag.name.clone(), 1));
                w.quoted = true;
            }
            _ => {
                if opens
                    && let Some((name, depth)) = quotes.last_mut()
                    && *name == tag.name
                {
                    *depth += 1;
                }
            }
        }
        if opens && !w.quoted && is_signature(&tag) {
            w.signature();
        }
        if NOT_TEXT.contains(&tag.name.as_str()) && !tag.self_closing {
            if matches!(tag.name.as_str(), "script" | "style") {
                // Raw text: skip straight to the end tag (its content may hold '<').
                let end = format!("</{}", tag.name);
                rest = find_ignore_case(rest, &end).map_or("", |i| &rest[i..]);
            }
            skip = Some((tag.name.clone(), 1));
            continue;
        }
        match tag.name.as_str() {
            "br" => w.new_line(),
            "pre" if !tag.self_closing => {
                w.end_line();
                pre += 1;
            }
            "td" | "th" => w.space = true,
            name if BLOCKS.contains(&name) => w.end_line(),
            _ => {}
        }
    }
    let lines: Vec<&str> = w.out.split('\n').map(str::trim_end).collect();
    lines.join("\n").trim_matches('\n').to_string()
}

/// How far a quote container quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quote {
    /// The element and its content.
    Element,
    /// The element and everything after it (Outlook puts the quote after a marker).
    RestOfMail,
}

fn quote(tag: &Tag) -> Option<Quote> {
    let id = tag.id.as_str();
    if ["divrplyfwdmsg", "appendonsend"].iter().any(|m| id.eq_ignore_ascii_case(m))
        || tag.has_class("OutlookMessageHeader")
    {
        return Some(Quote::RestOfMail);
    }
    let element = tag.name == "blockquote"
        || id.eq_ignore_ascii_case("mail-editor-reference-message-container")
        || ["gmail_quote", "gmail_attr", "moz-cite-prefix", "moz-forward-container", "yahoo_quoted"]
            .iter()
            .any(|c| tag.has_class(c));
    element.then_some(Quote::Element)
}

/// Whether an element holds the sender's signature.
fn is_signature(tag: &Tag) -> bool {
    ["signature", "applemailsignature"].iter().any(|m| tag.id.eq_ignore_ascii_case(m))
        || ["gmail_signature", "moz-signature"].iter().any(|c| tag.has_class(c))
}

/// The text being written, with white space folded as a browser does.
#[derive(Default)]
struct Writer {
    out: String,
    /// White space seen since the last character written (written as one space before the next).
    space: bool,
    /// Whether the lines now written are quoted (each starts with `> `).
    quoted: bool,
}

impl Writer {
    fn text(&mut self, raw: &str, pre: bool) {
        let text = decode_entities(raw);
        if pre {
            for c in text.replace("\r\n", "\n").replace('\r', "\n").chars() {
                self.push(c);
            }
            self.space = false;
            return;
        }
        for c in text.chars() {
            if c.is_whitespace() {
                self.space = true;
                continue;
            }
            if self.space && !self.out.is_empty() && !self.out.ends_with('\n') {
                self.out.push(' ');
            }
            self.space = false;
            self.push(c);
        }
    }

    /// One character, after the `> ` of a quoted line when it starts one.
    fn push(&mut self, c: char) {
        if self.quoted && c != '\n' && (self.out.is_empty() || self.out.ends_with('\n')) {
            self.out.push_str("> ");
        }
        self.out.push(c);
    }

    /// A `<br>`: always a new line (two in a row make an empty line).
    fn new_line(&mut self) {
        self.out.push('\n');
        self.space = false;
    }

    /// A block boundary: a new line unless the text already is at the start of one.
    fn end_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        self.space = false;
    }

    /// A signature's start: a `-- ` line, unless the signature wrote its own.
    fn signature(&mut self) {
        self.end_line();
        if self.out.trim_end().rsplit('\n').next().is_none_or(|l| l.trim() != "--") {
            self.out.push_str("-- \n");
        }
    }
}

/// A tag read from the text: its lower-case name, whether it closes, and the attributes that
/// mark quotes.
#[derive(Debug, Default)]
struct Tag {
    /// Empty for `<!…>` and `<?…>`.
    name: String,
    closing: bool,
    self_closing: bool,
    class: String,
    id: String,
    /// Bytes of the input the tag takes, `<` to `>`.
    len: usize,
}

impl Tag {
    /// Whether the tag's `class` names `c` (without case).
    fn has_class(&self, c: &str) -> bool {
        self.class.split_whitespace().any(|x| x.eq_ignore_ascii_case(c))
    }

    /// The tag at the start of `s` (which starts with `<`); `None` when the `<` starts no tag.
    fn read(s: &str) -> Option<Tag> {
        let b = s.as_bytes();
        let mut i = 1;
        let mut tag = Tag::default();
        match b.get(i) {
            Some(b'!' | b'?') => {
                tag.len = s.find('>').map_or(s.len(), |e| e + 1);
                return Some(tag);
            }
            Some(b'/') => {
                tag.closing = true;
                i += 1;
            }
            _ => {}
        }
        let start = i;
        while b.get(i).is_some_and(|c| c.is_ascii_alphanumeric()) {
            i += 1;
        }
        if i == start || !b[start].is_ascii_alphabetic() {
            return None;
        }
        tag.name = s[start..i].to_ascii_lowercase();
        // Attributes up to the closing '>', with quoted values (which may hold '>').
        let mut attrs = Vec::new();
        loop {
            while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
                i += 1;
            }
            match b.get(i) {
                None => break,
                Some(b'>') => {
                    i += 1;
                    break;
                }
                Some(b'/') => {
                    tag.self_closing = b.get(i + 1) == Some(&b'>');
                    i += 1;
                    continue;
                }
                _ => {}
            }
            let name_start = i;
            while b.get(i).is_some_and(|&c| !c.is_ascii_whitespace() && !matches!(c, b'=' | b'>' | b'/')) {
                i += 1;
            }
            if i == name_start {
                i += 1; // a stray character
                continue;
            }
            let name = s[name_start..i].to_ascii_lowercase();
            let mut value = "";
            if b.get(i) == Some(&b'=') {
                i += 1;
                match b.get(i) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let end = s[i + 1..].find(q as char).map_or(s.len(), |e| i + 1 + e);
                        value = &s[i + 1..end];
                        i = (end + 1).min(s.len());
                    }
                    _ => {
                        let v = i;
                        while b.get(i).is_some_and(|c| !c.is_ascii_whitespace() && *c != b'>') {
                            i += 1;
                        }
                        value = &s[v..i];
                    }
                }
            }
            attrs.push((name, value));
        }
        for (name, value) in attrs {
            match name.as_str() {
                "class" => tag.class = value.to_string(),
                "id" => tag.id = value.to_string(),
                _ => {}
            }
        }
        tag.len = i;
        Some(tag)
    }
}

fn find_ignore_case(hay: &str, needle: &str) -> Option<usize> {
    hay.as_bytes().windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and numeric references; anything else is
/// left as it is.
fn decode_entities(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('&') {
        return s.into();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let decoded = rest[1..].find(';').filter(|&e| e <= 10).and_then(|e| {
            let name = &rest[1..1 + e];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some(' '),
                _ => name.strip_prefix('#').and_then(|n| {
                    let code = match n.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok(),
                        None => n.parse().ok(),
                    };
                    code.and_then(char::from_u32)
                }),
            };
            c.map(|c| (c, e + 2))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

#[cfg(test)]
mod tests;
