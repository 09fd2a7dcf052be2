//! What a public game record may say about the machine it was played on:
//! nothing.
//!
//! An engine's last stderr lines and the fault sentence around them go into
//! the stored game (its crash comment, its detail), which anyone can read. A
//! bot is native code and its stderr is whatever it prints: a panic's
//! location in the organiser's build directory, the path it was started from
//! (argv\[0\] and the kernel's copy of it are in its memory), the source paths
//! compiled into it (the kit's checkout, the cargo registry in a home
//! directory). [`HostDetail::scrub`] replaces the paths the runner knows (the
//! engine's executable and directory, its working directory, the runner's
//! own executable and current directory, the home directory, the kit's
//! checkout) and the host name with labels, then cuts every absolute path to
//! its last component: `panicked at …/my_bot.rs:12:5` keeps what the
//! author needs. A bot that encodes what it finds (reversed, in hex) is not
//! stopped here: that is the OS sandbox's business, and after it closes a bot
//! can learn no more than what its own memory holds.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::engine::EngineConfig;
use super::lines::{STDERR_TAIL_BYTES, STDERR_TAIL_LINES};
use super::text::{MAX_STDERR_LINE_CHARS, one_line};

/// What a cut path keeps in front of its last component.
const CUT: &str = "…/";

/// Lines of the Rust runtime, not of the bot's author, dropped from a record.
const RUNTIME_LINES: &[&str] = &["note: run with `RUST_BACKTRACE=", "stack backtrace:"];

/// The host's strings a public record must not show, each with the label
/// that replaces it.
#[derive(Debug, Clone)]
pub struct HostDetail {
    /// Longest first, so that a path is replaced before its parent.
    known: Vec<(String, &'static str)>,
}

impl HostDetail {
    /// The host's own strings: its name, the home and current directories, the
    /// runner's executable and the kit's checkout.
    ///
    /// ```
    /// let host = runner::HostDetail::of_host();
    /// let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    /// let line = format!("panicked at {home}/kit/target/bots/a1/src/main.rs:3:9:");
    /// assert_eq!(host.scrub(&line), "panicked at …/main.rs:3:9:");
    /// assert_eq!(host.scrub("1/2 of 3 moves"), "1/2 of 3 moves");
    /// ```
    pub fn of_host() -> HostDetail {
        static HOST: OnceLock<HostDetail> = OnceLock::new();
        HOST.get_or_init(|| {
            let mut host = HostDetail { known: Vec::new() };
            let home = std::env::var_os("HOME").map(PathBuf::from);
            host.add_path(home.as_deref(), "~");
            host.add_path(std::env::current_dir().ok().as_deref(), "<cwd>");
            host.add_path(std::env::current_exe().ok().as_deref(), "<runner>");
            host.add_path(kit_checkout().as_deref(), "<kit>");
            if let Ok(name) = std::fs::read_to_string("/proc/sys/kernel/hostname") {
                host.add(name.trim(), "<host>");
            }
            host
        })
        .clone()
    }

    /// [`HostDetail::of_host`] and one engine's own folders: its executable's (and
    /// a script's it is given as an argument), as given and with links resolved,
    /// and its working directory. The executable keeps its file name
    /// (`cannot start …/my_bot`), which is the bot's, not the host's.
    pub fn for_engine(config: &EngineConfig) -> HostDetail {
        let mut host = HostDetail::of_host();
        let own = std::iter::once(config.command.clone()).chain(
            config
                .args
                .iter()
                .map(PathBuf::from)
                .filter(|arg| arg.is_absolute() || arg.is_file()),
        );
        for path in own {
            let resolved = std::fs::canonicalize(&path).ok();
            host.add_path(path.parent(), "<engine-dir>");
            host.add_path(resolved.as_deref().and_then(Path::parent), "<engine-dir>");
        }
        host.add_path(config.dir.as_deref(), "<engine-cwd>");
        host
    }

    /// `text` with every host string replaced by its label and every other
    /// absolute path cut to its last component.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (needle, label) in &self.known {
            out = replace_whole(&out, needle, label);
        }
        cut_paths(&out)
    }

    /// An engine's stderr lines as a public record keeps them: the runtime's
    /// own lines dropped, each line scrubbed and kept one printable line, the
    /// newest lines within [`STDERR_TAIL_LINES`] and [`STDERR_TAIL_BYTES`].
    pub fn scrub_stderr(&self, lines: &[String]) -> Vec<String> {
        let mut kept = Vec::new();
        let mut bytes = 0;
        for line in lines.iter().rev() {
            if RUNTIME_LINES.iter().any(|r| line.starts_with(r)) {
                continue;
            }
            let line = one_line(&self.scrub(line), MAX_STDERR_LINE_CHARS);
            if kept.len() == STDERR_TAIL_LINES || bytes + line.len() > STDERR_TAIL_BYTES {
                break;
            }
            bytes += line.len();
            kept.push(line);
        }
        kept.reverse();
        kept
    }

    fn add_path(&mut self, path: Option<&Path>, label: &'static str) {
        let Some(path) = path else {
            return;
        };
        let canonical = std::fs::canonicalize(path).ok();
        for form in [Some(path), canonical.as_deref()].into_iter().flatten() {
            self.add(&form.to_string_lossy(), label);
        }
    }

    fn add(&mut self, needle: &str, label: &'static str) {
        // `/` alone, or a one-letter host name, would cut up ordinary text.
        if needle.len() < 2 || self.known.iter().any(|(n, _)| n == needle) {
            return;
        }
        self.known.push((needle.to_owned(), label));
        self.known.sort_by_key(|(n, _)| std::cmp::Reverse(n.len()));
    }
}

