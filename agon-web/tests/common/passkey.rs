//! A software authenticator for the tests: one ES256 passkey (P-256, a key from a seed),
//! answering WebAuthn's creation and request options as a browser's
//! `PublicKeyCredential.toJSON()` would, with attestation `none`. CBOR is written by hand
//! (CTAP2's canonical form: map keys in order of their encoding).
#![allow(dead_code)]

use data_encoding::BASE64URL_NOPAD;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// One passkey on one authenticator.
pub struct Authenticator {
    key: SigningKey,
    /// The credential's id.
    pub credential_id: Vec<u8>,
    /// The user handle it was created for (set by `create`).
    pub user_handle: Option<Vec<u8>>,
    /// The signature counter, increased by each use.
    pub counter: u32,
}

/// base64url without padding, as WebAuthn's JSON writes binary.
pub fn b64(bytes: &[u8]) -> String {
    BASE64URL_NOPAD.encode(bytes)
}

fn unb64(text: &str) -> Vec<u8> {
    BASE64URL_NOPAD.decode(text.as_bytes()).unwrap()
}

/// A CBOR head of major type `major` and argument `n`.
fn head(major: u8, n: usize) -> Vec<u8> {
    let m = major << 5;
    match n {
        0..=23 => vec![m | n as u8],
        24..=255 => vec![m | 24, n as u8],
        256..=65535 => vec![m | 25, (n >> 8) as u8, n as u8],
        _ => panic!("too long"),
    }
}

fn cbor_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = head(2, bytes.len());
    out.extend_from_slice(bytes);
    out
}

fn cbor_text(text: &str) -> Vec<u8> {
    let mut out = head(3, text.len());
    out.extend_from_slice(text.as_bytes());
    out
}

impl Authenticator {
    /// A passkey whose key and credential id come from `seed`.
    pub fn new(seed: u8) -> Authenticator {
        let secret: [u8; 32] = Sha256::digest([seed, 1]).into();
        let id: [u8; 32] = Sha256::digest([seed, 2]).into();
        Authenticator {
            key: SigningKey::from_slice(&secret).unwrap(),
            credential_id: id[..16].to_vec(),
            user_handle: None,
            counter: 0,
        }
    }

    /// The COSE key of the public key: `{1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x,
    /// -3: y}`.
    fn cose_key(&self) -> Vec<u8> {
        let point = self.key.verifying_key().to_encoded_point(false);
        let mut out = vec![0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21];
        out.extend(cbor_bytes(point.x().unwrap()));
        out.push(0x22);
        out.extend(cbor_bytes(point.y().unwrap()));
        out
    }

    /// The authenticator data: the relying party id's hash, the flags (user present and
    /// verified, plus `extra`), the counter, and `rest`.
    fn auth_data(&self, rp_id: &str, extra: u8, rest: &[u8]) -> Vec<u8> {
        let mut data = Sha256::digest(rp_id.as_bytes()).to_vec();
        data.push(0x01 | 0x04 | extra);
        data.extend_from_slice(&self.counter.to_be_bytes());
        data.extend_from_slice(rest);
        data
    }

    /// The client data of a ceremony of `kind` for `challenge` (base64url) at `origin`.
    pub fn client_data(kind: &str, challenge: &str, origin: &str) -> Vec<u8> {
        format!(
            r#"{{"type":"webauthn.{kind}","challenge":"{challenge}","origin":"{origin}","crossOrigin":false}}"#
        )
        .into_bytes()
    }

    /// The answer to creation `options` (`{"rp", "user", "challenge", ...}`), as from
    /// `origin`: a new credential with attestation `none`.
    pub fn create(&mut self, options: &Value, origin: &str) -> Value {
        let challenge = options["challenge"].as_str().unwrap();
        self.create_with(options, &Self::client_data("create", challenge, origin))
    }

    /// The answer to creation `options` with this client data (a test forging it).
    pub fn create_with(&mut self, options: &Value, client_data: &[u8]) -> Value {
        let rp_id = options["rp"]["id"].as_str().unwrap();
        self.user_handle = Some(unb64(options["user"]["id"].as_str().unwrap()));
        self.counter += 1;
        let mut attested = vec![0u8; 16]; // AAGUID: none
        attested.extend_from_slice(&(self.credential_id.len() as u16).to_be_bytes());
        attested.extend_from_slice(&self.credential_id);
        attested.extend(self.cose_key());
        let auth_data = self.auth_data(rp_id, 0x40, &attested);
        let mut object = vec![0xa3];
        object.extend(cbor_text("fmt"));
        object.extend(cbor_text("none"));
        object.extend(cbor_text("attStmt"));
        object.push(0xa0);
        object.extend(cbor_text("authData"));
        object.extend(cbor_bytes(&auth_data));
        // What browsers' toJSON() adds: the authenticator data, the public key as a
        // SubjectPublicKeyInfo (P-256's fixed DER prefix, then the point) and its COSE
        // algorithm.
        let point = self.key.verifying_key().to_encoded_point(false);
        let mut spki = vec![
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06,
            0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
        ];
        spki.extend_from_slice(point.as_bytes());
        self.credential(json!({
            "clientDataJSON": b64(client_data),
            "attestationObject": b64(&object),
            "transports": ["internal"],
            "authenticatorData": b64(&auth_data),
            "publicKey": b64(&spki),
            "publicKeyAlgorithm": -7,
        }))
    }

    /// A `PublicKeyCredential` of this passkey with this `response`, as `toJSON()`.
    fn credential(&self, response: Value) -> Value {
        let id = b64(&self.credential_id);
        json!({
            "id": id,
            "rawId": id,
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": response,
        })
    }

    /// The answer to request `options` (`{"challenge", "rpId", ...}`), as from `origin`:
    /// an assertion signed by the passkey, with its user handle.
    pub fn get(&mut self, options: &Value, origin: &str) -> Value {
        let challenge = options["challenge"].as_str().unwrap();
        self.get_with(options, &Self::client_data("get", challenge, origin))
    }

    /// The answer to request `options` with this client data (a test forging it).
    pub fn get_with(&mut self, options: &Value, client_data: &[u8]) -> Value {
        let rp_id = options["rpId"].as_str().unwrap();
        self.counter += 1;
        let auth_data = self.auth_data(rp_id, 0, &[]);
        let mut signed = auth_data.clone();
        signed.extend_from_slice(&Sha256::digest(client_data));
        let signature: Signature = self.key.sign(&signed);
        let handle = self.user_handle.clone().unwrap_or_else(|| vec![0; 32]);
        self.credential(json!({
            "clientDataJSON": b64(client_data),
            "authenticatorData": b64(&auth_data),
            "signature": b64(signature.to_der().as_bytes()),
            "userHandle": b64(&handle),
        }))
    }
}
