//! One HTTP POST of a JSON body to a chat webhook, to an address screened at this moment: the
//! name is resolved here, every address it resolves to must be public (unless the operator
//! allows private targets), and the connection goes to the screened address — so neither a
//! registered name that later points inward (DNS rebinding) nor a redirect (never followed)
//! reaches a private network. Errors never quote the URL (it is its owner's secret).

use crate::domain::webhook_url::is_public;
use http_body_util::Full;
use hyper::Request;
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use url::Url;

/// Why a POST did not succeed: worth trying again later, or not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PostError {
    /// The target refuses for good (bad address, 4xx other than 408/429): give up.
    #[error("{0}")]
    Refused(String),
    /// A network error, a timeout, 408, 429 or 5xx: try again later.
    #[error("{0}")]
    Failed(String),
}

/// POSTs `body` (JSON) to `url` within `timeout`.
pub async fn post_json(
    url: &Url,
    body: Vec<u8>,
    allow_private: bool,
    timeout: Duration,
) -> Result<(), PostError> {
    match tokio::time::timeout(timeout, post(url, body, allow_private)).await {
        Ok(r) => r,
        Err(_) => Err(PostError::Failed("no answer in time".into())),
    }
}

async fn post(url: &Url, body: Vec<u8>, allow_private: bool) -> Result<(), PostError> {
    let tls = match url.scheme() {
        "https" => true,
        "http" if allow_private => false,
        _ => return Err(PostError::Refused("only https webhooks are used".into())),
    };
    let host = url.host_str().ok_or_else(|| PostError::Refused("the address has no host".into()))?;
    let port = url.port_or_known_default().ok_or_else(|| PostError::Refused("no port".into()))?;
    let addr = screened_address(host, port, allow_private).await?;
    let tcp = TcpStream::connect(addr).await.map_err(|_| PostError::Failed("cannot connect".into()))?;
    let request = Request::post(&url[url::Position::BeforePath..url::Position::AfterQuery])
        .header(hyper::header::HOST, host_header(url))
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .header(hyper::header::USER_AGENT, concat!("Stationmaster/", env!("CARGO_PKG_VERSION")))
        .body(Full::new(Bytes::from(body)))
        .map_err(|_| PostError::Refused("cannot build the request".into()))?;
    if tls {
        let stream = crate::tls::connect(host.trim_matches(['[', ']']), tcp)
            .await
            .map_err(|e| PostError::Failed(format!("{e:#}")))?;
        send(stream, request).await
    } else {
        send(tcp, request).await
    }
}

/// The `Host` header: the host and a port that is not the scheme's default.
fn host_header(url: &Url) -> String {
    let host = url.host_str().unwrap_or("");
    match url.port() {
        Some(p) => format!("{host}:{p}"),
        None => host.to_string(),
    }
}

/// Resolves `host` and screens every address; returns the first.
async fn screened_address(host: &str, port: u16, allow_private: bool) -> Result<SocketAddr, PostError> {
    let bare = host.trim_matches(['[', ']']);
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((bare, port))
        .await
        .map_err(|_| PostError::Failed("the host name does not resolve".into()))?
        .collect();
    if !allow_private && addrs.iter().any(|a| !is_public(a.ip())) {
        // RULING W14: one private answer is enough to refuse (a rebinding name mixes them).
        return Err(PostError::Refused(
            "the webhook's host resolves to a private or reserved address".into(),
        ));
    }
    addrs.first().copied().ok_or_else(|| PostError::Failed("the host name has no address".into()))
}

/// Sends the request over one HTTP/1.1 connection and classifies the answer.
async fn send<S>(stream: S, request: Request<Full<Bytes>>) -> Result<(), PostError>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|_| PostError::Failed("the HTTP handshake failed".into()))?;
    let driver = tokio::spawn(conn);
    let answer = sender.send_request(request).await;
    driver.abort();
    let status = answer.map_err(|_| PostError::Failed("the HTTP request failed".into()))?.status();
    match status.as_u16() {
        200..=299 => Ok(()),
        408 | 429 | 500..=599 => Err(PostError::Failed(format!("HTTP {status}"))),
        _ => Err(PostError::Refused(format!("HTTP {status}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_name_that_resolves_to_a_private_address_is_refused_at_delivery() {
        // RULING W14: the screen runs again when posting, on the resolved addresses.
        let url = Url::parse("https://localhost:9/hook").unwrap();
        let r = post_json(&url, b"{}".to_vec(), false, Duration::from_secs(5)).await;
        assert!(matches!(r, Err(PostError::Refused(ref why)) if why.contains("private")), "{r:?}");
    }

    #[tokio::test]
    async fn plain_http_is_used_only_where_private_targets_are_allowed() {
        let url = Url::parse("http://93.184.215.14/hook").unwrap();
        let r = post_json(&url, b"{}".to_vec(), false, Duration::from_secs(5)).await;
        assert!(matches!(r, Err(PostError::Refused(_))), "{r:?}");
    }
}
