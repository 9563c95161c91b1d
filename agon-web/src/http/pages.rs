//! The pages, built from their templates and the shared header, and the embedded
//! files they load (`/assets/...`, `/i18n/...`).

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::i18n::{escape_html, Language};

/// A page of the site.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Page {
    /// `/` and `/g/{id}`: the board and the game panel.
    Game,
    /// `/rules`.
    Rules,
    /// `/account`: sign up, sign in, the signed-in account (all optional: playing needs
    /// no account).
    Account,
    /// `/lobby`: quick pairing, seeks, challenges, the games being played now.
    Lobby,
    /// `/@/{username}`: a player's ratings, rating history and games.
    Player,
    /// `/leaderboard`: the best players of each speed.
    Leaderboard,
    /// `/analysis`: the analysis board.
    Analysis,
}

/// What a page puts into the frame every page shares (`assets/page.html`: the head, the
/// header of `assets/header.html`, the footer).
struct Slots {
    /// The page's name in `<body data-page>`, which tells the script what to run.
    name: &'static str,
    /// The catalogue key of the page's title.
    title_key: &'static str,
    /// The id the skip link jumps to.
    skip_target: &'static str,
    /// The catalogue key of the skip link's text.
    skip_key: &'static str,
    /// Where the header's link goes.
    nav_href: &'static str,
    /// The catalogue key of its text.
    nav_key: &'static str,
}

impl Page {
    /// Every page.
    pub const ALL: [Page; 7] = [
        Page::Game,
        Page::Rules,
        Page::Account,
        Page::Lobby,
        Page::Player,
        Page::Leaderboard,
        Page::Analysis,
    ];

    const fn body(self) -> &'static str {
        match self {
            Page::Game => include_str!("../../assets/index.html"),
            Page::Rules => include_str!("../../assets/rules.html"),
            Page::Account => include_str!("../../assets/account.html"),
            Page::Lobby => include_str!("../../assets/lobby.html"),
            Page::Player => include_str!("../../assets/player.html"),
            Page::Leaderboard => include_str!("../../assets/leaderboard.html"),
            Page::Analysis => include_str!("../../assets/analysis.html"),
        }
    }

    const fn slots(self) -> Slots {
        match self {
            Page::Game => Slots {
                name: "game",
                title_key: "page.title",
                skip_target: "panel",
                skip_key: "a11y.skip",
                nav_href: "/rules",
                nav_key: "header.rules",
            },
            Page::Rules => Slots {
                name: "rules",
                title_key: "rules.page-title",
                skip_target: "rules-text",
                skip_key: "a11y.skip-rules",
                nav_href: "/",
                nav_key: "header.play",
            },
            Page::Account => Slots {
                name: "account",
                title_key: "account.page-title",
                skip_target: "account",
                skip_key: "a11y.skip-account",
                nav_href: "/",
                nav_key: "header.play",
            },
            Page::Lobby => Slots {
                name: "lobby",
                title_key: "lobby.page-title",
                skip_target: "lobby",
                skip_key: "a11y.skip-lobby",
                nav_href: "/",
                nav_key: "header.play",
            },
            Page::Player => Slots {
                name: "player",
                title_key: "player.page-title",
                skip_target: "player",
                skip_key: "a11y.skip-player",
                nav_href: "/",
                nav_key: "header.play",
            },
            Page::Leaderboard => Slots {
                name: "leaderboard",
                title_key: "leaderboard.page-title",
                skip_target: "leaderboard",
                skip_key: "a11y.skip-leaderboard",
                nav_href: "/",
                nav_key: "header.play",
            },
            Page::Analysis => Slots {
                name: "analysis",
                title_key: "analysis.page-title",
                skip_target: "analysis",
                skip_key: "a11y.skip-analysis",
                nav_href: "/",
                nav_key: "header.play",
            },
        }
    }

    /// The page's template with the header inserted at `{{header}}`: still to be filled
    /// for a language by [`crate::i18n::render`]. Built once.
    ///
    /// ```
    /// use agon_web::pages::Page;
    /// for page in Page::ALL {
    ///     let html = page.template();
    ///     assert!(html.contains(r#"<a class="skip-link""#));
    ///     let codes = agon_web::Language::ALL.map(|l| l.code());
    ///     let switch = |code| format!(r#"<option value="{code}" lang="{code}""#);
    ///     assert!(codes.iter().all(|code| html.matches(&switch(code)).count() == 1));
    ///     assert_eq!(html.matches(r#"" lang=""#).count(), codes.len());
    /// }
    /// ```
    pub fn template(self) -> &'static str {
        static TEMPLATES: OnceLock<[String; 7]> = OnceLock::new();
        let all = TEMPLATES.get_or_init(|| Page::ALL.map(|page| page.assemble()));
        &all[self as usize]
    }

    fn assemble(self) -> String {
        let slots = self.slots();
        let header = include_str!("../../assets/header.html")
            .replace("{{skip-target}}", slots.skip_target)
            .replace("{{skip-key}}", slots.skip_key)
            .replace("{{skip-text}}", &format!("{{{{t:{}}}}}", slots.skip_key))
            .replace("{{nav-href}}", slots.nav_href)
            .replace("{{nav-key}}", slots.nav_key)
            .replace("{{nav-text}}", &format!("{{{{t:{}}}}}", slots.nav_key))
            .replace("{{languages}}", &language_options());
        include_str!("../../assets/page.html")
            .replace("{{page}}", slots.name)
            .replace("{{title-key}}", slots.title_key)
            .replace("{{title-text}}", &format!("{{{{t:{}}}}}", slots.title_key))
            .replacen("{{header}}\n", &header, 1)
            .replacen("{{main}}\n", self.body(), 1)
            .replace("{{rule-options}}\n", &rule_option_controls())
            .replace("{{rule-list}}\n", &rule_list())
            .split_inclusive('\n')
            .map(|line| offer_fields(line).unwrap_or_else(|| line.to_string()))
            .collect()
    }

    /// The page in `language`.
    pub fn render(self, language: Language) -> String {
        crate::i18n::render(self.template(), language)
    }
}

