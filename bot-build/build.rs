//! Fingerprints the framework's sources so that bot engines built by one
//! version of the kit are never reused by another (the bot build cache key), and
//! tells the crate where the kit's checkout is (the workspace root above it).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest)
        .parent()
        .expect("the kit crate sits in the workspace");
    println!("cargo:rustc-env=CHALLENGE_KIT_ROOT={}", root.display());
    let mut hasher = DefaultHasher::new();
    for input in ["framework/src", "framework/Cargo.toml", "Cargo.lock"] {
        // Hashed by their path from the kit's root, so the key does not depend on
        // where the checkout is.
        let path = root.join(input);
        hash_path(&path, Path::new(input), &mut hasher);
        println!("cargo:rerun-if-changed={}", path.display());
    }
    println!(
        "cargo:rustc-env=CHALLENGE_FRAMEWORK_FINGERPRINT={:016x}",
        hasher.finish()
    );
}

fn hash_path(path: &Path, shown: &Path, hasher: &mut DefaultHasher) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .collect();
        entries.sort();
        for entry in entries {
            let name = entry.file_name().expect("a directory entry has a name");
            hash_path(&entry, &shown.join(name), hasher);
        }
    } else if let Ok(bytes) = std::fs::read(path) {
        shown.hash(hasher);
        bytes.hash(hasher);
    }
}