/// The checkout this runner was built from: the nearest folder above its
/// manifest that holds a `Cargo.lock`, if it is still there.
fn kit_checkout() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .map(Path::to_path_buf)
}

/// Characters that continue a path or a word: a match of a needle must not
/// be the middle of one.
fn continues(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '~')
}

/// `text` with `needle` replaced by `label` where it stands whole: not
/// preceded or followed by a character that continues it (a path may go on
/// with `/`).
fn replace_whole(text: &str, needle: &str, label: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (at, _) in text.match_indices(needle) {
        let before = text[..at].chars().last();
        let after = text[at + needle.len()..].chars().next();
        if before.is_some_and(continues) || after.is_some_and(|c| c != '/' && continues(c)) {
            continue;
        }
        out.push_str(&text[from..at]);
        out.push_str(label);
        from = at + needle.len();
    }
    out.push_str(&text[from..]);
    out
}

/// Characters that end a path in running text.
fn ends_path(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            ':' | '\''
                | '"'
                | '`'
                | ','
                | ';'
                | '('
                | ')'
                | '['
                | ']'
                | '{'
                | '}'
                | '<'
                | '>'
                | '|'
        )
}

/// `text` with every absolute path of two or more components (`/a/b`,
/// `~/a`, `<kit>/a`) cut to `…/` and its last component.
fn cut_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = path_start(out.chars().last(), rest) {
        out.push_str(&rest[..start]);
        let run = &rest[start..];
        let len = path_len(run);
        let path = &run[..len];
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        match parts.last() {
            Some(last) if parts.len() >= 2 => {
                out.push_str(CUT);
                out.push_str(last);
            }
            _ => out.push_str(path),
        }
        rest = &run[len..];
    }
    out.push_str(rest);
    out
}

/// Where the next path starts in `rest`, whose text so far ended with
/// `previous`: at `/`, `~/` or a `<label>/`, where no word or path goes on
/// before it.
fn path_start(mut previous: Option<char>, rest: &str) -> Option<usize> {
    for (i, c) in rest.char_indices() {
        let tail = &rest[i..];
        let label = c == '<'
            && tail
                .find(">/")
                .is_some_and(|end| !tail[1..end].contains(ends_path));
        let starts = c == '/' || tail.starts_with("~/") || label;
        if starts && !previous.is_some_and(continues) {
            return Some(i);
        }
        previous = Some(c);
    }
    None
}

/// The length of the path at the start of `run`, a leading `<label>` counted
/// whole.
fn path_len(run: &str) -> usize {
    let from = if run.starts_with('<') {
        run.find('>').map_or(0, |end| end + 1)
    } else {
        0
    };
    from + run[from..].find(ends_path).unwrap_or(run.len() - from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(known: &[(&str, &'static str)]) -> HostDetail {
        let mut host = HostDetail { known: Vec::new() };
        for (needle, label) in known {
            host.add(needle, label);
        }
        host
    }

    #[test]
    fn known_strings_become_labels_and_other_paths_their_last_component() {
        let h = host(&[
            ("/home/Ann Lee", "~"),
            ("/srv/kit", "<kit>"),
            ("/srv/kit/cache/ab/bot", "<engine>"),
            ("tourney-7", "<host>"),
        ]);
        let cases = [
            // A home with a space, which the path cut alone would split.
            ("at /home/Ann Lee/kit/x.rs:3:1", "at …/x.rs:3:1"),
            ("started as /srv/kit/cache/ab/bot", "started as <engine>"),
            ("src /srv/kit/framework/src/bot.rs:9", "src …/bot.rs:9"),
            ("on tourney-7 now", "on <host> now"),
            // Not the host name: part of a longer word.
            ("tourney-7b", "tourney-7b"),
            ("/etc/hostname and /proc/self/exe", "…/hostname and …/exe"),
            ("(`/tmp/x/y`)", "(`…/y`)"),
            ("1/2 of a/b, / alone", "1/2 of a/b, / alone"),
            ("/single", "/single"),
        ];
        for (text, want) in cases {
            assert_eq!(h.scrub(text), want, "{text:?}");
        }
    }

    #[test]
    fn a_path_is_replaced_only_whole() {
        let h = host(&[("/root", "~")]);
        assert_eq!(h.scrub("/root/a"), "…/a");
        assert_eq!(h.scrub("/rooted"), "/rooted");
        assert_eq!(h.scrub("/x/root"), "…/root");
    }

    #[test]
    fn stderr_keeps_the_authors_lines_within_the_bounds() {
        let h = host(&[]);
        let mut lines: Vec<String> = (0..100).map(|i| format!("line {i}")).collect();
        lines.push("note: run with `RUST_BACKTRACE=1` environment variable".into());
        let kept = h.scrub_stderr(&lines);
        assert_eq!(kept.len(), STDERR_TAIL_LINES);
        assert_eq!(kept.last().map(String::as_str), Some("line 99"));
        let long: Vec<String> = (0..10).map(|i| format!("{i}{}", "x".repeat(900))).collect();
        let kept = h.scrub_stderr(&long);
        assert!(kept.iter().map(String::len).sum::<usize>() <= STDERR_TAIL_BYTES);
        assert!(kept.last().unwrap().starts_with('9'));
    }
}
