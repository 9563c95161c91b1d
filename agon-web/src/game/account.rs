//! Accounts' rules that need no storage: what a username may be ([`Username`]), the keys
//! that make usernames unique whatever their case or look-alike characters
//! ([`Username::key`], [`skeleton`]), and the secrets a person or a program holds (a
//! session's cookie and a bot's API token, [`Token`]; the recovery codes of a lost
//! device, [`RecoveryCode`]): their text, their digest (the only form the database keeps)
//! and their comparison in constant time.
//!
//! Secrets are made from random bytes the caller draws from the operating system (the
//! server's one source of randomness), so every format here is tested on fixed bytes.
//! Every secret carries at least 80 random bits, so a plain SHA-256 digest is enough to
//! keep: no one can search that space from a leaked digest (a password would need a slow
//! hash; there are none).
//!
//! ```
//! use agon_web::game::account::{Token, Username};
//! let name = Username::parse("Ilya_0").unwrap();
//! assert_eq!(name.key(), "ilya_0");
//! // Look-alikes share a skeleton, so the second cannot be registered.
//! assert_eq!(name.skeleton(), Username::parse("llya-O").unwrap().skeleton());
//! let token = Token::api([7; 20]);
//! assert!(token.as_str().starts_with("agon_"));
//! assert_eq!(format!("{token:?}"), "Token(agon_…)", "never printed whole");
//! ```

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The fewest characters a username has.
///
/// ```
/// assert_eq!(agon_web::game::account::MIN_USERNAME, 3);
/// ```
pub const MIN_USERNAME: usize = 3;

/// The most characters a username has (lichess's 20: it fits a lobby's row).
///
/// ```
/// assert_eq!(agon_web::game::account::MAX_USERNAME, 20);
/// ```
pub const MAX_USERNAME: usize = 20;

/// Names no one may take, compared by [`skeleton`] (so `Adm1n` is `admin`): the site's
/// own words, its roles, and what it shows in place of a player (`anonymous` for a
/// guest, `deleted` for a deleted account's games).
///
/// ```
/// use agon_web::game::account::RESERVED;
/// assert!(RESERVED.contains(&"deleted"));
/// ```
pub const RESERVED: &[&str] = &[
    "account",
    "admin",
    "administrator",
    "agon",
    "anonymous",
    "api",
    "bot",
    "bots",
    "computer",
    "deleted",
    "friend",
    "guest",
    "help",
    "lobby",
    "login",
    "logout",
    "moderator",
    "null",
    "official",
    "owner",
    "player",
    "root",
    "server",
    "settings",
    "signin",
    "signup",
    "staff",
    "support",
    "system",
    "team",
    "undefined",
    "unknown",
    "www",
];

/// Words no username may contain, compared by [`skeleton`]: who speaks for the site.
const RESERVED_WITHIN: &[&str] = &["admin", "moderator", "official"];

/// Beginnings no username may have, compared by [`skeleton`]: the site's own name
/// followed by a separator (`agon-team`, `agon_bot`), while `agony` stays free.
const RESERVED_PREFIXES: &[&str] = &["agon-", "agon_"];

/// Why a text is not a username, each with its name in the API.
///
/// ```
/// use agon_web::game::account::{Username, UsernameError};
/// let e = Username::parse("a").unwrap_err();
/// assert_eq!(e, UsernameError::TooShort);
/// assert_eq!(e.name(), "username-too-short");
/// assert_eq!(e.to_string(), "a username has at least 3 characters");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsernameError {
    /// Fewer than [`MIN_USERNAME`] characters.
    TooShort,
    /// More than [`MAX_USERNAME`] characters.
    TooLong,
    /// A character other than an ASCII letter, digit, `_` or `-`.
    BadCharacter(char),
    /// The first character is not a letter.
    BadStart,
    /// The last character is not a letter or digit.
    BadEnd,
    /// Two separators (`_`, `-`) in a row.
    DoubleSeparator,
    /// A reserved name, or one that looks like it.
    Reserved,
}

