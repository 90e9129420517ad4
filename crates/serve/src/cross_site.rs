//! Requests from other sites refused: a page elsewhere can make a visitor's browser send a
//! request to a server on the visitor's machine or network, as a form or a "simple" fetch
//! (`text/plain`, no preflight). So every request that changes something (any method but GET,
//! HEAD and OPTIONS) must come from this server's own page, the browser's `Origin` (when it
//! sends one) naming the `Host` it asks (403 otherwise), and a body must be JSON, `Content-Type:
//! application/json`, which a cross-site page cannot send without a preflight that this server
//! never answers (415 otherwise).

use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::api::ApiError;

/// Refuses a request that changes something from another site, or with a body that is not
/// JSON; passes every other on.
pub async fn refuse_cross_site(request: Request, next: Next) -> Response {
    let method = request.method();
    if method == Method::GET || method == Method::HEAD || method == Method::OPTIONS {
        return next.run(request).await;
    }
    if let Err(error) = check(request.headers()) {
        return error.into_response();
    }
    next.run(request).await
}

/// Why the headers of a request that changes something are refused.
fn check(headers: &HeaderMap) -> Result<(), ApiError> {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let host = headers
            .get(header::HOST)
            .and_then(|host| host.to_str().ok())
            .unwrap_or("");
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        if authority.is_none_or(|authority| !authority.eq_ignore_ascii_case(host)) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "requests from another site are refused: the page at {origin:?} is not this server's ({host:?})"
                ),
            ));
        }
    }
    let content_type = headers.get(header::CONTENT_TYPE);
    let json = content_type
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"));
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|length| length.as_bytes() != b"0");
    if !json && (content_type.is_some() || has_body) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a request body must be JSON, sent as Content-Type: application/json",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| (name.clone(), HeaderValue::from_static(value)))
            .collect()
    }

    #[test]
    fn the_origin_must_be_the_host_and_a_body_json() {
        let same = [
            (header::HOST, "127.0.0.1:8080"),
            (header::ORIGIN, "http://127.0.0.1:8080"),
            (header::CONTENT_TYPE, "application/json; charset=utf-8"),
            (header::CONTENT_LENGTH, "2"),
        ];
        assert!(check(&headers(&same)).is_ok());
        assert!(check(&headers(&[(header::HOST, "a:1")])).is_ok(), "no body");
        for (origin, host) in [
            ("http://evil.example", "127.0.0.1:8080"),
            ("null", "127.0.0.1:8080"),
            ("http://127.0.0.1:8081", "127.0.0.1:8080"),
            ("http://127.0.0.1:8080", ""),
        ] {
            let mut map = headers(&same[2..]);
            map.insert(header::ORIGIN, HeaderValue::from_static(origin));
            map.insert(header::HOST, HeaderValue::from_static(host));
            assert!(check(&map).is_err(), "{origin} {host}");
        }
        for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
            let map = headers(&[
                (header::CONTENT_TYPE, content_type),
                (header::CONTENT_LENGTH, "2"),
            ]);
            assert!(check(&map).is_err(), "{content_type}");
        }
        assert!(check(&headers(&[(header::CONTENT_LENGTH, "2")])).is_err());
    }
}
