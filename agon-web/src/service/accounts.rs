//! Accounts without passwords (issue 33): signing up and in with a passkey (WebAuthn,
//! through `webauthn_rp`, a relying party in pure Rust), recovery codes, sessions, the
//! passkeys of an account, deleting it. The handlers (`crate::http::accounts`) read the
//! request and set the cookie; each operation here is what the server does, its refusals
//! the API's errors.
//!
//! A WebAuthn ceremony takes two requests, which may reach two servers: its state is
//! kept in the store under the challenge it sent (128 random bits), and read once. The
//! finishing request brings the challenge back inside the browser's signed client data,
//! so no other id travels, and a replayed or forged answer finds no ceremony.

use axum::http::StatusCode;
use data_encoding::{BASE64URL_NOPAD, HEXLOWER};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use webauthn_rp::bin::{Decode, Encode};
use webauthn_rp::request::auth::AuthenticationVerificationOptions;
use webauthn_rp::request::register::{
    CredProtect, Nickname, PublicKeyCredentialUserEntity, RegistrationVerificationOptions,
    UserHandle, Username as RpUsername,
};
use webauthn_rp::request::{
    AsciiDomain, ExtensionInfo, PublicKeyCredentialDescriptor, RpId, TimedCeremony,
};
use webauthn_rp::response::register::{CompressedPubKey, DynamicState, StaticState};
use webauthn_rp::response::{AuthTransports, CredentialId, SentChallenge};
use webauthn_rp::{
    AuthenticatedCredential, DiscoverableAuthentication, DiscoverableAuthenticationServerState,
    DiscoverableCredentialRequestOptions, PublicKeyCredentialCreationOptions, Registration,
    RegistrationServerState,
};

use super::AppState;
use crate::error::ApiError;
use crate::game::account::{
    RecoveryCode, Token, Username, RECOVERY_CODES, RECOVERY_CODE_BYTES, TOKEN_BYTES,
};
use crate::ids;
use crate::store::{Account, Ceremony, NewAccount, Passkey, PasskeyRemoval, StoreError};

/// The user handle's length: the store keeps 32 random bytes.
const HANDLE: usize = 32;

/// How long a ceremony waits for its answer: `webauthn_rp`'s timeout, 5 minutes.
const CEREMONY_MS: i64 = 300_000;

/// The stored public key of a passkey, as `webauthn_rp` decodes it.
type StoredKey = StaticState<CompressedPubKey<[u8; 32], [u8; 32], [u8; 48], Vec<u8>>>;

/// What the store keeps of a passkey (its `passkey` column): `webauthn_rp`'s encodings
/// of its public key and extensions (static), of its counter and flags (dynamic), and
/// its transports, in hex.
#[derive(Serialize, Deserialize)]
struct StoredPasskey {
    #[serde(rename = "static")]
    static_state: String,
    dynamic: String,
    transports: u8,
}

/// What the store keeps of a ceremony (its `state` column): `webauthn_rp`'s encoded
/// server state, and for a sign-up the name and user handle it is for.
#[derive(Serialize, Deserialize)]
struct StoredCeremony {
    state: String,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    handle: Option<String>,
}

/// The kinds of ceremonies, as the store names them.
const REGISTER: &str = "register";
const AUTHENTICATE: &str = "authenticate";

fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("{what}: {e}"))
}

/// `400 unknown-ceremony`: no ceremony waits for this challenge.
fn unknown_ceremony() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "unknown-ceremony",
        "no passkey ceremony of this kind is under way for this challenge: it expired, \
         was finished already, or was never begun (begin again)",
    )
}

/// `400 malformed-credential`: the credential is not one `webauthn_rp` can read.
fn malformed(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "malformed-credential",
        format!("the credential does not read as WebAuthn's JSON: {e}"),
    )
}

/// `401 passkey-refused`: a sign-in's assertion does not verify, or names no passkey of
/// a living account (one answer for both: it tells a guesser nothing).
fn passkey_refused() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "passkey-refused",
        "this passkey does not sign in here",
    )
}