impl UsernameError {
    /// The error's name in the API: `username-too-short`, `username-too-long`,
    /// `username-bad-character`, `username-bad-start`, `username-bad-end`,
    /// `username-double-separator`, `username-reserved`.
    ///
    /// ```
    /// use agon_web::game::account::UsernameError;
    /// assert_eq!(UsernameError::BadCharacter('é').name(), "username-bad-character");
    /// ```
    pub const fn name(&self) -> &'static str {
        match self {
            UsernameError::TooShort => "username-too-short",
            UsernameError::TooLong => "username-too-long",
            UsernameError::BadCharacter(_) => "username-bad-character",
            UsernameError::BadStart => "username-bad-start",
            UsernameError::BadEnd => "username-bad-end",
            UsernameError::DoubleSeparator => "username-double-separator",
            UsernameError::Reserved => "username-reserved",
        }
    }
}

impl std::fmt::Display for UsernameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UsernameError::TooShort => {
                write!(f, "a username has at least {MIN_USERNAME} characters")
            }
            UsernameError::TooLong => write!(f, "a username has at most {MAX_USERNAME} characters"),
            UsernameError::BadCharacter(c) => write!(
                f,
                "a username has only letters a to z, digits, _ and -, not {:?}",
                c
            ),
            UsernameError::BadStart => write!(f, "a username begins with a letter"),
            UsernameError::BadEnd => write!(f, "a username ends with a letter or a digit"),
            UsernameError::DoubleSeparator => {
                write!(f, "a username has no two _ or - in a row")
            }
            UsernameError::Reserved => write!(f, "this username is reserved"),
        }
    }
}

impl std::error::Error for UsernameError {}

/// A valid username, as its owner typed it (the case they chose is how it is shown).
///
/// The rules: 3 to 20 characters; ASCII letters, digits, `_` and `-` only (so no
/// Unicode look-alike of a Latin letter can get in); a letter first; a letter or digit
/// last; no two separators in a row; not reserved ([`RESERVED`], or containing `admin`,
/// `moderator` or `official`, or beginning with `agon-` or `agon_`, each up to look-alike
/// characters). Two accounts cannot have the same [`Username::skeleton`].
///
/// ```
/// use agon_web::game::account::{Username, UsernameError};
/// assert_eq!(Username::parse("Zoe-2").unwrap().as_str(), "Zoe-2");
/// assert_eq!(Username::parse("2zoe"), Err(UsernameError::BadStart));
/// assert_eq!(Username::parse("Adm1n"), Err(UsernameError::Reserved));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Username(String);

impl Username {
    /// Checks `text` against the rules, the first broken one named in order: length,
    /// characters, start, end, separators, reservation.
    ///
    /// ```
    /// use agon_web::game::account::{Username, UsernameError};
    /// assert_eq!(Username::parse("ab_"), Err(UsernameError::BadEnd));
    /// assert_eq!(Username::parse("a__b"), Err(UsernameError::DoubleSeparator));
    /// assert_eq!(Username::parse("ab cd"), Err(UsernameError::BadCharacter(' ')));
    /// ```
    pub fn parse(text: &str) -> Result<Username, UsernameError> {
        let count = text.chars().count();
        if count < MIN_USERNAME {
            return Err(UsernameError::TooShort);
        }
        if count > MAX_USERNAME {
            return Err(UsernameError::TooLong);
        }
        if let Some(c) = text.chars().find(|c| !is_username_char(*c)) {
            return Err(UsernameError::BadCharacter(c));
        }
        let bytes = text.as_bytes();
        if !bytes[0].is_ascii_alphabetic() {
            return Err(UsernameError::BadStart);
        }
        if !bytes[bytes.len() - 1].is_ascii_alphanumeric() {
            return Err(UsernameError::BadEnd);
        }
        if bytes
            .windows(2)
            .any(|w| is_separator(w[0]) && is_separator(w[1]))
        {
            return Err(UsernameError::DoubleSeparator);
        }
        if is_reserved(text) {
            return Err(UsernameError::Reserved);
        }
        Ok(Username(text.to_string()))
    }

