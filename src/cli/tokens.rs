//! `challenge tokens`: counts and checks bot files (the token counter's own command),
//! and shows where their tokens go: `--items`, what each item costs, and
//! `--diff OLD NEW`, what changed per item.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::json;
use token_counter::{CountArgs, ItemDiff, Itemized, LIMIT, Status};

/// Arguments of `challenge tokens`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    count: CountArgs,
    /// Show what each item costs (function, method, impl block, struct, enum, const,
    /// static, use, ...), costliest first; the rows add up to the file's count.
    #[arg(long, conflicts_with_all = ["lines", "top"])]
    items: bool,
    /// Show what changed per item from OLD to NEW (bot names, files or variants
    /// `BOT@NAME=VALUE`), and the change of the whole count.
    #[arg(
        long,
        num_args = 2,
        value_names = ["OLD", "NEW"],
        conflicts_with_all = ["items", "lines", "top", "submission", "files"]
    )]
    diff: Option<Vec<PathBuf>>,
    /// With --diff: list the unchanged items too.
    #[arg(long, requires = "diff")]
    all: bool,
}

/// Runs the command. Exit codes as the counter's: 0 when every file is within the limit
/// and breaks no rule, 1 when one is over or breaks a rule (`--items`; `--diff` judges
/// neither), 2 when a file cannot be read or does not parse.
pub fn run(args: Args) -> ExitCode {
    if args.all && args.diff.is_none() {
        // clap's `requires` lets this pass when a FILE is given (FILES conflict with
        // --diff, and clap excuses a requirement that conflicts with what is present).
        eprintln!("error: --all lists unchanged items of --diff OLD NEW; it needs --diff");
        return ExitCode::from(2);
    }
    // Bot names and variants (`BOT@NAME=VALUE`, whose file is made here) become files.
    let specs = args.diff.as_ref().unwrap_or(&args.count.files);
    if let Some(why) = no_bot_here(specs) {
        eprintln!("error: {why}");
        return ExitCode::from(2);
    }
    let files = match bot_build::count_paths(specs) {
        Ok(files) => files,
        Err(err) => {
            eprintln!("error: {err:#}");
            return ExitCode::from(2);
        }
    };
    let out = &mut io::stdout().lock();
    let code = match &args.diff {
        Some(_) => diff(&args, &files[0], &files[1], out),
        None if args.items => items(&args, &files, out),
        None => {
            let mut count = args.count.clone();
            count.files = files;
            token_counter::run(&count, out)
        }
    };
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}

/// The author's own bot, `bot/my_bot.rs` (what the command counts when given nothing),
/// is looked for in the current directory only: when it is not there, why nothing is
/// counted, where it was looked for, and what to do; the kit's own starter of that name is
/// never counted in its place.
fn no_bot_here(specs: &[PathBuf]) -> Option<String> {
    let own = Path::new("bot/my_bot.rs");
    if specs != [own] || own.is_file() {
        return None;
    }
    let here = std::env::current_dir().map_or_else(|_| ".".into(), |dir| dir.display().to_string());
    Some(format!(
        "no bot to count: there is no bot/my_bot.rs in {here}. Name a bot file or a bot \
         (`challenge tokens path/to/bot.rs`, `challenge tokens evil_bot`), or make a bot \
         folder here with `challenge new .`"
    ))
}

/// `--items`: each file's count split by item.
fn items(args: &Args, files: &[PathBuf], out: &mut dyn Write) -> i32 {
    let mut code = 0;
    for path in files {
        let name = path.display().to_string();
        let written = match token_counter::itemize_file(path) {
            Ok(it) => {
                if !args.count.accepts(&it.report) {
                    code = code.max(1);
                }
                if args.count.json {
                    writeln!(out, "{}", items_json(&name, &it))
                } else {
                    write_items(out, &name, &it)
                }
            }
            Err(err) => {
                code = 2;
                write_error(out, args.count.json, &name, &err)
            }
        };
        if written.is_err() {
            // The reader went away (a closed pipe): nothing more to say.
            return 2;
        }
    }
    code
}

