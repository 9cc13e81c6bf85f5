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

/// Whether an address is on the public internet: in no row of the IANA special-purpose address
/// registries ([`V4_SPECIAL`], [`V6_SPECIAL`]) — whatever their "globally reachable" column says,
/// none of them is a place for a chat webhook — except that an IPv6 address embedding an IPv4
/// one (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) is judged by the IPv4 address it
/// carries; and, for IPv6, in the global unicast space (2000::/3).
pub fn is_public(ip: IpAddr) -> bool {
    special_purpose(ip).is_none()
}

/// One row of an address registry: a prefix and its length, the row's name, and (IPv6) where an
/// embedded IPv4 address sits.
struct Row<T> {
    prefix: T,
    len: u8,
    name: &'static str,
    embeds: Embeds,
}

/// Where an IPv6 prefix carries an IPv4 address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Embeds {
    /// Nothing: an address in the row is refused.
    Nothing,
    /// The last 32 bits (IPv4-mapped, IPv4-compatible, NAT64 /96).
    Last32,
    /// Bits 16–47 (6to4, RFC 3056).
    SixToFour,
    /// The server in bits 32–63 and the client, inverted, in the last 32 bits (RFC 4380).
    Teredo,
}

const fn v4(a: u8, b: u8, c: u8, d: u8, len: u8, name: &'static str) -> Row<u32> {
    Row { prefix: Ipv4Addr::new(a, b, c, d).to_bits(), len, name, embeds: Embeds::Nothing }
}