    /// The name as its owner typed it.
    ///
    /// ```
    /// use agon_web::game::account::Username;
    /// assert_eq!(Username::parse("MiXed").unwrap().as_str(), "MiXed");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name in lower case: how it is found (`/@/zoe` finds `Zoe`) and compared.
    ///
    /// ```
    /// use agon_web::game::account::Username;
    /// assert_eq!(Username::parse("MiXed").unwrap().key(), "mixed");
    /// ```
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }

    /// The name's [`skeleton`]: unique among accounts, so no one can take a name that
    /// looks like another's.
    ///
    /// ```
    /// use agon_web::game::account::Username;
    /// let skeleton = |s| Username::parse(s).unwrap().skeleton();
    /// assert_eq!(skeleton("Bob"), skeleton("b0b"));
    /// assert_ne!(skeleton("Bob"), skeleton("Rob"));
    /// ```
    pub fn skeleton(&self) -> String {
        skeleton(&self.0)
    }
}

impl std::fmt::Display for Username {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A character a username may hold: an ASCII letter or digit, `_` or `-`.
fn is_username_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn is_separator(b: u8) -> bool {
    b == b'_' || b == b'-'
}

/// Whether `text` is reserved: by [`skeleton`], one of [`RESERVED`], containing one of
/// `RESERVED_WITHIN`, or beginning with one of `RESERVED_PREFIXES`.
fn is_reserved(text: &str) -> bool {
    let s = skeleton(text);
    RESERVED.iter().any(|r| s == skeleton(r))
        || RESERVED_WITHIN.iter().any(|r| s.contains(&skeleton(r)))
        || RESERVED_PREFIXES
            .iter()
            .any(|r| s.starts_with(&skeleton(r)))
}

/// A text's skeleton: what it looks like, whatever its case and look-alike characters.
/// Lower case first, then each character by its class: `i`, `l` and `1` are `l` (`I`
/// and `l` look alike, and `i` is `I` lowered); `0` is `o`; `5` is `s`; `2` is `z`; `8`
/// is `b`; `9` is `g`; `_` is `-`; and the letters that two others can draw are written
/// as those two: `m` as `rn`, `w` as `vv`, `d` as `cl` (so `rn`, `vv` and `cl` match
/// them, in any order of writing, as Unicode's confusable skeletons do).
///
/// ```
/// use agon_web::game::account::skeleton;
/// assert_eq!(skeleton("Ilya"), skeleton("llya"));
/// assert_eq!(skeleton("Ilya"), skeleton("1lya"));
/// assert_eq!(skeleton("modern"), skeleton("rnodern"));
/// assert_eq!(skeleton("wolf_2"), skeleton("vvo1f-z"));
/// assert_ne!(skeleton("ann"), skeleton("anna"));
/// ```
pub fn skeleton(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    for c in text.chars() {
        match c.to_ascii_lowercase() {
            'i' | 'l' | '1' => out.push('l'),
            '0' => out.push('o'),
            '5' => out.push('s'),
            '2' => out.push('z'),
            '8' => out.push('b'),
            '9' => out.push('g'),
            '_' => out.push('-'),
            'm' => out.push_str("rn"),
            'w' => out.push_str("vv"),
            'd' => out.push_str("cl"),
            other => out.push(other),
        }
    }
    out
}

/// How many random bytes a [`Token`] carries: 160 bits.
///
/// ```
/// assert_eq!(agon_web::game::account::TOKEN_BYTES, 20);
/// ```
pub const TOKEN_BYTES: usize = 20;

/// How many random bytes a [`RecoveryCode`] carries: 80 bits, 16 characters to type.
///
/// ```
/// assert_eq!(agon_web::game::account::RECOVERY_CODE_BYTES, 10);
/// ```
pub const RECOVERY_CODE_BYTES: usize = 10;

/// How many recovery codes an account gets at sign-up, each usable once.
///
/// ```
/// assert_eq!(agon_web::game::account::RECOVERY_CODES, 10);
/// ```
pub const RECOVERY_CODES: usize = 10;

/// The prefix of an API token: it says what the secret is to whoever finds one (a
/// scanner of leaked secrets, a reader of a log), and tells it from a session's.
///
/// ```
/// assert_eq!(agon_web::game::account::API_TOKEN_PREFIX, "agon_");
/// ```
pub const API_TOKEN_PREFIX: &str = "agon_";

/// The digits of the secrets' text: Crockford's base 32, lower case (no `i`, `l`, `o`
/// or `u`, so nothing read aloud or copied by hand is ambiguous).
const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// `bytes` (a multiple of 5) in [`ALPHABET`], 8 digits for each 5 bytes.
fn base32(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 8 / 5);
    for chunk in bytes.chunks(5) {
        let mut block = [0u8; 8];
        block[..chunk.len()].copy_from_slice(chunk);
        let bits = u64::from_be_bytes(block) >> 24;
        for k in (0..8).rev() {
            out.push(ALPHABET[((bits >> (5 * k)) & 31) as usize] as char);
        }
    }
    out
}