/// The fields of a game offered to others, for a line `{{offer-fields:PREFIX:CONTROL}}`:
/// the time control (`CONTROL` by default, with its help), the rule set, the colour and
/// "rated", with ids `PREFIX-control`, `PREFIX-rules`, `PREFIX-colour`, `PREFIX-rated`.
/// The lobby's seek and challenge forms and a player page's challenge share them; `None`
/// for any other line.
///
/// ```
/// let html = agon_web::pages::Page::Lobby.template();
/// for form in ["seek", "challenge"] {
///     assert!(html.contains(&format!(r#"<select id="{form}-colour" name="colour">"#)));
///     assert!(html.contains(&format!(r#"aria-describedby="{form}-control-help""#)));
/// }
/// assert!(html.contains(r#"id="seek-control" class="text-input" type="text" name="control" value="5+3""#));
/// assert!(!html.contains("{{offer-fields"));
/// ```
fn offer_fields(line: &str) -> Option<String> {
    let spec = line
        .trim()
        .strip_prefix("{{offer-fields:")?
        .strip_suffix("}}")?;
    let (prefix, control) = spec.split_once(':')?;
    let mut out = format!(
        r#"      <div class="field">
        <label for="{prefix}-control" data-i18n="lobby.control">{{{{t:lobby.control}}}}</label>
        <input id="{prefix}-control" class="text-input" type="text" name="control" value="{control}" required maxlength="14" dir="ltr" aria-describedby="{prefix}-control-help">
        <p id="{prefix}-control-help" class="account-help" data-i18n="lobby.control-help">{{{{t:lobby.control-help}}}}</p>
      </div>
      <div class="field">
        <label for="{prefix}-rules" data-i18n="lobby.rules">{{{{t:lobby.rules}}}}</label>
        <input id="{prefix}-rules" class="text-input" type="text" name="rules" value="standard" maxlength="200" dir="ltr">
      </div>
      <div class="field">
        <label for="{prefix}-colour" data-i18n="lobby.colour">{{{{t:lobby.colour}}}}</label>
        <select id="{prefix}-colour" name="colour">
"#
    );
    for colour in ["random", "white", "black"] {
        out.push_str(&format!(
            "          <option value=\"{colour}\" data-i18n=\"lobby.colour.{colour}\">{{{{t:lobby.colour.{colour}}}}}</option>\n"
        ));
    }
    out.push_str(&format!(
        r#"        </select>
      </div>
      <p class="account-check">
        <input id="{prefix}-rated" type="checkbox" name="rated">
        <label for="{prefix}-rated" data-i18n="lobby.rated">{{{{t:lobby.rated}}}}</label>
      </p>
"#
    ));
    Some(out)
}