const fn v6(s: [u16; 8], len: u8, name: &'static str, embeds: Embeds) -> Row<u128> {
    let ip = Ipv6Addr::new(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
    Row { prefix: ip.to_bits(), len, name, embeds }
}

/// The IANA IPv4 Special-Purpose Address Registry, one entry a row (as of 2025), and, last,
/// multicast from the IPv4 Address Space registry.
const V4_SPECIAL: &[Row<u32>] = &[
    v4(0, 0, 0, 0, 8, "\"This network\" (RFC 791)"),
    v4(0, 0, 0, 0, 32, "\"This host on this network\" (RFC 1122)"),
    v4(10, 0, 0, 0, 8, "Private-Use (RFC 1918)"),
    v4(100, 64, 0, 0, 10, "Shared Address Space (RFC 6598)"),
    v4(127, 0, 0, 0, 8, "Loopback (RFC 1122)"),
    v4(169, 254, 0, 0, 16, "Link Local (RFC 3927)"),
    v4(172, 16, 0, 0, 12, "Private-Use (RFC 1918)"),
    v4(192, 0, 0, 0, 24, "IETF Protocol Assignments (RFC 6890)"),
    v4(192, 0, 0, 0, 29, "IPv4 Service Continuity Prefix (RFC 7335)"),
    v4(192, 0, 0, 8, 32, "IPv4 dummy address (RFC 7600)"),
    v4(192, 0, 0, 9, 32, "Port Control Protocol Anycast (RFC 7723)"),
    v4(192, 0, 0, 10, 32, "Traversal Using Relays around NAT Anycast (RFC 8155)"),
    v4(192, 0, 0, 170, 32, "NAT64/DNS64 Discovery (RFC 7050)"),
    v4(192, 0, 0, 171, 32, "NAT64/DNS64 Discovery (RFC 7050)"),
    v4(192, 0, 2, 0, 24, "Documentation (TEST-NET-1) (RFC 5737)"),
    v4(192, 31, 196, 0, 24, "AS112-v4 (RFC 7535)"),
    v4(192, 52, 193, 0, 24, "AMT (RFC 7450)"),
    v4(192, 88, 99, 0, 24, "Deprecated (6to4 Relay Anycast) (RFC 7526)"),
    v4(192, 168, 0, 0, 16, "Private-Use (RFC 1918)"),
    v4(192, 175, 48, 0, 24, "AS112 Direct Delegation (RFC 7534)"),
    v4(198, 18, 0, 0, 15, "Benchmarking (RFC 2544)"),
    v4(198, 51, 100, 0, 24, "Documentation (TEST-NET-2) (RFC 5737)"),
    v4(203, 0, 113, 0, 24, "Documentation (TEST-NET-3) (RFC 5737)"),
    v4(240, 0, 0, 0, 4, "Reserved (RFC 1112)"),
    v4(255, 255, 255, 255, 32, "Limited Broadcast (RFC 919)"),
    v4(224, 0, 0, 0, 4, "Multicast (RFC 5771)"),
];

/// The IANA IPv6 Special-Purpose Address Registry, one entry a row (as of 2025), and, last, what
/// the IPv6 Address Space registry adds: the deprecated IPv4-compatible and site-local forms and
/// multicast.
const V6_SPECIAL: &[Row<u128>] = &[
    v6([0, 0, 0, 0, 0, 0, 0, 1], 128, "Loopback Address (RFC 4291)", Embeds::Nothing),
    v6([0; 8], 128, "Unspecified Address (RFC 4291)", Embeds::Nothing),
    v6([0, 0, 0, 0, 0, 0xffff, 0, 0], 96, "IPv4-mapped Address (RFC 4291)", Embeds::Last32),
    v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96, "IPv4-IPv6 Translat. (RFC 6052)", Embeds::Last32),
    // Local use: the operator picks the prefix length, so where an IPv4 address sits is unknown.
    v6([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, "IPv4-IPv6 Translat. (RFC 8215)", Embeds::Nothing),
    v6([0x100, 0, 0, 0, 0, 0, 0, 0], 64, "Discard-Only Address Block (RFC 6666)", Embeds::Nothing),
    v6([0x100, 0, 0, 1, 0, 0, 0, 0], 64, "Dummy IPv6 Prefix (RFC 9780)", Embeds::Nothing),
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, "IETF Protocol Assignments (RFC 2928)", Embeds::Nothing),
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 32, "TEREDO (RFC 4380)", Embeds::Teredo),
    v6([0x2001, 1, 0, 0, 0, 0, 0, 1], 128, "Port Control Protocol Anycast (RFC 7723)", Embeds::Nothing),
    v6([0x2001, 1, 0, 0, 0, 0, 0, 2], 128, "TURN Anycast (RFC 8155)", Embeds::Nothing),
    v6([0x2001, 1, 0, 0, 0, 0, 0, 3], 128, "DNS-SD SRP Anycast (RFC 9665)", Embeds::Nothing),
    v6([0x2001, 2, 0, 0, 0, 0, 0, 0], 48, "Benchmarking (RFC 5180)", Embeds::Nothing),
    v6([0x2001, 3, 0, 0, 0, 0, 0, 0], 32, "AMT (RFC 7450)", Embeds::Nothing),
    v6([0x2001, 4, 0x112, 0, 0, 0, 0, 0], 48, "AS112-v6 (RFC 7535)", Embeds::Nothing),
    v6([0x2001, 0x10, 0, 0, 0, 0, 0, 0], 28, "Deprecated (previously ORCHID) (RFC 4843)", Embeds::Nothing),
    v6([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28, "ORCHIDv2 (RFC 7343)", Embeds::Nothing),
    v6([0x2001, 0x30, 0, 0, 0, 0, 0, 0], 28, "Drone Remote ID DETs Prefix (RFC 9374)", Embeds::Nothing),
    v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, "Documentation (RFC 3849)", Embeds::Nothing),
    v6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, "6to4 (RFC 3056)", Embeds::SixToFour),
    v6([0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0], 48, "AS112 Direct Delegation (RFC 7534)", Embeds::Nothing),
    v6([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, "Documentation (RFC 9637)", Embeds::Nothing),
    v6([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16, "Segment Routing (SRv6) SIDs (RFC 9602)", Embeds::Nothing),
    v6([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, "Unique-Local (RFC 4193)", Embeds::Nothing),
    v6([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, "Link-Local Unicast (RFC 4291)", Embeds::Nothing),
    v6([0; 8], 96, "IPv4-compatible, deprecated (RFC 4291)", Embeds::Last32),
    v6([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, "Site-local, deprecated (RFC 3879)", Embeds::Nothing),
    v6([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, "Multicast (RFC 4291)", Embeds::Nothing),
];

/// The most specific row holding `bits` (of a `width`-bit address), if any.
fn most_specific<T>(rows: &[Row<T>], bits: u128, width: u8, prefix: impl Fn(&T) -> u128) -> Option<&Row<T>> {
    let holds = |r: &&Row<T>| {
        let shift = u32::from(width - r.len);
        r.len == 0 || (bits ^ prefix(&r.prefix)).checked_shr(shift).unwrap_or(0) == 0
    };
    rows.iter().filter(holds).max_by_key(|r| r.len)
}

/// The registry row that keeps an address off the public internet, if one does (for an IPv6
/// address embedding an IPv4 one, the IPv4 address's row); see [`is_public`].
pub fn special_purpose(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => special_v4(v4),
        IpAddr::V6(v6) => special_v6(v6),
    }
}

fn special_v4(ip: Ipv4Addr) -> Option<&'static str> {
    most_specific(V4_SPECIAL, u128::from(ip.to_bits()), 32, |p| u128::from(*p)).map(|r| r.name)
}

fn special_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let bits = ip.to_bits();
    let v4 = |at: u32| Ipv4Addr::from_bits((bits >> at) as u32);
    let Some(row) = most_specific(V6_SPECIAL, bits, 128, |p| *p) else {
        // Outside every special row: public only in the global unicast space, 2000::/3.
        return (bits >> 125 != 1).then_some("outside Global Unicast 2000::/3 (IPv6 Address Space registry)");
    };
    match row.embeds {
        Embeds::Nothing => Some(row.name),
        Embeds::Last32 => special_v4(v4(0)),
        Embeds::SixToFour => special_v4(v4(80)),
        Embeds::Teredo => special_v4(v4(64)).or_else(|| special_v4(Ipv4Addr::from_bits(!(bits as u32)))),
    }
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

    /// The registry row that screens `ip`.
    fn row(ip: &str) -> Option<&'static str> {
        special_purpose(ip.parse().unwrap())
    }

    #[test]
    fn every_registry_row_is_a_prefix_of_its_length() {
        for r in V4_SPECIAL {
            assert!(r.len <= 32 && r.prefix.checked_shl(u32::from(r.len)).unwrap_or(0) == 0, "{}", r.name);
            assert_eq!(r.embeds, Embeds::Nothing, "{}", r.name);
        }
        for r in V6_SPECIAL {
            assert!(r.len <= 128 && r.prefix.checked_shl(u32::from(r.len)).unwrap_or(0) == 0, "{}", r.name);
        }
    }

    #[test]
    fn a_site_local_ipv6_address_is_refused() {
        assert_eq!(WebhookUrl::parse("https://[fec0::1]/x", false), Err(WebhookUrlError::Private));
        assert_eq!(row("fec0::1"), Some("Site-local, deprecated (RFC 3879)"));
    }

    #[test]
    fn a_6to4_address_is_judged_by_the_ipv4_address_it_carries() {
        assert_eq!(WebhookUrl::parse("https://[2002:7f00:1::]/x", false), Err(WebhookUrlError::Private));
        assert_eq!(row("2002:7f00:1::"), Some("Loopback (RFC 1122)"));
        assert_eq!(row("2002:a00:1::1"), Some("Private-Use (RFC 1918)"));
        assert_eq!(row("2002:a29f:87e8::1"), None, "6to4 of 162.159.135.232");
    }

    #[test]
    fn the_local_use_nat64_prefix_is_refused_whatever_it_carries() {
        assert_eq!(WebhookUrl::parse("https://[64:ff9b:1::7f00:1]/x", false), Err(WebhookUrlError::Private));
        assert_eq!(row("64:ff9b:1::a29f:87e8"), Some("IPv4-IPv6 Translat. (RFC 8215)"));
    }

    #[test]
    fn a_well_known_nat64_address_is_judged_by_the_ipv4_address_it_carries() {
        assert_eq!(row("64:ff9b::7f00:1"), Some("Loopback (RFC 1122)"));
        assert_eq!(row("64:ff9b::a9fe:a9fe"), Some("Link Local (RFC 3927)"));
        assert_eq!(row("64:ff9b::a29f:87e8"), None);
    }

    #[test]
    fn ipv4_mapped_and_ipv4_compatible_addresses_are_judged_by_their_ipv4_address() {
        assert_eq!(row("::ffff:127.0.0.1"), Some("Loopback (RFC 1122)"));
        assert_eq!(row("::ffff:162.159.135.232"), None);
        assert_eq!(row("::10.0.0.1"), Some("Private-Use (RFC 1918)"));
        assert_eq!(row("::162.159.135.232"), None);
        assert_eq!(row("::1"), Some("Loopback Address (RFC 4291)"));
        assert_eq!(row("::"), Some("Unspecified Address (RFC 4291)"));
    }

    #[test]
    fn a_teredo_address_is_judged_by_its_server_and_its_client() {
        // Server 65.54.227.120, client 192.0.2.45 (inverted: 3fff:fdd2), the RFC 4380 example.
        assert_eq!(
            row("2001:0:4136:e378:8000:63bf:3fff:fdd2"),
            Some("Documentation (TEST-NET-1) (RFC 5737)")
        );
        // Client 127.0.0.1 inverted is 80ff:fffe; server 10.0.0.1.
        assert_eq!(row("2001:0:4136:e378::80ff:fffe"), Some("Loopback (RFC 1122)"));
        assert_eq!(row("2001:0:a00:1::5d60:7817"), Some("Private-Use (RFC 1918)"));
        // Server 65.54.227.120, client 162.159.135.232 (inverted 5d60:7817).
        assert_eq!(row("2001:0:4136:e378::5d60:7817"), None);
    }

    #[test]
    fn the_other_ietf_protocol_assignments_are_refused() {
        assert_eq!(row("2001:2::1"), Some("Benchmarking (RFC 5180)"));
        assert_eq!(row("2001:1::1"), Some("Port Control Protocol Anycast (RFC 7723)"));
        assert_eq!(row("2001:100::1"), Some("IETF Protocol Assignments (RFC 2928)"));
        assert_eq!(row("3fff::1"), Some("Documentation (RFC 9637)"));
    }

    #[test]
    fn ipv6_outside_global_unicast_is_refused() {
        assert!(row("4000::1").is_some());
        assert!(row("ff02::1").is_some());
        assert!(row("100::1").is_some());
    }

    #[test]
    fn each_special_purpose_ipv4_block_is_refused() {
        for (ip, name) in [
            ("0.1.2.3", "\"This network\" (RFC 791)"),
            ("0.0.0.0", "\"This host on this network\" (RFC 1122)"),
            ("172.31.255.255", "Private-Use (RFC 1918)"),
            ("100.127.0.1", "Shared Address Space (RFC 6598)"),
            ("192.0.0.170", "NAT64/DNS64 Discovery (RFC 7050)"),
            ("192.0.0.5", "IPv4 Service Continuity Prefix (RFC 7335)"),
            ("192.88.99.1", "Deprecated (6to4 Relay Anycast) (RFC 7526)"),
            ("198.51.100.7", "Documentation (TEST-NET-2) (RFC 5737)"),
            ("203.0.113.7", "Documentation (TEST-NET-3) (RFC 5737)"),
            ("239.1.1.1", "Multicast (RFC 5771)"),
            ("250.0.0.1", "Reserved (RFC 1112)"),
            ("255.255.255.255", "Limited Broadcast (RFC 919)"),
        ] {
            assert_eq!(row(ip), Some(name), "{ip}");
        }
        assert_eq!(row("172.32.0.1"), None);
        assert_eq!(row("100.128.0.1"), None);
        assert_eq!(row("1.1.1.1"), None);
    }
}