/// The SHA-256 digest of a secret's text: what the database keeps.
fn digest_of(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// Whether two digests are equal, in time that does not depend on where they differ.
///
/// ```
/// use agon_web::game::account::same_digest;
/// assert!(same_digest(&[1; 32], &[1; 32]));
/// assert!(!same_digest(&[1; 32], &[2; 32]));
/// ```
pub fn same_digest(a: &[u8; 32], b: &[u8; 32]) -> bool {
    bool::from(a.ct_eq(b))
}

/// Why a text is not a token of the kind expected (the API answers all of them alike,
/// `401`: a wrong token and a malformed one tell a guesser nothing different).
///
/// ```
/// use agon_web::game::account::{Token, TokenError};
/// assert_eq!(Token::parse_api("agon_abc"), Err(TokenError::Length));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TokenError {
    /// An API token without [`API_TOKEN_PREFIX`].
    Prefix,
    /// Not the length of a token or code.
    Length,
    /// A character outside the token's or code's alphabet.
    Character,
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TokenError::Prefix => "an API token begins with agon_",
            TokenError::Length => "not the length of a token",
            TokenError::Character => "a character that no token has",
        })
    }
}

impl std::error::Error for TokenError {}

/// A bearer secret: a session's cookie value (32 base-32 digits) or a bot's API token
/// (`agon_` and 32 digits), each 160 random bits. Its [`Debug`](std::fmt::Debug) form
/// hides it, so no log line can hold one.
///
/// ```
/// use agon_web::game::account::Token;
/// let session = Token::session([0; 20]);
/// assert_eq!(session.as_str(), "00000000000000000000000000000000");
/// assert_eq!(format!("{session:?}"), "Token(…)");
/// assert_eq!(Token::parse_session(session.as_str()), Ok(session));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A session's secret from these random bytes.
    ///
    /// ```
    /// use agon_web::game::account::Token;
    /// assert_eq!(Token::session([255; 20]).as_str(), "z".repeat(32));
    /// ```
    pub fn session(bytes: [u8; TOKEN_BYTES]) -> Token {
        Token(base32(&bytes))
    }

    /// An API token from these random bytes: `agon_` and 32 digits.
    ///
    /// ```
    /// use agon_web::game::account::Token;
    /// assert_eq!(Token::api([0; 20]).as_str().len(), 37);
    /// ```
    pub fn api(bytes: [u8; TOKEN_BYTES]) -> Token {
        Token(format!("{API_TOKEN_PREFIX}{}", base32(&bytes)))
    }

    /// A session's secret as a cookie brought it, checked for its form (its digest then
    /// finds the session, or none).
    ///
    /// ```
    /// use agon_web::game::account::{Token, TokenError};
    /// assert_eq!(Token::parse_session("0123"), Err(TokenError::Length));
    /// ```
    pub fn parse_session(text: &str) -> Result<Token, TokenError> {
        check_digits(text, TOKEN_BYTES * 8 / 5)?;
        Ok(Token(text.to_string()))
    }

    /// An API token as an `Authorization: Bearer` header brought it, checked for its form.
    ///
    /// ```
    /// use agon_web::game::account::{Token, TokenError};
    /// let token = Token::api([9; 20]);
    /// assert_eq!(Token::parse_api(token.as_str()), Ok(token));
    /// assert_eq!(Token::parse_api(&"0".repeat(37)), Err(TokenError::Prefix));
    /// ```
    pub fn parse_api(text: &str) -> Result<Token, TokenError> {
        let digits = text
            .strip_prefix(API_TOKEN_PREFIX)
            .ok_or(TokenError::Prefix)?;
        check_digits(digits, TOKEN_BYTES * 8 / 5)?;
        Ok(Token(text.to_string()))
    }

    /// The secret's text, to show once (a new API token) or to set as a cookie.
    ///
    /// ```
    /// use agon_web::game::account::Token;
    /// assert_eq!(Token::api([0; 20]).as_str(), format!("agon_{}", "0".repeat(32)));
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The SHA-256 digest of the secret's text: the only form of it the database keeps.
    ///
    /// ```
    /// use agon_web::game::account::Token;
    /// let token = Token::session([1; 20]);
    /// assert_eq!(token.digest(), Token::parse_session(token.as_str()).unwrap().digest());
    /// assert_ne!(token.digest(), Token::session([2; 20]).digest());
    /// ```
    pub fn digest(&self) -> [u8; 32] {
        digest_of(&self.0)
    }
}

