//! Secrets: entry keys and the organiser's token (random, stored only as hashes, compared
//! in constant time) and the per-form CSRF tokens.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A fresh secret: 32 random bytes from the OS, base64url without padding (43 characters).
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    // Without the OS's random numbers no secret can be made safely: stop, loudly.
    getrandom::fill(&mut bytes).expect("the operating system gives no random numbers");
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// How a secret is stored: its SHA-256, in hex. The secrets are 256 random bits, so a
/// plain hash (no salt, no stretching) cannot be reversed.
pub fn hash_secret(secret: &str) -> String {
    hex(&Sha256::digest(secret.trim().as_bytes()))
}

/// Whether `given` is the secret whose hash is `stored`, compared in constant time.
pub fn secret_matches(given: &str, stored: &str) -> bool {
    hash_secret(given)
        .as_bytes()
        .ct_eq(stored.as_bytes())
        .into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Signs CSRF tokens: a form's token is the HMAC of the browser's `csrf` cookie and the
/// form's path, so a token is good for one form of one browser, and a page on another
/// site, which can neither read the cookie nor the token, cannot forge a post.
#[derive(Clone)]
pub struct CsrfKey([u8; 32]);

impl CsrfKey {
    /// A new random key (tokens of an earlier server run stop working).
    pub fn new() -> CsrfKey {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the operating system gives no random numbers");
        CsrfKey(bytes)
    }

    /// The token for the form posting to `path`, in the browser holding `cookie`.
    pub fn token(&self, cookie: &str, path: &str) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(cookie.as_bytes());
        mac.update(b"\n");
        mac.update(path.as_bytes());
        hex(&mac.finalize().into_bytes())
    }

    /// Whether `token` is the token of the form posting to `path`, in constant time.
    pub fn verify(&self, cookie: &str, path: &str, token: &str) -> bool {
        !cookie.is_empty()
            && self
                .token(cookie, path)
                .as_bytes()
                .ct_eq(token.as_bytes())
                .into()
    }
}

impl Default for CsrfKey {
    fn default() -> Self {
        CsrfKey::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_43_characters_and_fresh_each_time() {
        let a = new_secret();
        assert_eq!(a.len(), 43);
        assert_ne!(a, new_secret());
    }

    #[test]
    fn a_stored_hash_matches_only_its_secret() {
        let stored = hash_secret("k");
        assert!(secret_matches("k", &stored));
        assert!(!secret_matches("K", &stored));
    }

    #[test]
    fn a_csrf_token_is_good_for_one_form_of_one_browser() {
        let key = CsrfKey::new();
        let token = key.token("c", "/submit");
        assert!(key.verify("c", "/submit", &token));
        assert!(!key.verify("c", "/admin/start", &token));
        assert!(!key.verify("d", "/submit", &token));
        assert!(!key.verify("", "/submit", &key.token("", "/submit")));
    }
}
