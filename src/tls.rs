//! The TLS client set-up every outgoing connection the server opens itself shares (IMAP polling,
//! chat webhooks): rustls with the ring provider, safe protocol versions and the webpki roots.

use anyhow::Context as _;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls;

/// A TLS connector trusting the webpki roots.
pub fn connector() -> anyhow::Result<TlsConnector> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("TLS set-up")?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(TlsConnector::from(Arc::new(config)))
}

/// Opens TLS over `stream` to the server named `host` (a name or an IP literal).
pub async fn connect<S>(host: &str, stream: S) -> anyhow::Result<TlsStream<S>>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let name =
        rustls::pki_types::ServerName::try_from(host.to_string()).context("not a valid TLS server name")?;
    connector()?.connect(name, stream).await.context("TLS handshake")
}
