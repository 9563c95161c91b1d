//! The page, its assets and its six languages.

use std::collections::BTreeSet;

use agon_web::pages::{asset_names, Page};
use agon_web::{app, AppState, Config, Language};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;

async fn get(uri: &str, headers: &[(&str, &str)]) -> (StatusCode, axum::http::HeaderMap, String) {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: dir.path().join("g.sqlite3").into(),
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
    let english = Language::En.catalogue();
    let mut used = 0;
    for page in Page::ALL {
        // The page as served: the header is in, its slots filled.
        let source = page.template();
        assert!(!source.contains("{{header}}"), "{page:?}: no header");
        for marker in ["{{t:", "data-i18n=\""] {
            for rest in source.split(marker).skip(1) {
                let key = rest.split(['}', '"']).next().unwrap();
                assert!(
                    english.contains_key(key),
                    "{page:?}: {key:?} is not in en.json"
                );
                used += 1;
            }
        }
    }
    assert!(used > 20, "only {used} catalogue keys used by the page");
}

#[tokio::test]
async fn every_key_the_script_names_is_in_the_catalogue() {
    let english = Language::En.catalogue();
    let mut used = 0;
    for name in asset_names().filter(|name| name.ends_with(".js")) {
        let (_, _, source) = get(&format!("/assets/{name}"), &[]).await;
        // t('key'), and the keys of messages kept for later: {key: 'key', ...}.
        for marker in ["t('", "key: '", "? '"] {
            for rest in source.split(marker).skip(1) {
                let key = rest.split('\'').next().unwrap();
                let is_key = key.contains('.')
                    && key.starts_with(|c: char| c.is_ascii_lowercase())
                    && key
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ".-".contains(c));
                if !is_key {
                    continue; // a module's path, a selector, ...
                }
                assert!(
                    english.contains_key(key),
                    "{name}: {key:?} is not in en.json"
                );
                used += 1;
            }
        }
    }
    assert!(used > 30, "only {used} catalogue keys named by the script");
}

/// The `<a class="skip-link">` and `<header>` of a page, as served.
fn header_of(html: &str) -> &str {
    let start = html.find("<a class=\"skip-link\"").expect("a skip link");
    let end = html.find("</header>").expect("a header") + "</header>".len();
    &html[start..end]
}

#[tokio::test]
async fn both_pages_have_the_one_header() {
    for language in Language::ALL {
        let query = format!("?lang={}", language.code());
        let (_, _, game) = get(&format!("/{query}"), &[]).await;
        let (_, _, rules) = get(&format!("/rules{query}"), &[]).await;
        for (html, target, link) in [(&game, "panel", "/rules"), (&rules, "rules-text", "/")] {
            let header = header_of(html);
            // The skip link jumps to an element of the page, past the header.
            assert!(header.contains(&format!("href=\"#{target}\"")), "{header}");
            assert!(html.contains(&format!("id=\"{target}\"")), "no #{target}");
            assert!(header.contains(&format!("class=\"rules-link\" href=\"{link}\"")));
            // The language switch lists the server's languages, each named in itself.
            for other in Language::ALL {
                let name = agon_web::i18n::escape_html(other.text("meta.name"));
                let option = format!("value=\"{0}\" lang=\"{0}\"", other.code());
                assert!(header.contains(&option), "{option}");
                assert!(header.contains(&format!(">{name}</option>")), "{name}");
            }
            assert_eq!(header.matches("<option ").count(), Language::ALL.len());
            assert!(header.contains("<option value=\"ar\" lang=\"ar\" dir=\"rtl\">"));
        }
        // The same header but for the page's own skip link and link.
        let same = |h: &str| {
            h.replace("rules-text", "panel")
                .replace(language.text("a11y.skip-rules"), language.text("a11y.skip"))
                .replace(
                    "href=\"/\" data-i18n=\"header.play\"",
                    "href=\"/rules\" data-i18n=\"header.rules\"",
                )
                .replace("a11y.skip-rules", "a11y.skip")
                .replace(
                    &format!(">{}<", language.text("header.play")),
                    &format!(">{}<", language.text("header.rules")),
                )
        };
        assert_eq!(same(header_of(&rules)), header_of(&game));
    }
}

