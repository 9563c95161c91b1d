//! Game ids, seat tokens and seeds: drawn from the operating system's randomness, and a
//! token's digest (the only form of it the database keeps). Below every other module.

use sha2::{Digest, Sha256};

/// The operating system gave no randomness (`randomness: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoRandomness(String);

impl std::fmt::Display for NoRandomness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "randomness: {}", self.0)
    }
}

impl std::error::Error for NoRandomness {}

/// `N` bytes from the system's randomness (tokens, ids, seeds).
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], NoRandomness> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| NoRandomness(e.to_string()))?;
    Ok(bytes)
}

/// `N` random bytes as lowercase hex (a game's id: 8; a seat's token: 16).
pub(crate) fn random_hex<const N: usize>() -> Result<String, NoRandomness> {
    Ok(random_bytes::<N>()?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// A random seed (the computer's bot's, a side drawn at random).
pub(crate) fn random_u64() -> Result<u64, NoRandomness> {
    random_bytes().map(u64::from_le_bytes)
}

/// The SHA-256 digest of a seat's token.
pub(crate) fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Game ids are 16 lowercase hex digits; anything else names no game.
pub(crate) fn valid_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_sixteen_lowercase_hex_digits() {
        let id = random_hex::<8>().unwrap();
        assert!(valid_id(&id), "{id}");
        assert_ne!(id, random_hex::<8>().unwrap());
        for bad in [
            "0011223344556677a",
            "001122334455667",
            "00112233445566G7",
            "00112233445566A7",
        ] {
            assert!(!valid_id(bad), "{bad}");
        }
    }
}
