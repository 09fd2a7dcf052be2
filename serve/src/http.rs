//! The HTTP edges every route shares: errors as pages with a 4xx/5xx status, the security
//! headers, cookies, CSRF checks, the per-client rate limit and the time limit on bodies.

use std::net::IpAddr;
use std::num::NonZeroU32;

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Response, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use http_body_util::BodyExt;

use super::limits::{ClientKey, MAX_BODY_BYTES, client_key};
use super::pages;
use super::secrets::{CsrfKey, new_secret};

/// The Content-Security-Policy of every response: only the server's own script, style and
/// connections; no inline script or style, no frames, forms post only here.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; \
     frame-ancestors 'none'";

/// The name of the cookie CSRF tokens are bound to.
pub const CSRF_COOKIE: &str = "csrf";
/// The name of the organiser's cookie (holds the organiser's token).
pub const ADMIN_COOKIE: &str = "organiser";

/// An error answered as a page: its status and the sentence shown (escaped).
#[derive(Debug)]
pub struct HttpError {
    /// 4xx for the client's mistakes, 5xx for the server's.
    pub status: StatusCode,
    /// What went wrong and what to do.
    pub message: String,
    /// Seconds to wait before trying again (`Retry-After`), for a busy server.
    pub retry_after: Option<u32>,
}

impl HttpError {
    /// An error with `status`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> HttpError {
        HttpError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 503 with `Retry-After`: the server is busy with others; try again in `seconds`.
    pub fn busy(message: impl Into<String>, seconds: u32) -> HttpError {
        HttpError {
            retry_after: Some(seconds),
            ..HttpError::new(StatusCode::SERVICE_UNAVAILABLE, message)
        }
    }

    /// 400: the request itself is wrong.
    pub fn bad_request(message: impl Into<String>) -> HttpError {
        HttpError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 403: a key, token or CSRF token is missing or wrong.
    pub fn forbidden(message: impl Into<String>) -> HttpError {
        HttpError::new(StatusCode::FORBIDDEN, message)
    }

    /// 404.
    pub fn not_found(message: impl Into<String>) -> HttpError {
        HttpError::new(StatusCode::NOT_FOUND, message)
    }
}

/// Whether `err` is, or was caused by, a lost connection to the store (reconnecting may
/// help), however it was wrapped on its way here.
pub fn is_store_lost(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let store = cause.downcast_ref::<store::StoreError>().or_else(|| {
            match cause.downcast_ref::<kit::challenge::tournament::TournamentError>() {
                Some(kit::challenge::tournament::TournamentError::Store(store)) => Some(store),
                _ => None,
            }
        });
        matches!(store, Some(store::StoreError::ConnectionLost { .. }))
    })
}

impl From<anyhow::Error> for HttpError {
    fn from(err: anyhow::Error) -> HttpError {
        if is_store_lost(&err) {
            // The refresher reconnects within a second or two (`state::keep_views_fresh`).
            eprintln!("serve: the store is unreachable: {err:#}");
            return HttpError::busy(
                "the challenge's database is unreachable for a moment; try again in a few seconds",
                2,
            );
        }
        eprintln!("serve: internal error: {err:#}");
        HttpError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server could not do this; the organiser will find the cause in its log",
        )
    }
}

impl From<store::StoreError> for HttpError {
    fn from(err: store::StoreError) -> HttpError {
        anyhow::Error::from(err).into()
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> axum::response::Response {
        let body = pages::error_page(self.status, &self.message);
        let mut response = (self.status, html_headers(), body).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// The content type of a page.
pub fn html_headers() -> [(header::HeaderName, HeaderValue); 1] {
    [(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    )]
}

/// Adds the security headers to every response.
pub async fn security_headers(request: Request, next: Next) -> Response<Body> {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// The value of cookie `name`, if the request sent it.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_string())
}

/// A `Set-Cookie` value: not readable by scripts, sent only with this site's own requests.
pub fn set_cookie(name: &str, value: &str) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{name}={value}; Path=/; HttpOnly; SameSite=Strict"
    ))
    .expect("cookie names and base64url values are valid header text")
}

/// The CSRF tokens of a page's forms: the browser's cookie (made if it has none) and the
/// key that signs the tokens.
pub struct FormTokens<'a> {
    key: &'a CsrfKey,
    cookie: String,
    fresh: bool,
}