/// `401 not-signed-in`.
pub(crate) fn not_signed_in() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "not-signed-in",
        "this needs a signed-in session (its cookie is missing, expired or signed out)",
    )
}

/// A store's error, the account deleted meanwhile (`NoAccount`) being `401
/// not-signed-in`, not a fault of the server.
fn gone(e: StoreError) -> ApiError {
    match e {
        StoreError::NoAccount => not_signed_in(),
        e => e.into(),
    }
}

/// The relying party: the site's host.
fn rp_id(app: &AppState) -> Result<RpId, ApiError> {
    AsciiDomain::try_from(app.site().host().to_string())
        .map(RpId::Domain)
        .map_err(|e| internal("the site's host is not a relying party id", e))
}

/// Keeps a ceremony begun: `state`, `webauthn_rp`'s encoding of its server state, under
/// its `challenge`, with the name and user handle of a registration (`user`), for
/// `account_id` (`None`: a sign-up or a sign-in).
async fn keep_ceremony(
    app: &AppState,
    kind: &str,
    state: Vec<u8>,
    challenge: SentChallenge,
    user: Option<(&str, [u8; HANDLE])>,
    account_id: Option<String>,
    now_ms: i64,
) -> Result<(), ApiError> {
    let stored = StoredCeremony {
        state: HEXLOWER.encode(&state),
        username: user.map(|(name, _)| name.to_string()),
        handle: user.map(|(_, handle)| HEXLOWER.encode(&handle)),
    };
    let state = serde_json::to_string(&stored).map_err(|e| internal("ceremony", e))?;
    let challenge = challenge.encode().unwrap_or_else(|e| match e {});
    app.store
        .put_ceremony(&Ceremony {
            id: format!("{challenge:032x}"),
            kind: kind.to_string(),
            state,
            account_id,
            expires_ms: now_ms + CEREMONY_MS,
        })
        .await?;
    Ok(())
}

/// Takes (once) the ceremony of `challenge`, of `kind` and for `account_id`.
async fn take_ceremony(
    app: &AppState,
    kind: &str,
    challenge: u128,
    account_id: Option<&str>,
    now_ms: i64,
) -> Result<StoredCeremony, ApiError> {
    let ceremony = app
        .store
        .take_ceremony(&format!("{challenge:032x}"), now_ms)
        .await?
        .ok_or_else(unknown_ceremony)?;
    if ceremony.kind != kind || ceremony.account_id.as_deref() != account_id {
        return Err(unknown_ceremony());
    }
    serde_json::from_str(&ceremony.state).map_err(|e| internal("stored ceremony", e))
}

/// The creation options of a new passkey of `username` (user handle `handle`), its
/// ceremony kept for `account_id` (`None`: a sign-up); `exclude` the account's passkeys.
async fn begin_registration(
    app: &AppState,
    username: &str,
    handle: [u8; HANDLE],
    exclude: &[Passkey],
    account_id: Option<String>,
    now_ms: i64,
) -> Result<Value, ApiError> {
    let rp = rp_id(app)?;
    let user_handle = UserHandle::<HANDLE>::decode(handle).unwrap_or_else(|e| match e {});
    let mut excluded = Vec::with_capacity(exclude.len());
    for passkey in exclude {
        let id = CredentialId::<Vec<u8>>::decode(passkey.credential_id.clone())
            .map_err(|e| internal("stored credential id", e))?;
        let transports = stored_passkey(passkey)?.transports;
        let transports =
            AuthTransports::decode(transports).map_err(|e| internal("stored transports", e))?;
        excluded.push(PublicKeyCredentialDescriptor { id, transports });
    }
    let name = RpUsername::try_from(username).map_err(|e| internal("username", e))?;
    let display = Nickname::try_from(username).map_err(|e| internal("username", e))?;
    let user = PublicKeyCredentialUserEntity {
        name,
        id: &user_handle,
        display_name: Some(display),
    };
    let mut options = PublicKeyCredentialCreationOptions::passkey(&rp, user, excluded);
    // credProtect asked, not enforced: a browser refuses to create the passkey on an
    // authenticator without the extension when it is enforced (user verification is
    // required anyway, `authenticatorSelection.userVerification`).
    options.extensions.cred_protect =
        CredProtect::UserVerificationRequired(ExtensionInfo::AllowDontEnforceValue);
    let (server, client) = options
        .start_ceremony()
        .map_err(|e| internal("creation options", e))?;
    let state = server.encode().map_err(|e| internal("ceremony", e))?;
    let user = Some((username, handle));
    let challenge = server.sent_challenge();
    keep_ceremony(app, REGISTER, state, challenge, user, account_id, now_ms).await?;
    serde_json::to_value(&client).map_err(|e| internal("creation options", e))
}

