//! The page's languages: one catalogue a language (`assets/i18n/*.json`, embedded), the
//! choice of language for a request, and the filling of the page templates.

use std::collections::HashMap;
use std::sync::OnceLock;

/// A language of the page.
///
/// ```
/// use agon_web::Language;
/// assert_eq!(Language::from_code("ar"), Some(Language::Ar));
/// assert!(Language::Ar.is_rtl());
/// assert_eq!(Language::Pt.code(), "pt");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Language {
    /// English, the default.
    En,
    /// Portuguese.
    Pt,
    /// Polish.
    Pl,
    /// Turkish.
    Tr,
    /// Malay.
    Ms,
    /// Arabic, written right to left.
    Ar,
}

impl Language {
    /// Every language, English first.
    pub const ALL: [Language; 6] = [
        Language::En,
        Language::Pt,
        Language::Pl,
        Language::Tr,
        Language::Ms,
        Language::Ar,
    ];

    /// The language's code: `en`, `pt`, `pl`, `tr`, `ms` or `ar`.
    ///
    /// ```
    /// assert_eq!(agon_web::Language::Ms.code(), "ms");
    /// ```
    pub const fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Pt => "pt",
            Language::Pl => "pl",
            Language::Tr => "tr",
            Language::Ms => "ms",
            Language::Ar => "ar",
        }
    }

    /// The language with this code (case-insensitive), if the page has it.
    ///
    /// ```
    /// use agon_web::Language;
    /// assert_eq!(Language::from_code("PL"), Some(Language::Pl));
    /// assert_eq!(Language::from_code("de"), None);
    /// ```
    pub fn from_code(code: &str) -> Option<Language> {
        Language::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code))
    }

    /// Whether the language is written right to left.
    ///
    /// ```
    /// assert!(!agon_web::Language::Tr.is_rtl());
    /// ```
    pub const fn is_rtl(self) -> bool {
        matches!(self, Language::Ar)
    }

    /// The catalogue file, as embedded.
    pub(crate) const fn catalogue_json(self) -> &'static str {
        match self {
            Language::En => include_str!("../assets/i18n/en.json"),
            Language::Pt => include_str!("../assets/i18n/pt.json"),
            Language::Pl => include_str!("../assets/i18n/pl.json"),
            Language::Tr => include_str!("../assets/i18n/tr.json"),
            Language::Ms => include_str!("../assets/i18n/ms.json"),
            Language::Ar => include_str!("../assets/i18n/ar.json"),
        }
    }

    /// The language's catalogue: key to plain text.
    ///
    /// ```
    /// use agon_web::Language;
    /// assert_eq!(Language::Ar.catalogue().get("meta.dir").map(String::as_str), Some("rtl"));
    /// ```
    pub fn catalogue(self) -> &'static HashMap<String, String> {
        static CATALOGUES: OnceLock<Vec<HashMap<String, String>>> = OnceLock::new();
        let all = CATALOGUES.get_or_init(|| {
            Language::ALL
                .iter()
                // A catalogue that is not valid JSON fails the tests; the server then
                // falls back to English for each missing string.
                .map(|l| serde_json::from_str(l.catalogue_json()).unwrap_or_default())
                .collect()
        });
        &all[self as usize]
    }

    /// The text of `key`, falling back to English, then to the key itself.
    ///
    /// ```
    /// use agon_web::Language;
    /// assert_eq!(Language::En.text("no.such.key"), "no.such.key");
    /// ```
    pub fn text(self, key: &str) -> &str {
        self.catalogue()
            .get(key)
            .or_else(|| Language::En.catalogue().get(key))
            .map_or(key, String::as_str)
    }

    /// The language for a request: `?lang=`, else the `agon_lang` cookie, else the best
    /// match in `Accept-Language`, else English.
    ///
    /// ```
    /// use agon_web::Language;
    /// assert_eq!(Language::choose(None, None, Some("de-DE,pl;q=0.8,ar;q=0.9")), Language::Ar);
    /// assert_eq!(Language::choose(None, Some("agon_lang=tr"), Some("ar")), Language::Tr);
    /// assert_eq!(Language::choose(Some("ms"), Some("agon_lang=tr"), None), Language::Ms);
    /// assert_eq!(Language::choose(None, None, Some("de, fr;q=0.5")), Language::En);
    /// ```
    pub fn choose(
        query: Option<&str>,
        cookie: Option<&str>,
        accept_language: Option<&str>,
    ) -> Language {
        query
            .and_then(Language::from_code)
            .or_else(|| cookie.and_then(from_cookie))
            .or_else(|| accept_language.and_then(from_accept_language))
            .unwrap_or(Language::En)
    }
}

/// The `agon_lang` value of a `Cookie` header.
fn from_cookie(header: &str) -> Option<Language> {
    header.split(';').find_map(|pair| {
        let (name, value) = pair.split_once('=')?;
        (name.trim() == "agon_lang")
            .then(|| Language::from_code(value.trim()))
            .flatten()
    })
}

/// The page's language that `Accept-Language` ranks highest (RFC 9110, section 12.5.4).
fn from_accept_language(header: &str) -> Option<Language> {
    let mut best: Option<(u16, Language)> = None;
    for item in header.split(',').take(32) {
        let mut parts = item.split(';');
        let tag = parts.next().unwrap_or("").trim();
        let primary = tag.split('-').next().unwrap_or("");
        let Some(language) = Language::from_code(primary) else {
            continue;
        };
        let quality = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .map_or(1000, parse_quality);
        if quality > 0 && best.is_none_or(|(q, _)| quality > q) {
            best = Some((quality, language));
        }
    }
    best.map(|(_, l)| l)
}

/// A quality value `0.8` in thousandths; anything unreadable counts as 0.
fn parse_quality(text: &str) -> u16 {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits: String = fraction.chars().chain("000".chars()).take(3).collect();
    match (whole, digits.parse::<u16>()) {
        ("1", _) => 1000,
        ("0", Ok(f)) if fraction.chars().all(|c| c.is_ascii_digit()) => f,
        _ => 0,
    }
}

/// Escapes text for HTML content and attribute values.
///
/// ```
/// assert_eq!(agon_web::i18n::escape_html("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
/// ```
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Fills a page template: `{{lang}}`, `{{dir}}` and `{{t:KEY}}` (the escaped text of KEY).
///
/// ```
/// use agon_web::{i18n::render, Language};
/// let html = render("<html lang=\"{{lang}}\" dir=\"{{dir}}\">{{t:meta.name}}", Language::Ar);
/// assert_eq!(html, "<html lang=\"ar\" dir=\"rtl\">العربية");
/// ```
pub fn render(template: &str, language: Language) -> String {
    let mut out = String::with_capacity(template.len() * 2);
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            out.push_str(&rest[open..]);
            return out;
        };
        let name = &after[..close];
        match name {
            "lang" => out.push_str(language.code()),
            "dir" => out.push_str(if language.is_rtl() { "rtl" } else { "ltr" }),
            _ => match name.strip_prefix("t:") {
                Some(key) => out.push_str(&escape_html(language.text(key))),
                None => out.push_str(&rest[open..open + 2 + close + 2]),
            },
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}
