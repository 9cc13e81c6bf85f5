//! Chat webhook URLs (Discord/Slack-compatible incoming webhooks), parsed at the edge, and the
//! address screen that keeps the server from being used to reach private networks (SSRF).
//!
//! A URL is accepted only as `https://host[:port]/path` (plain `http` only where the operator
//! allows private targets, for a LAN chat server or tests), without user information, with a
//! host name or a public IP literal. Names are resolved at delivery time and every address is
//! screened again there ([`is_public`]), and the connection goes to the screened address, so a
//! name that later resolves to a private address (DNS rebinding) is refused too.
//!
//! The URL is its owner's secret (it carries the chat service's token): [`WebhookUrl`] shows
//! itself only masked ([`WebhookUrl::masked`]) in `Debug` and `Display`.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use url::Url;

/// The longest URL accepted (Discord's and Slack's are about 120 characters).
pub const MAX_LEN: usize = 2048;

/// A webhook URL that passed the checks of this module.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookUrl(Url);

/// Why a URL is not accepted as a webhook, in words the owner can act on (never quoting it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookUrlError {
    #[error("the webhook address is not a URL")]
    NotUrl,
    #[error("the webhook address is longer than {MAX_LEN} characters")]
    TooLong,
    #[error("the webhook address must start with https://")]
    NotHttps,
    #[error("the webhook address must not hold a user name or password")]
    UserInfo,
    #[error("the webhook address has no host")]
    NoHost,
    #[error("the webhook address points to a private, loopback or reserved network")]
    Private,
}

impl WebhookUrl {
    /// Parses and checks `raw`; `allow_private` also admits `http://` and private or loopback
    /// targets (an operator's setting for a chat server on the LAN, and the tests).
    pub fn parse(raw: &str, allow_private: bool) -> Result<WebhookUrl, WebhookUrlError> {
        let raw = raw.trim();
        if raw.len() > MAX_LEN {
            return Err(WebhookUrlError::TooLong);
        }
        let url = Url::parse(raw).map_err(|_| WebhookUrlError::NotUrl)?;
        match url.scheme() {
            "https" => {}
            "http" if allow_private => {}
            _ => return Err(WebhookUrlError::NotHttps),
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(WebhookUrlError::UserInfo);
        }
        match url.host() {
            None => return Err(WebhookUrlError::NoHost),
            Some(url::Host::Domain(d)) if !allow_private && is_local_name(d) => {
                return Err(WebhookUrlError::Private);
            }
            Some(url::Host::Ipv4(ip)) if !allow_private && !is_public(IpAddr::V4(ip)) => {
                return Err(WebhookUrlError::Private);
            }
            Some(url::Host::Ipv6(ip)) if !allow_private && !is_public(IpAddr::V6(ip)) => {
                return Err(WebhookUrlError::Private);
            }
            Some(_) => {}
        }
        Ok(WebhookUrl(url))
    }

    /// The URL as stored and used for delivery (never for display).
    pub fn expose(&self) -> &Url {
        &self.0
    }

    /// The URL as it may be shown back to its owner: scheme, host and the last four characters
    /// of the path, e.g. `https://discord.com/…x9Qz`.
    pub fn masked(&self) -> String {
        let host = self.0.host_str().unwrap_or("");
        let path = self.0.path();
        let tail: String = path.chars().rev().take(4).collect::<Vec<_>>().into_iter().rev().collect();
        format!("{}://{host}/…{tail}", self.0.scheme())
    }
}

impl fmt::Debug for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WebhookUrl({})", self.masked())
    }
}

impl fmt::Display for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.masked())
    }
}

/// Names that mean this machine or its local network whatever DNS says.
fn is_local_name(host: &str) -> bool {
    let h = host.trim_end_matches('.').to_ascii_lowercase();
    h == "localhost" || h.ends_with(".localhost") || h.ends_with(".local") || h.ends_with(".internal")
}

/// Whether an address is on the public internet: not loopback, private, link-local, shared
/// (CGNAT), unspecified, broadcast, multicast, documentation, benchmarking or reserved, and the
/// same for IPv6 (unique-local, link-local, and IPv4 addresses mapped or translated into IPv6).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space (RFC 6598)
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // benchmarking (RFC 2544)
        || a >= 240) // reserved
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let s = ip.segments();
    // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits.
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        let [a, b] = s[6].to_be_bytes();
        let [c, d] = s[7].to_be_bytes();
        return is_public_v4(Ipv4Addr::new(a, b, c, d));
    }
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00 // unique local
        || (s[0] & 0xffc0) == 0xfe80 // link local
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || s[0..6] == [0, 0, 0, 0, 0, 0]) // IPv4-compatible (deprecated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_https_webhook_is_accepted_and_shown_back_masked() {
        let u = WebhookUrl::parse("https://discord.com/api/webhooks/123/abcdEFGHx9Qz", false).unwrap();
        assert_eq!(u.masked(), "https://discord.com/…x9Qz");
        assert!(!format!("{u:?} {u}").contains("abcdEFGH"));
    }

    #[test]
    fn a_plain_http_webhook_is_refused_unless_private_targets_are_allowed() {
        assert_eq!(WebhookUrl::parse("http://hooks.example.org/x", false), Err(WebhookUrlError::NotHttps));
        assert!(WebhookUrl::parse("http://127.0.0.1:9/x", true).is_ok());
    }

    #[test]
    fn loopback_private_and_local_targets_are_refused() {
        for raw in [
            "https://127.0.0.1/x",
            "https://10.1.2.3/x",
            "https://192.168.0.10/x",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/x",
            "https://[::1]/x",
            "https://[fd00::1]/x",
            "https://[::ffff:10.0.0.1]/x",
            "https://localhost/x",
            "https://metadata.google.internal/x",
            "https://0.0.0.0/x",
        ] {
            assert_eq!(WebhookUrl::parse(raw, false), Err(WebhookUrlError::Private), "{raw}");
        }
    }

    #[test]
    fn user_information_other_schemes_and_garbage_are_refused() {
        assert_eq!(WebhookUrl::parse("https://u:p@example.org/x", false), Err(WebhookUrlError::UserInfo));
        assert_eq!(WebhookUrl::parse("ftp://example.org/x", false), Err(WebhookUrlError::NotHttps));
        assert_eq!(WebhookUrl::parse("not a url", false), Err(WebhookUrlError::NotUrl));
        let long = format!("https://example.org/{}", "a".repeat(MAX_LEN));
        assert_eq!(WebhookUrl::parse(&long, false), Err(WebhookUrlError::TooLong));
    }

    #[test]
    fn public_addresses_pass_the_screen_and_private_ones_do_not() {
        assert!(is_public("162.159.135.232".parse().unwrap()));
        assert!(is_public("2606:4700::6810:84e5".parse().unwrap()));
        assert!(!is_public("64:ff9b::a00:1".parse().unwrap()));
        assert!(!is_public("198.18.0.1".parse().unwrap()));
        assert!(!is_public("fe80::1".parse().unwrap()));
    }
}