/// A new passkey verified: the browser's `credential` (WebAuthn's JSON) answering a
/// registration ceremony of `account_id` (`None`: a sign-up). Answers the ceremony's
/// name and user handle and the passkey to store (its account id left empty).
async fn finish_registration(
    app: &AppState,
    credential: &Value,
    account_id: Option<&str>,
    now_ms: i64,
) -> Result<(String, [u8; HANDLE], Passkey), ApiError> {
    let bytes = serde_json::to_vec(credential).map_err(malformed)?;
    let registration = Registration::from_json_relaxed(&bytes).map_err(malformed)?;
    let challenge = registration.challenge_relaxed().map_err(malformed)?;
    let challenge = challenge.encode().unwrap_or_else(|e| match e {});
    let stored = take_ceremony(app, REGISTER, challenge, account_id, now_ms).await?;
    let state = HEXLOWER
        .decode(stored.state.as_bytes())
        .map_err(|e| internal("stored ceremony", e))?;
    let server = RegistrationServerState::<HANDLE>::decode(state.as_slice())
        .map_err(|e| internal("stored ceremony", e))?;
    let (Some(username), Some(handle)) = (stored.username, stored.handle) else {
        return Err(internal("stored ceremony", "no user"));
    };
    let handle: [u8; HANDLE] = HEXLOWER
        .decode(handle.as_bytes())
        .ok()
        .and_then(|h| h.try_into().ok())
        .ok_or_else(|| internal("stored ceremony", "user handle"))?;
    let origin = [app.site().as_str().to_string()];
    let options = RegistrationVerificationOptions::<String, String> {
        allowed_origins: &origin,
        ..Default::default()
    };
    let registered = server
        .verify(&rp_id(app)?, &registration, &options)
        .map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "passkey-refused",
                format!("the new passkey does not verify: {e}"),
            )
        })?;
    let (id, transports, _, static_state, dynamic, _) = registered.into_parts();
    let static_bytes = static_state.encode().unwrap_or_else(|e| match e {});
    let passkey = Passkey {
        credential_id: id.as_ref().to_vec(),
        account_id: String::new(),
        passkey: stored_text(&static_bytes, dynamic, transports)?,
        counter: i64::from(dynamic.sign_count),
        name: String::new(),
        created_ms: now_ms,
        last_used_ms: None,
    };
    Ok((username, handle, passkey))
}

fn stored_text(
    static_bytes: &[u8],
    dynamic: DynamicState,
    transports: AuthTransports,
) -> Result<String, ApiError> {
    let stored = StoredPasskey {
        static_state: HEXLOWER.encode(static_bytes),
        dynamic: HEXLOWER.encode(&dynamic.encode().map_err(|e| internal("passkey", e))?),
        transports: transports.encode().map_err(|e| internal("passkey", e))?,
    };
    serde_json::to_string(&stored).map_err(|e| internal("passkey", e))
}

fn stored_passkey(passkey: &Passkey) -> Result<StoredPasskey, ApiError> {
    serde_json::from_str(&passkey.passkey).map_err(|e| internal("stored passkey", e))
}

