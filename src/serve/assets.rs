//! The page: one HTML file, its stylesheet and scripts, embedded in the binary (no build
//! step, nothing fetched from elsewhere).

use super::api::ApiError;
use axum::extract::rejection::PathRejection;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};

const INDEX: &str = include_str!("page/index.html");

/// Every asset: name, content type, text. The scripts load in this order (index.html).
const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", "text/css; charset=utf-8", include_str!("page/style.css")),
    ("api.js", "text/javascript; charset=utf-8", include_str!("page/api.js")),
    ("board.js", "text/javascript; charset=utf-8", include_str!("page/board.js")),
    ("views.js", "text/javascript; charset=utf-8", include_str!("page/views.js")),
    ("results.js", "text/javascript; charset=utf-8", include_str!("page/results.js")),
    ("app.js", "text/javascript; charset=utf-8", include_str!("page/app.js")),
];

/// `GET /`: the page.
pub async fn page() -> Html<&'static str> {
    Html(INDEX)
}

/// `GET /assets/{name}`: a stylesheet or script of the page.
pub async fn asset(name: Result<Path<String>, PathRejection>) -> Result<Response, ApiError> {
    let name = super::api::path_part(name, "the asset name")?;
    let found = ASSETS.iter().find(|(asset, _, _)| *asset == name);
    let (_, kind, text) = found.ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no asset {name:?}")))?;
    Ok(([(header::CONTENT_TYPE, *kind), (header::CACHE_CONTROL, "no-cache")], *text).into_response())
}

#[cfg(test)]
mod tests {
    /// Every script and stylesheet the page names is embedded, and every embedded one is named.
    #[test]
    fn the_page_names_exactly_the_embedded_assets() {
        for (name, _, text) in super::ASSETS {
            assert!(super::INDEX.contains(&format!("/assets/{name}")), "{name} is not in index.html");
            let text = text.replace("http://www.w3.org/2000/svg", "");
            assert!(!text.contains("http://") && !text.contains("https://"), "{name} fetches from elsewhere");
        }
        assert_eq!(super::INDEX.matches("/assets/").count(), super::ASSETS.len());
    }
}