/// `Token(agon_…)` or `Token(…)`: never the secret.
impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let prefix = if self.0.starts_with(API_TOKEN_PREFIX) {
            API_TOKEN_PREFIX
        } else {
            ""
        };
        write!(f, "Token({prefix}…)")
    }
}

/// `text` is `len` digits of [`ALPHABET`].
fn check_digits(text: &str, len: usize) -> Result<(), TokenError> {
    if text.len() != len {
        return Err(TokenError::Length);
    }
    if !text.bytes().all(|b| ALPHABET.contains(&b)) {
        return Err(TokenError::Character);
    }
    Ok(())
}

/// A recovery code: 16 base-32 digits in four groups, `xxxx-xxxx-xxxx-xxxx`, shown once
/// at sign-up ([`RECOVERY_CODES`] of them) and kept as digests; each signs in once,
/// for a person who lost every passkey. Typed back, it is read forgivingly: any case,
/// with or without spaces and hyphens, and `i`, `l` read as `1`, `o` as `0` (Crockford's
/// rule for digits copied by hand).
///
/// ```
/// use agon_web::game::account::RecoveryCode;
/// let code = RecoveryCode::from_bytes([0x42; 10]);
/// assert_eq!(code.as_str(), "8914-4gj2-8914-4gj2");
/// let typed = RecoveryCode::parse(" 8914 4GJ2 8914 4gj2 ").unwrap();
/// assert_eq!(typed.digest(), code.digest());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct RecoveryCode(String);

impl RecoveryCode {
    /// The code of these random bytes.
    ///
    /// ```
    /// use agon_web::game::account::RecoveryCode;
    /// assert_eq!(RecoveryCode::from_bytes([255; 10]).as_str(), "zzzz-zzzz-zzzz-zzzz");
    /// ```
    pub fn from_bytes(bytes: [u8; RECOVERY_CODE_BYTES]) -> RecoveryCode {
        RecoveryCode(base32(&bytes))
    }