/// A passkey's (or an API token's) name as its owner gave it: trimmed, at most 40
/// characters, no control characters (`400 invalid-field`); `default` when absent or
/// blank.
pub(crate) fn passkey_name(name: Option<&str>, default: &str) -> Result<String, ApiError> {
    let name = name.map(str::trim).unwrap_or_default();
    if name.is_empty() {
        return Ok(default.to_string());
    }
    if name.chars().count() > 40 || name.chars().any(char::is_control) {
        return Err(ApiError::invalid_field(
            "a name (of a passkey, of a token) has at most 40 characters, without control characters",
        ));
    }
    Ok(name.to_string())
}

/// A name's refusal as the API answers it: `400` with the rule's name
/// (`username-too-short`, `username-reserved`, ...).
fn bad_username(e: crate::game::account::UsernameError) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, e.name(), e.to_string())
}

/// `409 username-taken`.
fn username_taken() -> ApiError {
    ApiError::conflict(
        "username-taken",
        "this name, or one that looks like it, is taken",
    )
}

/// Sign-up, first step: the name checked and the creation options of its first passkey.
pub(crate) async fn signup_options(
    app: &AppState,
    username: &str,
    now_ms: i64,
) -> Result<Value, ApiError> {
    let username = Username::parse(username).map_err(bad_username)?;
    if app.store.username_taken(&username).await? {
        return Err(username_taken());
    }
    let handle = ids::random_bytes::<HANDLE>()?;
    begin_registration(app, username.as_str(), handle, &[], None, now_ms).await
}

/// What sign-up makes: the account, its session and its recovery codes (shown once).
pub(crate) struct SignedUp {
    pub account: Account,
    pub token: Token,
    pub codes: Vec<RecoveryCode>,
}

/// Sign-up, second step: the passkey verified, the account created with it, its
/// recovery codes and a session.
pub(crate) async fn signup(
    app: &AppState,
    credential: &Value,
    passkey: Option<&str>,
    label: &str,
    now_ms: i64,
) -> Result<SignedUp, ApiError> {
    let name = passkey_name(passkey, "passkey")?;
    let (username, handle, mut passkey) =
        finish_registration(app, credential, None, now_ms).await?;
    let username = Username::parse(&username).map_err(bad_username)?;
    let new = NewAccount {
        id: ids::random_hex::<8>()?,
        username,
        user_handle: handle,
        bot: false,
    };
    let account = match app.store.create_account(&new, now_ms).await {
        Err(StoreError::UsernameTaken) => return Err(username_taken()),
        other => other?,
    };
    passkey.account_id = account.id.clone();
    passkey.name = name;
    match app.store.add_passkey(&passkey).await {
        Ok(()) => {}
        Err(e) => {
            // An account without a passkey could not sign in: undo it (its name stays
            // taken, as a deleted account's).
            let _ = app.store.delete_account(&account.id, now_ms).await;
            return Err(match e {
                StoreError::PasskeyTaken => passkey_taken(),
                e => e.into(),
            });
        }
    }
    let codes = new_recovery_codes(app, &account).await?;
    let token = new_session(app, &account, label, now_ms).await?;
    Ok(SignedUp {
        account,
        token,
        codes,
    })
}

/// `409 passkey-taken`.
fn passkey_taken() -> ApiError {
    ApiError::conflict("passkey-taken", "this passkey is registered already")
}

/// A new session of `account`.
async fn new_session(
    app: &AppState,
    account: &Account,
    label: &str,
    now_ms: i64,
) -> Result<Token, ApiError> {
    let token = Token::session(ids::random_bytes::<TOKEN_BYTES>()?);
    app.store
        .create_session(&token, &account.id, label, now_ms)
        .await
        .map_err(gone)?;
    Ok(token)
}

/// Replaces the recovery codes of `account` with [`RECOVERY_CODES`] new ones.
pub(crate) async fn new_recovery_codes(
    app: &AppState,
    account: &Account,
) -> Result<Vec<RecoveryCode>, ApiError> {
    let mut codes = Vec::with_capacity(RECOVERY_CODES);
    for _ in 0..RECOVERY_CODES {
        codes.push(RecoveryCode::from_bytes(ids::random_bytes::<
            RECOVERY_CODE_BYTES,
        >()?));
    }
    app.store
        .set_recovery_codes(&account.id, &codes)
        .await
        .map_err(gone)?;
    Ok(codes)
}

