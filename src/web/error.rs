//! The one web error type.
//!
//! Policy: expected outcomes (bad token, closed turn, malformed input) are answered with their
//! readable reason and the matching status. Internal failures (database, engine defects) are
//! logged with their details and answered with a generic message and a reference id — internals
//! never reach a user. API routes answer JSON (`{"error": "..."}`), pages answer HTML.

use crate::service::ServiceError;
use askama::Template;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

/// An error answered as an HTML page.
#[derive(Debug)]
pub struct WebError {
    pub status: StatusCode,
    pub message: String,
    /// For refused orders: the echo with the line-numbered errors.
    pub echo: Option<crate::orders::Echo>,
}

/// An error answered as JSON.
#[derive(Debug)]
pub struct ApiError(pub WebError);

impl WebError {
    /// An error with a status and a message safe to show.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        WebError { status, message: message.into(), echo: None }
    }
    /// 404 with a message.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
    /// 400 with a message.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    /// A form that could not be read: 413 when it is too large, 400 (or what axum says)
    /// otherwise, never a bare reset.
    pub fn form(what: &str, e: &axum::extract::rejection::FormRejection) -> Self {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            return Self::new(
                status,
                format!("{what} is too large: at most {} KiB are accepted", super::MAX_BODY / 1024),
            );
        }
        Self::new(status, format!("{what} could not be read: {}", e.body_text()))
    }
    /// Logs an internal failure and returns the generic error shown for it.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        let reference = uuid::Uuid::new_v4().simple().to_string();
        let reference = &reference[..12];
        tracing::error!(error.reference = reference, error = %detail, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!(
                "Something went wrong on our side (reference {reference}). Nothing was changed; please try again later."
            ),
        )
    }
}

impl From<ServiceError> for WebError {
    fn from(e: ServiceError) -> Self {
        let status = match &e {
            ServiceError::GameNotFound(_) | ServiceError::TurnNotFound(..) => StatusCode::NOT_FOUND,
            ServiceError::BadToken | ServiceError::Forbidden(_) => StatusCode::FORBIDDEN,
            ServiceError::BadInput(_) => StatusCode::BAD_REQUEST,
            ServiceError::Conflict(_) | ServiceError::NoOrders { .. } => StatusCode::CONFLICT,
            ServiceError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ServiceError::Rejected(echo) => {
                let mut w = WebError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string());
                w.echo = Some(echo.clone());
                return w;
            }
            ServiceError::Internal(_) | ServiceError::Db(_) => return WebError::internal(&e),
        };
        WebError::new(status, e.to_string())
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        ApiError(e.into())
    }
}

impl From<WebError> for ApiError {
    fn from(e: WebError) -> Self {
        ApiError(e)
    }
}

#[derive(Template)]
#[template(path = "web/error.html")]
struct ErrorPage<'a> {
    status: u16,
    reason: &'a str,
    message: &'a str,
    echo: Option<&'a crate::orders::Echo>,
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let page = ErrorPage {
            status: self.status.as_u16(),
            reason: self.status.canonical_reason().unwrap_or("Error"),
            message: &self.message,
            echo: self.echo.as_ref(),
        };
        match page.render() {
            Ok(html) => (self.status, Html(html)).into_response(),
            Err(_) => (self.status, self.message).into_response(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match &self.0.echo {
            Some(echo) => serde_json::json!({ "error": self.0.message, "echo": echo }),
            None => serde_json::json!({ "error": self.0.message }),
        };
        (self.0.status, Json(body)).into_response()
    }
}