    /// A code as a person typed it, or [`TokenError`] if it cannot be one.
    ///
    /// ```
    /// use agon_web::game::account::{RecoveryCode, TokenError};
    /// assert_eq!(RecoveryCode::parse("8914-4gj2-8914").unwrap_err(), TokenError::Length);
    /// assert_eq!(RecoveryCode::parse("8914-4gj2-8914-4gju").unwrap_err(), TokenError::Character);
    /// let forgiving = RecoveryCode::parse("oIl0-0000-0000-0000").unwrap();
    /// assert_eq!(forgiving.as_str(), "0110-0000-0000-0000");
    /// ```
    pub fn parse(text: &str) -> Result<RecoveryCode, TokenError> {
        let mut digits = String::with_capacity(16);
        for c in text.chars() {
            match c.to_ascii_lowercase() {
                ' ' | '-' => {}
                'i' | 'l' => digits.push('1'),
                'o' => digits.push('0'),
                c => digits.push(c),
            }
        }
        check_digits(&digits, RECOVERY_CODE_BYTES * 8 / 5)?;
        Ok(RecoveryCode(digits))
    }

    /// The code as shown: four groups of four digits.
    ///
    /// ```
    /// use agon_web::game::account::RecoveryCode;
    /// assert_eq!(RecoveryCode::from_bytes([0; 10]).as_str(), "0000-0000-0000-0000");
    /// ```
    pub fn as_str(&self) -> String {
        let d = &self.0;
        format!("{}-{}-{}-{}", &d[0..4], &d[4..8], &d[8..12], &d[12..16])
    }

    /// The SHA-256 digest of the code's 16 digits (no hyphens): what the database keeps.
    ///
    /// ```
    /// use agon_web::game::account::RecoveryCode;
    /// let code = RecoveryCode::from_bytes([5; 10]);
    /// assert_eq!(code.digest(), RecoveryCode::parse(&code.as_str()).unwrap().digest());
    /// assert_ne!(code.digest(), RecoveryCode::from_bytes([6; 10]).digest());
    /// ```
    pub fn digest(&self) -> [u8; 32] {
        digest_of(&self.0)
    }

    /// Which of an account's remaining codes (their digests) this is, comparing with
    /// every one in constant time so the answer's timing says nothing.
    ///
    /// ```
    /// use agon_web::game::account::RecoveryCode;
    /// let codes: Vec<RecoveryCode> = (0..10).map(|k| RecoveryCode::from_bytes([k; 10])).collect();
    /// let kept: Vec<[u8; 32]> = codes.iter().map(RecoveryCode::digest).collect();
    /// assert_eq!(codes[3].find_in(&kept), Some(3));
    /// assert_eq!(RecoveryCode::from_bytes([99; 10]).find_in(&kept), None);
    /// ```
    pub fn find_in(&self, digests: &[[u8; 32]]) -> Option<usize> {
        let mine = self.digest();
        let mut found = None;
        for (k, digest) in digests.iter().enumerate() {
            if same_digest(&mine, digest) && found.is_none() {
                found = Some(k);
            }
        }
        found
    }
}

/// `RecoveryCode(…)`: never the code.
impl std::fmt::Debug for RecoveryCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RecoveryCode(…)")
    }
}

/// How long a session lasts without being used: 30 days.
///
/// ```
/// assert_eq!(agon_web::game::account::SESSION_IDLE_MS, 30 * 86_400_000);
/// ```
pub const SESSION_IDLE_MS: i64 = 30 * 86_400_000;

/// How long a session lasts at most after its sign-in, used or not: a year. A cookie
/// stolen once does not work for ever.
///
/// ```
/// assert_eq!(agon_web::game::account::SESSION_MAX_MS, 365 * 86_400_000);
/// ```
pub const SESSION_MAX_MS: i64 = 365 * 86_400_000;