/// Sign-in, first step: the request options of a discoverable credential (no name asked,
/// so nothing tells whether a name has passkeys).
pub(crate) async fn signin_options(app: &AppState, now_ms: i64) -> Result<Value, ApiError> {
    let rp = rp_id(app)?;
    let (server, client) = DiscoverableCredentialRequestOptions::passkey(&rp)
        .start_ceremony()
        .map_err(|e| internal("request options", e))?;
    let state = server.encode().map_err(|e| internal("ceremony", e))?;
    let challenge = server.sent_challenge();
    keep_ceremony(app, AUTHENTICATE, state, challenge, None, None, now_ms).await?;
    serde_json::to_value(&client).map_err(|e| internal("request options", e))
}

/// Sign-in, second step: the assertion verified against the passkey it names, whose
/// counter is updated, and a new session; `old` (the session the browser had, if any)
/// ends, so each sign-in rotates the session.
pub(crate) async fn signin(
    app: &AppState,
    credential: &Value,
    old: Option<&Token>,
    label: &str,
    now_ms: i64,
) -> Result<(Account, Token), ApiError> {
    let account = assertion(app, credential, now_ms).await?;
    rotate(app, &account, old, label, now_ms).await
}

/// Deletes `account`, proven by a fresh assertion of one of its passkeys (answering a
/// sign-in ceremony): a session's cookie alone, stolen or left open, cannot delete it.
/// `403 wrong-passkey` for another account's passkey.
pub(crate) async fn delete_account(
    app: &AppState,
    account: &Account,
    credential: &Value,
    now_ms: i64,
) -> Result<(), ApiError> {
    if assertion(app, credential, now_ms).await?.id != account.id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "wrong-passkey",
            "this passkey is another account's",
        ));
    }
    app.store.delete_account(&account.id, now_ms).await?;
    Ok(())
}

/// The account whose passkey signed `credential`, an assertion answering a sign-in
/// ceremony; the passkey's counter and last use recorded.
async fn assertion(app: &AppState, credential: &Value, now_ms: i64) -> Result<Account, ApiError> {
    let bytes = serde_json::to_vec(credential).map_err(malformed)?;
    let assertion =
        DiscoverableAuthentication::<HANDLE>::from_json_relaxed(&bytes).map_err(malformed)?;
    let challenge = assertion.challenge_relaxed().map_err(malformed)?;
    let challenge = challenge.encode().unwrap_or_else(|e| match e {});
    let stored = take_ceremony(app, AUTHENTICATE, challenge, None, now_ms).await?;
    let state = HEXLOWER
        .decode(stored.state.as_bytes())
        .map_err(|e| internal("stored ceremony", e))?;
    let server = DiscoverableAuthenticationServerState::decode(state.as_slice())
        .map_err(|e| internal("stored ceremony", e))?;
    let raw_id = assertion.raw_id();
    let passkey = app
        .store
        .passkey(raw_id.as_ref())
        .await?
        .ok_or_else(passkey_refused)?;
    let account = app
        .store
        .account(&passkey.account_id)
        .await?
        .filter(|a| a.deleted_ms.is_none())
        .ok_or_else(passkey_refused)?;
    let handle: [u8; HANDLE] = account
        .user_handle
        .clone()
        .try_into()
        .map_err(|_| internal("stored account", "user handle"))?;
    let user_handle = UserHandle::<HANDLE>::decode(handle).unwrap_or_else(|e| match e {});
    let stored_key = stored_passkey(&passkey)?;
    let static_bytes = HEXLOWER
        .decode(stored_key.static_state.as_bytes())
        .map_err(|e| internal("stored passkey", e))?;
    let static_state =
        StoredKey::decode(static_bytes.as_slice()).map_err(|e| internal("stored passkey", e))?;
    let dynamic: [u8; 7] = HEXLOWER
        .decode(stored_key.dynamic.as_bytes())
        .ok()
        .and_then(|d| d.try_into().ok())
        .ok_or_else(|| internal("stored passkey", "dynamic state"))?;
    let dynamic = DynamicState::decode(dynamic).map_err(|e| internal("stored passkey", e))?;
    let id = CredentialId::<&[u8]>::decode(passkey.credential_id.as_slice())
        .map_err(|e| internal("stored credential id", e))?;
    let mut credential = AuthenticatedCredential::new(id, &user_handle, static_state, dynamic)
        .map_err(|e| internal("stored passkey", e))?;
    let origin = [app.site().as_str().to_string()];
    let options = AuthenticationVerificationOptions::<String, String> {
        allowed_origins: &origin,
        ..Default::default()
    };
    server
        .verify(&rp_id(app)?, &assertion, &mut credential, &options)
        .map_err(|_| passkey_refused())?;
    let dynamic = credential.dynamic_state();
    let transports = AuthTransports::decode(stored_key.transports)
        .map_err(|e| internal("stored transports", e))?;
    let text = stored_text(&static_bytes, dynamic, transports)?;
    app.store
        .use_passkey(
            &passkey.credential_id,
            &text,
            i64::from(dynamic.sign_count),
            now_ms,
        )
        .await?;
    Ok(account)
}

