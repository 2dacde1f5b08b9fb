//! Requests from elsewhere: a server on loopback answers only requests for this machine's names (no DNS rebinding), and an analysis is sent as JSON (no form a page of another site can post without asking).

use super::api::ApiError;
use super::State;
use axum::extract::{Request, State as Shared};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// True when `host` (bracketed or not) is a loopback address or `localhost`.
pub fn is_loopback(host: &str) -> bool {
    let bare = super::unbracketed(host);
    bare.eq_ignore_ascii_case("localhost") || bare.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The name of a `Host` header without its port (`[::1]:8080` → `::1`), lowercase; `None` when
/// the header is not a host and optional port as RFC 9110 §7.2 has it (`[::1`,
/// `[::1]evil.example`, a port past 65535, user information).
fn host_name(host: &str) -> Option<String> {
    let (name, port) = match host.strip_prefix('[') {
        Some(rest) => {
            let (inside, after) = rest.split_once(']')?;
            inside.parse::<std::net::Ipv6Addr>().ok()?;
            (inside, if after.is_empty() { None } else { Some(after.strip_prefix(':')?) })
        }
        None => match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        },
    };
    let name_ok = host.starts_with('[') || (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c)));
    let port_ok = port.is_none_or(|p| p.is_empty() || (p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u16>().is_ok()));
    (name_ok && port_ok).then(|| name.to_ascii_lowercase())
}

/// True when `host`, a `Host` header, names this machine: `localhost`, `127.0.0.1`, `[::1]` or
/// the host listened on (`listened`), any port.
pub fn is_local_name(host: &str, listened: &str) -> bool {
    host_name(host).is_some_and(|name| ["localhost", "127.0.0.1", "::1", listened].contains(&name.as_str()))
}

/// A request to a server on loopback whose `Host` names another machine is refused (421): a
/// page of another site that resolved its own name to 127.0.0.1 (DNS rebinding) reads nothing.
/// A request whose host cannot be told ([`requested_host`]) is refused (400) on any server.
pub async fn check_host(Shared(state): Shared<Arc<State>>, request: Request, next: Next) -> Response {
    let host = match requested_host(&request) {
        Ok(host) => host,
        Err(refused) => return refused.into_response(),
    };
    match (&state.loopback, host) {
        (Some(listened), Some(host)) if !is_local_name(&host, listened) => ApiError(
            StatusCode::MISDIRECTED_REQUEST,
            format!("Host {host:?} is not this machine: a server on loopback answers only localhost, 127.0.0.1 and [::1] (docs/serve.md)"),
        )
        .into_response(),
        _ => next.run(request).await,
    }
}

/// The host `request` is for, as RFC 9112 §3.2 has a server take it: the authority of an
/// absolute-form target (`GET http://host/path`), else its `Host` header; `None` for an
/// HTTP/1.0 request without one. An HTTP/1.1 request without `Host`, or any request with two,
/// is a 400 (which of two a proxy before this server read cannot be known).
fn requested_host(request: &Request) -> Result<Option<String>, ApiError> {
    let hosts: Vec<String> = request.headers().get_all(header::HOST).iter().map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned()).collect();
    let bad = |why: String| Err(ApiError(StatusCode::BAD_REQUEST, why));
    if hosts.len() > 1 {
        return bad(format!("the request has {} Host headers ({}); it must have one (RFC 9112 §3.2)", hosts.len(), hosts.iter().map(|h| format!("{h:?}")).collect::<Vec<_>>().join(", ")));
    }
    if let Some(authority) = request.uri().authority() {
        return Ok(Some(authority.host().to_string()));
    }
    match hosts.into_iter().next() {
        None if request.version() >= axum::http::Version::HTTP_11 => bad("the request has no Host header; an HTTP/1.1 request must have one (RFC 9112 §3.2)".to_string()),
        host => Ok(host),
    }
}

/// 415 unless the request says its body is JSON (`Content-Type: application/json`, any
/// parameters): a page of another site cannot send that without the browser asking first.
pub fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    let given = headers.get(header::CONTENT_TYPE).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let media = given.as_deref().map(|v| v.split(';').next().unwrap_or_default().trim());
    match media {
        Some(media) if media.eq_ignore_ascii_case("application/json") => Ok(()),
        _ => Err(ApiError(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("the body must be sent with Content-Type: application/json (found {})", given.map_or("none".to_string(), |g| format!("{g:?}"))),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_machines_names_are_local() {
        for host in ["localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:1", "[::1]", "[::1]:8080", "127.0.0.2:80"] {
            assert!(is_local_name(host, "127.0.0.2"), "{host}");
        }
        let malformed = ["[::1", "[::1]evil.example", "localhost:99999999", "127.0.0.1:65536", "user@localhost", "localhost:8080x"];
        for host in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "[::2]:80", "localhost.evil:1", ""].into_iter().chain(malformed) {
            assert!(!is_local_name(host, "127.0.0.1"), "{host}");
        }
        assert!(is_loopback("127.0.0.1") && is_loopback("[::1]") && is_loopback("::1") && is_loopback("localhost"));
        assert!(!is_loopback("0.0.0.0") && !is_loopback("192.168.1.2") && !is_loopback("example.org"));
    }

    #[test]
    fn only_json_bodies_are_taken() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, value.parse().unwrap());
            require_json(&headers)
        };
        assert!(with("application/json").is_ok() && with("Application/JSON; charset=utf-8").is_ok());
        for refused in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
            assert_eq!(with(refused).unwrap_err().0, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{refused}");
        }
        let none = require_json(&HeaderMap::new()).unwrap_err();
        assert_eq!(none.1, "the body must be sent with Content-Type: application/json (found none)");
    }
}