/// The language switch's options: every language, named in itself. The page's script
/// takes its list of languages from them.
fn language_options() -> String {
    let mut out = String::new();
    for language in Language::ALL {
        let code = language.code();
        let dir = if language.is_rtl() {
            r#" dir="rtl""#
        } else {
            ""
        };
        let name = escape_html(language.text("meta.name"));
        out.push_str(&format!(
            "        <option value=\"{code}\" lang=\"{code}\"{dir}>{name}</option>\n"
        ));
    }
    out
}

/// The "New game" panel's controls for each option of the rule set, from agon-core's
/// list of options and values: a select for each option (a number input for the move
/// limit), each carrying its value in every preset (`data-preset-standard`, ...), so that
/// the script can set them from a preset and compose the text form.
///
/// ```
/// let html = agon_web::pages::Page::Game.template();
/// assert!(html.contains(r#"<select id="rule-capture" name="capture" data-rule="capture""#));
/// assert!(html.contains(r#"data-preset-ludii="2500""#));
/// ```
fn rule_option_controls() -> String {
    use agon_core::Rules;
    let mut out = String::new();
    for (option, values) in super::state::rule_option_values() {
        let presets: String = Rules::PRESETS
            .iter()
            .map(|(name, rules)| {
                let value = super::state::rule_values(*rules)
                    .into_iter()
                    .find(|v| v.option == option)
                    .map(|v| v.value)
                    .unwrap_or_default();
                // The number input is empty for no limit.
                let value = if option == "limit" && value == "none" {
                    String::new()
                } else {
                    value
                };
                format!(" data-preset-{name}=\"{value}\"")
            })
            .collect();
        out.push_str("          <div class=\"rule-row\">\n");
        out.push_str(&format!(
            "            <label for=\"rule-{option}\" data-i18n=\"rule.{option}\">{{{{t:rule.{option}}}}}</label>\n"
        ));
        if option == "limit" {
            out.push_str(&format!(
                "            <input id=\"rule-limit\" name=\"limit\" data-rule=\"limit\"{presets} type=\"number\" min=\"1\" max=\"{}\" step=\"1\" inputmode=\"numeric\" dir=\"ltr\" data-i18n-attr=\"placeholder:rule.limit.none\" placeholder=\"{{{{t:rule.limit.none}}}}\" aria-describedby=\"rule-limit-help\">\n",
                Rules::MAX_LIMIT
            ));
        } else {
            out.push_str(&format!(
                "            <select id=\"rule-{option}\" name=\"{option}\" data-rule=\"{option}\"{presets}>\n"
            ));
            for value in values {
                out.push_str(&format!(
                    "              <option value=\"{value}\" data-i18n=\"rule.{option}.{value}\">{{{{t:rule.{option}.{value}}}}}</option>\n"
                ));
            }
            out.push_str("            </select>\n");
        }
        out.push_str("          </div>\n");
    }
    out
}

/// The rules page's list of the rule set's options: each option's name (translated, then
/// as the text form writes it) and what its values do.
///
/// ```
/// let html = agon_web::pages::Page::Rules.template();
/// assert!(html.contains(r#"<dd data-i18n="rules.variant.queen-placer">"#));
/// ```
fn rule_list() -> String {
    let mut out = String::new();
    for option in agon_core::Rules::OPTIONS {
        out.push_str(&format!(
            "      <dt><span data-i18n=\"rule.{option}\">{{{{t:rule.{option}}}}}</span> <code dir=\"ltr\">{option}</code></dt>\n      <dd data-i18n=\"rules.variant.{option}\">{{{{t:rules.variant.{option}}}}}</dd>\n"
        ));
    }
    out
}