/// Whether a session signed in at `created_ms` and last used at `last_used_ms` is still
/// good at `now_ms`: used within [`SESSION_IDLE_MS`] and younger than
/// [`SESSION_MAX_MS`].
///
/// ```
/// use agon_web::game::account::{session_alive, SESSION_IDLE_MS};
/// assert!(session_alive(0, 0, SESSION_IDLE_MS - 1));
/// assert!(!session_alive(0, 0, SESSION_IDLE_MS));
/// ```
pub fn session_alive(created_ms: i64, last_used_ms: i64, now_ms: i64) -> bool {
    now_ms.saturating_sub(last_used_ms) < SESSION_IDLE_MS
        && now_ms.saturating_sub(created_ms) < SESSION_MAX_MS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_username_is_3_to_20_ascii_letters_digits_and_separators() {
        for good in [
            "abc",
            "Zoe-2",
            "a_b-c",
            "x1234567890123456789",
            "Agony",
            "dragon",
        ] {
            let name = Username::parse(good).unwrap();
            assert_eq!(name.as_str(), good);
            assert_eq!(name.to_string(), good);
        }
        let cases: &[(&str, UsernameError)] = &[
            ("", UsernameError::TooShort),
            ("ab", UsernameError::TooShort),
            ("x12345678901234567890", UsernameError::TooLong),
            // Length counts characters, not bytes: three é are three, and refused for
            // what they are.
            ("ééé", UsernameError::BadCharacter('é')),
            // A Cyrillic а (U+0430) looks like a Latin a: refused, never compared.
            ("b\u{430}b", UsernameError::BadCharacter('\u{430}')),
            ("ab cd", UsernameError::BadCharacter(' ')),
            ("ab.cd", UsernameError::BadCharacter('.')),
            ("ab\u{0}c", UsernameError::BadCharacter('\u{0}')),
            ("1abc", UsernameError::BadStart),
            ("_abc", UsernameError::BadStart),
            ("abc-", UsernameError::BadEnd),
            ("ab-_c", UsernameError::DoubleSeparator),
            ("ab--c", UsernameError::DoubleSeparator),
        ];
        for (text, error) in cases {
            assert_eq!(Username::parse(text).as_ref(), Err(error), "{text:?}");
        }
        // Every error has its own name.
        let mut names: Vec<&str> = cases.iter().map(|(_, e)| e.name()).collect();
        names.push(UsernameError::Reserved.name());
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 7);
    }

    #[test]
    fn reserved_names_and_their_look_alikes_are_refused() {
        for reserved in [
            "admin",
            "ADMIN",
            "Adm1n",
            "agon",
            "Ag0n",
            "anonymous",
            "deleted",
            "De1eted",
            "system",
            "the-admin",
            "siteadmin",
            "Moderator7",
            "official-bot",
            "agon-team",
            "agon_bot",
            "AGON-x",
            "guest",
        ] {
            assert_eq!(
                Username::parse(reserved),
                Err(UsernameError::Reserved),
                "{reserved}"
            );
        }
        for free in [
            "agony",
            "dragon",
            "paragon",
            "agonist",
            "botvinnik",
            "rooted",
        ] {
            assert!(Username::parse(free).is_ok(), "{free}");
        }
        // Every reserved word is itself refused (none slips through by a rule before).
        for word in RESERVED {
            if word.len() >= MIN_USERNAME {
                assert_eq!(
                    Username::parse(word),
                    Err(UsernameError::Reserved),
                    "{word}"
                );
            }
        }
    }

    #[test]
    fn the_key_ignores_case_and_the_skeleton_ignores_look_alikes() {
        let name = |s| Username::parse(s).unwrap();
        assert_eq!(name("Zoe").key(), name("zOE").key());
        assert_ne!(name("Zoe").key(), name("Z0e").key());
        let same = [
            ("Ilya", "llya"),
            ("Ilya", "1lya"),
            ("Bob", "b0b"),
            ("Olga", "0lga"),
            ("sam", "5arn"),
            ("zed", "2ecl"),
            ("Bb8", "bbb"),
            ("gg9", "ggg"),
            ("wave", "vvave"),
            ("a-b", "a_b"),
            ("warm", "vvarrn"),
        ];
        for (a, b) in same {
            assert_eq!(skeleton(a), skeleton(b), "{a} {b}");
        }
        // Through usernames, which begin with a letter.
        assert_eq!(name("Ilya").skeleton(), name("l1ya").skeleton());
        assert_eq!(name("Olga").skeleton(), name("O1ga").skeleton());
        assert_eq!(name("sam").skeleton(), name("sarn").skeleton());
        for (a, b) in [
            ("Ilya", "Olya"),
            ("bob", "rob"),
            ("ann", "anna"),
            ("ab", "a-b"),
        ] {
            assert_ne!(skeleton(a), skeleton(b), "{a} {b}");
        }
    }

    #[test]
    fn tokens_are_base32_of_their_bytes_with_the_api_prefix() {
        // 0x00 0x44 0x32 0x14 0xc7 = 00000 00001 00010 00011 00100 00101 00110 00111.
        let bytes: [u8; 20] = std::array::from_fn(|k| [0x00, 0x44, 0x32, 0x14, 0xc7][k % 5]);
        assert_eq!(Token::session(bytes).as_str(), "01234567".repeat(4));
        assert_eq!(
            Token::api(bytes).as_str(),
            format!("agon_{}", "01234567".repeat(4))
        );
        // Distinct bytes give distinct tokens: every bit is used.
        for bit in 0..160 {
            let mut flipped = bytes;
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert_ne!(Token::session(flipped), Token::session(bytes), "bit {bit}");
        }
        assert_eq!(
            Token::parse_session(&"u".repeat(32)),
            Err(TokenError::Character)
        );
        assert_eq!(
            Token::parse_session(Token::api(bytes).as_str()),
            Err(TokenError::Length)
        );
        assert_eq!(
            Token::parse_api(&format!("agon_{}", "I".repeat(32))),
            Err(TokenError::Character)
        );
        assert_eq!(Token::parse_api("Agon_"), Err(TokenError::Prefix));
    }

    #[test]
    fn the_digest_is_sha256_of_the_text() {
        // SHA-256("abc"), the standard's first example, through the same function.
        assert_eq!(
            digest_of("abc")
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let token = Token::api([3; 20]);
        assert_eq!(token.digest(), digest_of(token.as_str()));
        let code = RecoveryCode::from_bytes([3; 10]);
        assert_eq!(code.digest(), digest_of(&code.as_str().replace('-', "")));
    }

    #[test]
    fn a_recovery_code_matches_once_among_the_accounts_codes() {
        let codes: Vec<RecoveryCode> = (0..RECOVERY_CODES as u8)
            .map(|k| RecoveryCode::from_bytes([k.wrapping_mul(37); 10]))
            .collect();
        let mut kept: Vec<[u8; 32]> = codes.iter().map(RecoveryCode::digest).collect();
        let typed = RecoveryCode::parse(&codes[7].as_str().to_uppercase()).unwrap();
        let used = typed.find_in(&kept);
        assert_eq!(used, Some(7));
        // Once used it is removed, and no longer signs in.
        kept.remove(7);
        assert_eq!(typed.find_in(&kept), None);
        assert_eq!(format!("{typed:?}"), "RecoveryCode(…)");
    }

    #[test]
    fn a_session_ends_when_idle_or_old() {
        let day = 86_400_000;
        assert!(session_alive(0, 300 * day, 329 * day));
        assert!(!session_alive(0, 300 * day, 330 * day));
        assert!(session_alive(0, 364 * day, 365 * day - 1));
        assert!(!session_alive(0, 364 * day, 365 * day));
        assert!(!session_alive(i64::MIN, i64::MIN, i64::MAX), "no overflow");
    }
}