/// Ends `old` (if any) and opens a new session of `account`.
async fn rotate(
    app: &AppState,
    account: &Account,
    old: Option<&Token>,
    label: &str,
    now_ms: i64,
) -> Result<(Account, Token), ApiError> {
    if let Some(old) = old {
        app.store.delete_session(old).await?;
    }
    let token = new_session(app, account, label, now_ms).await?;
    Ok((account.clone(), token))
}

/// Sign-in with a recovery code, which is used up. A name that does not exist, a
/// deleted account, a code that is not one and a code used already are one answer,
/// `401 recovery-refused`.
pub(crate) async fn recover(
    app: &AppState,
    username: &str,
    code: &str,
    old: Option<&Token>,
    label: &str,
    now_ms: i64,
) -> Result<(Account, Token), ApiError> {
    let refused = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "recovery-refused",
            "this name and recovery code do not sign in",
        )
    };
    let key = Username::parse(username).map_err(|_| refused())?.key();
    let code = RecoveryCode::parse(code).map_err(|_| refused())?;
    let account = app
        .store
        .account_by_key(&key)
        .await?
        .filter(|a| a.deleted_ms.is_none())
        .ok_or_else(refused)?;
    if !app
        .store
        .use_recovery_code(&account.id, &code, now_ms)
        .await?
    {
        return Err(refused());
    }
    rotate(app, &account, old, label, now_ms).await
}

/// The session of `token` and its account, the session's use recorded (at most once a
/// minute); `401 not-signed-in` without a living session. Answers whether the use was
/// written (the cookie's lifetime may then be renewed).
pub(crate) async fn caller(
    app: &AppState,
    token: Option<&Token>,
    now_ms: i64,
) -> Result<(Account, bool), ApiError> {
    let token = token.ok_or_else(not_signed_in)?;
    let session = app
        .store
        .session(token, now_ms)
        .await?
        .ok_or_else(not_signed_in)?;
    let account = app
        .store
        .account(&session.account_id)
        .await?
        .filter(|a| a.deleted_ms.is_none())
        .ok_or_else(not_signed_in)?;
    let touched = app.store.touch_session(token, now_ms).await?;
    Ok((account, touched))
}

/// A passkey as its owner sees it.
pub(crate) struct PasskeyInfo {
    pub id: String,
    pub name: String,
    pub created_ms: i64,
    pub last_used_ms: Option<i64>,
}

/// The passkeys of `account`, oldest first; their ids in base64url (WebAuthn's form).
pub(crate) async fn passkeys(
    app: &AppState,
    account: &Account,
) -> Result<Vec<PasskeyInfo>, ApiError> {
    Ok(app
        .store
        .passkeys(&account.id)
        .await?
        .into_iter()
        .map(|p| PasskeyInfo {
            id: BASE64URL_NOPAD.encode(&p.credential_id),
            name: p.name,
            created_ms: p.created_ms,
            last_used_ms: p.last_used_ms,
        })
        .collect())
}