/// The embedded files under `/assets/`: name, content type, bytes. The script is a set of
/// ES modules (`js/main.js` imports the others), served as they are.
const ASSETS: [(&str, &str, &str); 23] = [
    ("js/main.js", JS, include_str!("../../assets/js/main.js")),
    ("js/state.js", JS, include_str!("../../assets/js/state.js")),
    ("js/api.js", JS, include_str!("../../assets/js/api.js")),
    ("js/i18n.js", JS, include_str!("../../assets/js/i18n.js")),
    ("js/board.js", JS, include_str!("../../assets/js/board.js")),
    ("js/focus.js", JS, include_str!("../../assets/js/focus.js")),
    ("js/panel.js", JS, include_str!("../../assets/js/panel.js")),
    ("js/game.js", JS, include_str!("../../assets/js/game.js")),
    (
        "js/events.js",
        JS,
        include_str!("../../assets/js/events.js"),
    ),
    ("js/rules.js", JS, include_str!("../../assets/js/rules.js")),
    (
        "js/ruleset.js",
        JS,
        include_str!("../../assets/js/ruleset.js"),
    ),
    ("js/live.js", JS, include_str!("../../assets/js/live.js")),
    (
        "js/change.js",
        JS,
        include_str!("../../assets/js/change.js"),
    ),
    ("js/clock.js", JS, include_str!("../../assets/js/clock.js")),
    ("js/blind.js", JS, include_str!("../../assets/js/blind.js")),
    ("js/sound.js", JS, include_str!("../../assets/js/sound.js")),
    (
        "js/review.js",
        JS,
        include_str!("../../assets/js/review.js"),
    ),
    (
        "js/account.js",
        JS,
        include_str!("../../assets/js/account.js"),
    ),
    ("js/lobby.js", JS, include_str!("../../assets/js/lobby.js")),
    (
        "js/players.js",
        JS,
        include_str!("../../assets/js/players.js"),
    ),
    (
        "js/analysis.js",
        JS,
        include_str!("../../assets/js/analysis.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../assets/style.css"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../../assets/favicon.svg"),
    ),
];

/// The content type of a module script (a module with any other type does not run).
const JS: &str = "text/javascript; charset=utf-8";

/// The names of the embedded files under `/assets/`.
///
/// ```
/// assert!(agon_web::pages::asset_names().any(|name| name == "js/main.js"));
/// ```
pub fn asset_names() -> impl Iterator<Item = &'static str> {
    ASSETS.iter().map(|(name, _, _)| *name)
}

/// An entity tag of embedded bytes: the start of their SHA-256.
fn etag(body: &str) -> String {
    let digest = Sha256::digest(body.as_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// `GET /assets/{*file}`. `no-cache` with an `ETag`: the browser asks again each time and
/// gets `304 Not Modified` while the binary is the same.
pub(crate) async fn asset(
    Path(file): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    static TAGS: OnceLock<Vec<String>> = OnceLock::new();
    let tags = TAGS.get_or_init(|| ASSETS.iter().map(|(_, _, body)| etag(body)).collect());
    let index = ASSETS
        .iter()
        .position(|(name, _, _)| *name == file)
        .ok_or(ApiError::new(
            StatusCode::NOT_FOUND,
            "not-found",
            "no such file",
        ))?;
    let (_, content_type, body) = ASSETS[index];
    let tag = tags[index].as_str();
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    let fixed = [
        (header::CONTENT_TYPE, content_type),
        (header::CACHE_CONTROL, "no-cache"),
        (header::ETAG, tag),
    ];
    Ok(if fresh {
        (StatusCode::NOT_MODIFIED, fixed).into_response()
    } else {
        (fixed, body).into_response()
    })
}

/// `GET /i18n/{lang}.json`.
pub(crate) async fn catalogue(Path(file): Path<String>) -> Result<Response, ApiError> {
    let language = file
        .strip_suffix(".json")
        .and_then(Language::from_code)
        .ok_or(ApiError::new(
            StatusCode::NOT_FOUND,
            "not-found",
            "no such language",
        ))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        language.catalogue_json(),
    )
        .into_response())
}