impl<'a> FormTokens<'a> {
    /// The tokens for the browser that sent `headers`.
    pub fn new(key: &'a CsrfKey, headers: &HeaderMap) -> FormTokens<'a> {
        match cookie(headers, CSRF_COOKIE).filter(|c| c.len() >= 16) {
            Some(cookie) => FormTokens {
                key,
                cookie,
                fresh: false,
            },
            None => FormTokens {
                key,
                cookie: new_secret(),
                fresh: true,
            },
        }
    }

    /// The token of the form posting to `path`.
    pub fn token(&self, path: &str) -> String {
        self.key.token(&self.cookie, path)
    }

    /// A page carrying these tokens (setting the cookie when it is new).
    pub fn page(&self, body: String) -> axum::response::Response {
        let mut response = (html_headers(), body).into_response();
        if self.fresh {
            response
                .headers_mut()
                .insert(header::SET_COOKIE, set_cookie(CSRF_COOKIE, &self.cookie));
        }
        response
    }
}

/// Refuses a post to `path` whose CSRF token is missing or not this browser's.
pub fn check_csrf(
    key: &CsrfKey,
    headers: &HeaderMap,
    path: &str,
    token: Option<&str>,
) -> Result<(), HttpError> {
    let cookie = cookie(headers, CSRF_COOKIE).unwrap_or_default();
    match token {
        Some(token) if key.verify(&cookie, path, token) => Ok(()),
        _ => Err(HttpError::forbidden(
            "this form's security token is missing or out of date: reload the page and send the form again",
        )),
    }
}

/// How often one client (an IPv4 address or IPv6 /64: see [`ClientKey`]) may post
/// (submissions, withdrawals, the organiser's actions): a burst of 20, then one every two
/// seconds.
pub struct PostLimit(DefaultKeyedRateLimiter<ClientKey>);

impl PostLimit {
    /// The server's limit.
    pub fn new() -> PostLimit {
        let quota = Quota::per_minute(NonZeroU32::new(30).expect("nonzero"))
            .allow_burst(NonZeroU32::new(20).expect("nonzero"));
        PostLimit(RateLimiter::keyed(quota))
    }

    /// Refuses with 429 when the client of `ip` posted too often.
    pub fn check(&self, ip: IpAddr) -> Result<(), HttpError> {
        self.0.check_key(&client_key(ip)).map_err(|_| {
            HttpError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many requests from your network: wait a minute and try again",
            )
        })
    }

    /// Forgets clients whose limit is back to full, so the table holds only recent
    /// posters (without this it would keep every client ever seen).
    pub fn forget_idle(&self) {
        self.0.retain_recent();
        self.0.shrink_to_fit();
    }
}

impl Default for PostLimit {
    fn default() -> Self {
        PostLimit::new()
    }
}

/// A 303 to `path` (after a successful post).
pub fn see_other(path: &str) -> axum::response::Response {
    Redirect::to(path).into_response()
}

/// Reads each request's body whole within the server's body time limit before the route
/// sees it (every route reads its body whole anyway): a client that sends its body slowly
/// is answered 408 and its connection closed, instead of holding it for as long as it
/// likes. A body over [`MAX_BODY_BYTES`] is refused with 413 as it arrives.
pub async fn read_body_in_time(
    axum::extract::State(body_timeout): axum::extract::State<std::time::Duration>,
    request: Request,
    next: Next,
) -> axum::response::Response {
    use axum::body::HttpBody as _;
    let (parts, body) = request.into_parts();
    if body.is_end_stream() {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let limited = http_body_util::Limited::new(body, MAX_BODY_BYTES);
    match tokio::time::timeout(body_timeout, limited.collect()).await {
        Ok(Ok(collected)) => {
            let body = Body::from(collected.to_bytes());
            next.run(Request::from_parts(parts, body)).await
        }
        Ok(Err(err)) if err.is::<http_body_util::LengthLimitError>() => closing(HttpError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("refused: the request is larger than {MAX_BODY_BYTES} bytes"),
        )),
        Ok(Err(_)) => closing(HttpError::bad_request(
            "the request's body could not be read",
        )),
        Err(_) => closing(HttpError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body took longer than {} s to arrive; try again",
                body_timeout.as_secs_f64()
            ),
        )),
    }
}

/// An error response that closes its connection (the rest of the body is not read, or the
/// connection is not worth keeping: a refused event stream's).
pub fn closing(error: HttpError) -> axum::response::Response {
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_post_limit_counts_an_ipv6_64_as_one_client() {
        let posts = PostLimit::new();
        // A new address of the same /64 for every post: one client all the same.
        let refused = (1..=40u16)
            .filter(|n| {
                let ip = IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, *n]);
                posts.check(ip).is_err()
            })
            .count();
        assert!(refused >= 19, "{refused} of 40 refused");
        let elsewhere = IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, 1]);
        assert!(
            posts.check(elsewhere).is_ok(),
            "another /64 is another client"
        );
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        let plain: IpAddr = "192.0.2.1".parse().unwrap();
        let refused = (0..40)
            .filter(|n| {
                posts
                    .check(if n % 2 == 0 { mapped } else { plain })
                    .is_err()
            })
            .count();
        assert!(
            refused >= 19,
            "IPv4-mapped is IPv4: {refused} of 40 refused"
        );
        posts.forget_idle();
    }
}