fn write_error(
    out: &mut dyn Write,
    json: bool,
    name: &str,
    err: &token_counter::FileError,
) -> io::Result<()> {
    if json {
        writeln!(out, "{}", token_counter::error_json(name, err))
    } else {
        writeln!(out, "error: {err}")
    }
}

/// The count's JSON fields without `lines`, and `items`.
fn items_json(name: &str, it: &Itemized) -> serde_json::Value {
    let r = &it.report;
    json!({
        "file": name,
        "tokens": r.tokens,
        "debug_tokens": r.debug_tokens,
        "total": r.total(),
        "limit": LIMIT,
        "within_limit": r.within_limit(),
        "passes_submission": r.passes_submission(),
        "violations": r.violations,
        "items": it.items,
    })
}

fn write_items(out: &mut dyn Write, name: &str, it: &Itemized) -> io::Result<()> {
    write!(out, "{}", it.report.render(name))?;
    writeln!(
        out,
        "{:>6} {:>6} {:>5}  {:<12} item",
        "tokens", "#DEBUG", "line", "kind"
    )?;
    for row in &it.items {
        writeln!(
            out,
            "{:>6} {:>6} {:>5}  {:<12} {}",
            row.tokens, row.debug, row.line, row.kind, row.name
        )?;
    }
    let r = &it.report;
    writeln!(
        out,
        "{:>6} {:>6} {:>5}  {:<12} the file's count",
        r.tokens, r.debug_tokens, "", "total"
    )
}

/// `--diff OLD NEW`: the change per item and of the whole.
fn diff(args: &Args, old: &Path, new: &Path, out: &mut dyn Write) -> i32 {
    let json = args.count.json;
    let (was, is) = (
        token_counter::itemize_file(old),
        token_counter::itemize_file(new),
    );
    let written = match (&was, &is) {
        (Ok(was), Ok(is)) => {
            let mut diff = ItemDiff::between(was, is);
            if !args.all {
                diff.items.retain(|c| c.status != Status::Unchanged);
            }
            let (old, new) = (old.display().to_string(), new.display().to_string());
            if json {
                writeln!(out, "{}", diff_json(&old, &new, &diff))
            } else {
                write_diff(out, &old, &new, &diff)
            }
        }
        _ => [(old, &was), (new, &is)]
            .into_iter()
            .filter_map(|(path, result)| Some((path, result.as_ref().err()?)))
            .try_for_each(|(path, err)| write_error(out, json, &path.display().to_string(), err)),
    };
    if written.is_err() || was.is_err() || is.is_err() {
        2
    } else {
        0
    }
}

/// [`ItemDiff`]'s fields, and the two files as `old_file` and `new_file`.
fn diff_json(old: &str, new: &str, diff: &ItemDiff) -> serde_json::Value {
    let mut value = serde_json::to_value(diff).unwrap_or_default();
    if let Some(fields) = value.as_object_mut() {
        fields.insert("old_file".into(), old.into());
        fields.insert("new_file".into(), new.into());
    }
    value
}

fn write_diff(out: &mut dyn Write, old: &str, new: &str, diff: &ItemDiff) -> io::Result<()> {
    writeln!(
        out,
        "{old} -> {new}: {} -> {} tokens ({:+}), {} -> {} #DEBUG tokens ({:+})",
        diff.old_tokens,
        diff.new_tokens,
        diff.tokens_change,
        diff.old_debug_tokens,
        diff.new_debug_tokens,
        diff.debug_change
    )?;
    if diff.items.is_empty() {
        return writeln!(out, "no item changed");
    }
    writeln!(
        out,
        "{:>6} {:>6} {:>6} {:>6}  {:<9}  {:<12} item",
        "change", "old", "new", "#DEBUG", "status", "kind"
    )?;
    let side = |n: Option<usize>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
    for c in &diff.items {
        writeln!(
            out,
            "{:>+6} {:>6} {:>6} {:>+6}  {:<9}  {:<12} {}",
            c.tokens_change,
            side(c.old_tokens),
            side(c.new_tokens),
            c.debug_change,
            c.status.name(),
            c.kind,
            c.name
        )?;
    }
    Ok(())
}
