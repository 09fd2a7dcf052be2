//! Fingerprints the framework's sources so that bot engines built by one
//! version of the kit are never reused by another (the bot build cache key).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

fn main() {
    let mut hasher = DefaultHasher::new();
    for input in ["framework/src", "framework/Cargo.toml", "Cargo.lock"] {
        hash_path(Path::new(input), &mut hasher);
        println!("cargo:rerun-if-changed={input}");
    }
    println!(
        "cargo:rustc-env=CHALLENGE_FRAMEWORK_FINGERPRINT={:016x}",
        hasher.finish()
    );
}

fn hash_path(path: &Path, hasher: &mut DefaultHasher) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .collect();
        entries.sort();
        for entry in entries {
            hash_path(&entry, hasher);
        }
    } else if let Ok(bytes) = std::fs::read(path) {
        path.hash(hasher);
        bytes.hash(hasher);
    }
}