#[tokio::test]
async fn every_page_links_to_the_account_page() {
    let link =
        r#"<a id="account-link" class="account-link" href="/account" data-i18n="header.account">"#;
    for language in Language::ALL {
        let query = format!("?lang={}", language.code());
        let (_, _, account) = get(&format!("/account{query}"), &[]).await;
        for path in ["/", "/rules", "/account", "/analysis"] {
            let (_, _, html) = get(&format!("{path}{query}"), &[]).await;
            let header = header_of(&html);
            let text = agon_web::i18n::escape_html(language.text("header.account"));
            assert!(
                header.contains(&format!("{link}{text}</a>")),
                "{path}: {header}"
            );
        }
        // The analysis board: its skip link reaches its panel, its fields have labels.
        let (_, _, analysis) = get(&format!("/analysis{query}"), &[]).await;
        let header = header_of(&analysis);
        assert!(header.contains(r##"href="#analysis" data-i18n="a11y.skip-analysis""##));
        assert!(analysis.contains(r#"<section id="analysis""#));
        for id in [
            "position-input",
            "record-input",
            "record-file",
            "record-output",
        ] {
            assert!(analysis.contains(&format!("<label for=\"{id}\"")), "{id}");
        }
        // The account page: its skip link reaches its main part; the header's own link
        // goes back to play; the three views are in the page, the signed-out one first.
        let header = header_of(&account);
        assert!(header.contains(r##"href="#account" data-i18n="a11y.skip-account""##));
        assert!(account.contains(r#"<main id="account""#));
        assert!(header.contains(r#"class="rules-link" href="/" data-i18n="header.play""#));
        let views = ["id=\"signed-out\"", "id=\"codes\"", "id=\"signed-in\""];
        let at: Vec<usize> = views.iter().map(|v| account.find(v).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
        // Every field has its label.
        for id in [
            "signup-username",
            "recover-username",
            "recover-code",
            "passkey-name",
        ] {
            assert!(account.contains(&format!("<label for=\"{id}\"")), "{id}");
        }
    }
}

#[tokio::test]
async fn the_page_in_every_language() {
    for language in Language::ALL {
        for path in [
            "/",
            "/g/0123456789abcdef",
            "/rules",
            "/account",
            "/analysis",
            "/analysis?game=0123456789abcdef&position=x",
        ] {
            let sep = if path.contains('?') { '&' } else { '?' };
            let uri = format!("{path}{sep}lang={}", language.code());
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
    let mut files: Vec<(String, &str)> = asset_names()
        .filter(|name| name.ends_with(".js"))
        .map(|name| (format!("/assets/{name}"), "text/javascript; charset=utf-8"))
        .collect();
    assert!(files.len() >= 6, "{files:?}");
    files.extend([
        ("/assets/style.css".to_string(), "text/css; charset=utf-8"),
        ("/assets/favicon.svg".to_string(), "image/svg+xml"),
        ("/i18n/en.json".to_string(), "application/json"),
        ("/i18n/ar.json".to_string(), "application/json"),
    ]);
    for (path, content_type) in &files {
        let (status, headers, body) = get(path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers[header::CONTENT_TYPE], *content_type, "{path}");
        assert_eq!(headers[header::CACHE_CONTROL], "no-cache", "{path}");
        assert!(body.len() > 100, "{path} is {} bytes", body.len());
    }
    let (_, _, body) = get("/i18n/pl.json", &[]).await;
    let catalogue: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(catalogue["meta.name"], "Polski");
    // The single script of before is gone; the page loads the modules.
    let (status, _, _) = get("/assets/app.js", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, _, page) = get("/", &[]).await;
    assert!(page.contains(r#"<script type="module" src="/assets/js/main.js"></script>"#));
}

#[tokio::test]
async fn every_module_the_script_imports_is_served() {
    let served: BTreeSet<&str> = asset_names().collect();
    let mut imports = 0;
    for name in served.iter().filter(|name| name.ends_with(".js")) {
        let (_, _, source) = get(&format!("/assets/{name}"), &[]).await;
        for line in source.lines() {
            let Some(rest) = line.split(" from './").nth(1) else {
                continue;
            };
            let module = rest.split('\'').next().unwrap();
            assert!(
                served.contains(format!("js/{module}").as_str()),
                "{name} imports {module}"
            );
            imports += 1;
        }
    }
    assert!(imports > 10, "only {imports} imports");
}

#[tokio::test]
async fn assets_are_revalidated_by_etag() {
    let (_, headers, _) = get("/assets/js/main.js", &[]).await;
    let tag = headers[header::ETAG].to_str().unwrap().to_string();
    assert!(
        tag.starts_with('"') && tag.ends_with('"') && tag.len() == 18,
        "{tag}"
    );
    let (status, headers, body) = get("/assets/js/main.js", &[("if-none-match", &tag)]).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert_eq!(headers[header::ETAG], tag.as_str());
    assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    assert!(body.is_empty());
    let (status, _, _) = get("/assets/js/main.js", &[("if-none-match", "\"other\"")]).await;
    assert_eq!(status, StatusCode::OK);
    let (_, other, _) = get("/assets/js/state.js", &[]).await;
    assert_ne!(other[header::ETAG], tag.as_str());
}
