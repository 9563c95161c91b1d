//! The page, its assets and its six languages.

use std::collections::BTreeSet;

use agon_web::{app, AppState, Config, Language};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;

async fn get(uri: &str, headers: &[(&str, &str)]) -> (StatusCode, axum::http::HeaderMap, String) {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: dir.path().join("g.sqlite3"),
        ..Config::default()
    };
    let mut request = Request::get(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = app(AppState::open(&config).unwrap())
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8(body.to_vec()).unwrap())
}

fn keys(language: Language) -> Vec<&'static str> {
    let mut keys: Vec<&str> = language.catalogue().keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

/// The `{name}` placeholders of a catalogue string.
fn placeholders(text: &str) -> BTreeSet<&str> {
    text.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .collect()
}

#[test]
fn every_catalogue_has_every_key_and_placeholder() {
    let english = keys(Language::En);
    assert!(
        english.len() > 50,
        "the English catalogue has {} keys",
        english.len()
    );
    for language in Language::ALL {
        let catalogue = language.catalogue();
        assert_eq!(keys(language), english, "keys of {}", language.code());
        for (key, text) in catalogue {
            assert!(
                !text.trim().is_empty(),
                "{}: {key} is empty",
                language.code()
            );
            assert!(
                !text.contains('<'),
                "{}: {key} holds markup",
                language.code()
            );
            assert_eq!(
                placeholders(text),
                placeholders(Language::En.text(key)),
                "{}: placeholders of {key}",
                language.code()
            );
        }
        let rtl = if language.is_rtl() { "rtl" } else { "ltr" };
        assert_eq!(language.text("meta.dir"), rtl);
    }
}

#[test]
fn every_key_the_page_uses_is_in_the_catalogue() {
    let sources = [
        include_str!("../assets/index.html"),
        include_str!("../assets/rules.html"),
        include_str!("../assets/app.js"),
    ];
    let english = Language::En.catalogue();
    let mut used = 0;
    for source in sources {
        for marker in ["{{t:", "data-i18n=\""] {
            for rest in source.split(marker).skip(1) {
                let key = rest.split(['}', '"']).next().unwrap();
                assert!(english.contains_key(key), "{key:?} is not in en.json");
                used += 1;
            }
        }
    }
    assert!(used > 20, "only {used} catalogue keys used by the page");
}

#[tokio::test]
async fn the_page_in_every_language() {
    for language in Language::ALL {
        for path in ["/", "/g/0123456789abcdef", "/rules"] {
            let uri = format!("{path}?lang={}", language.code());
            let (status, headers, html) = get(&uri, &[]).await;
            assert_eq!(status, StatusCode::OK, "{uri}");
            assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
            assert!(!html.contains("{{"), "{uri} has an unfilled placeholder");
            let dir = if language.is_rtl() { "rtl" } else { "ltr" };
            assert!(
                html.contains(&format!("lang=\"{}\"", language.code()))
                    && html.contains(&format!("dir=\"{dir}\"")),
                "{uri}"
            );
            // No inline script may run under the policy, so there must be none.
            for tag in html.split("<script").skip(1) {
                let open = tag.split('>').next().unwrap();
                assert!(open.contains("src="), "{uri}: inline script");
            }
            assert!(!html.contains("style=\""), "{uri}: inline style");
            assert!(!html.contains(" onclick="), "{uri}: inline handler");
        }
    }
}

#[tokio::test]
async fn the_language_comes_from_query_cookie_then_browser() {
    let lang = |html: &str| {
        html.split("lang=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap()
            .to_string()
    };
    let (_, _, html) = get("/", &[("accept-language", "ar-EG,ar;q=0.9,en;q=0.5")]).await;
    assert_eq!(lang(&html), "ar");
    assert!(html.contains("dir=\"rtl\""));
    let (_, _, html) = get("/", &[("accept-language", "de-DE, pt-BR;q=0.7, pl;q=0.6")]).await;
    assert_eq!(lang(&html), "pt");
    let (_, _, html) = get(
        "/",
        &[("accept-language", "ar"), ("cookie", "x=1; agon_lang=tr")],
    )
    .await;
    assert_eq!(lang(&html), "tr");
    let (_, _, html) = get("/?lang=ms", &[("cookie", "agon_lang=tr")]).await;
    assert_eq!(lang(&html), "ms");
    let (_, _, html) = get("/?lang=xx", &[("accept-language", "fr")]).await;
    assert_eq!(lang(&html), "en");
    // The English text of the page is there.
    assert!(html.contains(&agon_web::i18n::escape_html(Language::En.text("meta.name"))));
}

#[tokio::test]
async fn assets_and_catalogues_are_served() {
    for (path, content_type) in [
        ("/assets/app.js", "text/javascript; charset=utf-8"),
        ("/assets/style.css", "text/css; charset=utf-8"),
        ("/assets/favicon.svg", "image/svg+xml"),
        ("/i18n/en.json", "application/json"),
        ("/i18n/ar.json", "application/json"),
    ] {
        let (status, headers, body) = get(path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers[header::CONTENT_TYPE], content_type, "{path}");
        assert!(body.len() > 100, "{path} is {} bytes", body.len());
    }
    let (_, _, body) = get("/i18n/pl.json", &[]).await;
    let catalogue: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(catalogue["meta.name"], "Polski");
}