/// The creation options of another passkey of `account` (its passkeys excluded, so an
/// authenticator holding one says so).
pub(crate) async fn passkey_options(
    app: &AppState,
    account: &Account,
    now_ms: i64,
) -> Result<Value, ApiError> {
    let handle: [u8; HANDLE] = account
        .user_handle
        .clone()
        .try_into()
        .map_err(|_| internal("stored account", "user handle"))?;
    let existing = app.store.passkeys(&account.id).await?;
    begin_registration(
        app,
        &account.username,
        handle,
        &existing,
        Some(account.id.clone()),
        now_ms,
    )
    .await
}

/// Another passkey of `account`, verified and stored.
pub(crate) async fn add_passkey(
    app: &AppState,
    account: &Account,
    credential: &Value,
    name: Option<&str>,
    now_ms: i64,
) -> Result<PasskeyInfo, ApiError> {
    let name = passkey_name(name, "passkey")?;
    let (_, _, mut passkey) =
        finish_registration(app, credential, Some(&account.id), now_ms).await?;
    passkey.account_id = account.id.clone();
    passkey.name = name;
    match app.store.add_passkey(&passkey).await {
        Err(StoreError::PasskeyTaken) => return Err(passkey_taken()),
        other => other.map_err(gone)?,
    }
    Ok(PasskeyInfo {
        id: BASE64URL_NOPAD.encode(&passkey.credential_id),
        name: passkey.name,
        created_ms: passkey.created_ms,
        last_used_ms: None,
    })
}

/// Removes passkey `id` (base64url) of `account`: `404 unknown-passkey` if it has none
/// of this id, `409 last-passkey` if it is its only one (the account could no longer
/// sign in but with a recovery code).
pub(crate) async fn remove_passkey(
    app: &AppState,
    account: &Account,
    id: &str,
) -> Result<(), ApiError> {
    let unknown = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown-passkey",
            "this account has no passkey of this id",
        )
    };
    let credential_id = BASE64URL_NOPAD
        .decode(id.as_bytes())
        .map_err(|_| unknown())?;
    match app
        .store
        .remove_passkey_not_last(&account.id, &credential_id)
        .await
        .map_err(gone)?
    {
        PasskeyRemoval::Removed => {}
        PasskeyRemoval::Unknown => return Err(unknown()),
        PasskeyRemoval::Last => {
            return Err(ApiError::conflict(
                "last-passkey",
                "an account keeps at least one passkey: add another before removing this one",
            ))
        }
    }
    Ok(())
}

/// Claims for `account` the seat whose token is `token` in game `id`, a game in
/// progress that its holder began (or joined) as a guest: the game then counts as the
/// account's. `404 unknown-game`, `403 wrong-token` (neither seat's token), `409
/// game-over`, `409 seat-claimed` (another account claimed the seat). Claiming again is
/// no change. Answers the seat's side.
pub(crate) async fn claim_seat(
    app: &AppState,
    account: &Account,
    id: &str,
    token: &str,
    now_ms: i64,
) -> Result<agon_core::Side, ApiError> {
    let game = super::load_game(app, id).await?;
    let side = game
        .seat_of(&ids::digest(token))
        .ok_or_else(ApiError::wrong_token)?;
    let claimed = || ApiError::conflict("seat-claimed", "another account has claimed this seat");
    let owner = app.store.seat_accounts(&game.id).await?[side as usize].clone();
    if owner.as_deref() == Some(account.id.as_str()) {
        return Ok(side);
    }
    if owner.is_some() {
        return Err(claimed());
    }
    if game.is_over() {
        return Err(crate::game::Refusal::GameOver.into());
    }
    match app
        .store
        .claim_seat(&game.id, side, &account.id, now_ms)
        .await
    {
        Ok(owner) if owner == account.id => Ok(side),
        Ok(_) | Err(StoreError::Conflict) => Err(claimed()),
        Err(StoreError::NoAccount) => Err(not_signed_in()),
        Err(e) => Err(e.into()),
    }
}
