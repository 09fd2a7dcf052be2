//! `challenge variants`: a bot's marked constants and the grid of variants they make.

use anyhow::{Context, Result};
use kit::variants::{Mark, MarkKind, Setting, Value, Values};
use serde_json::{Value as Json, json};

/// List a bot's marked constants and the grid of variants its `vary` marks make.
///
/// A mark is a comment at the end of a constant's line, so it costs no tokens:
///   const TT_BITS: u32 = 20; // vary 13..=20
///   const MARGIN: i32 = 150; // vary 50..=300 step 50
///   const SCHEME: u8 = 3; // vary 0|1|2|3
///   const KNIGHT: i32 = 300; // tune 200..=400
/// A variant is named wherever a bot is, as BOT@NAME=VALUE[,NAME=VALUE...]:
///   challenge match turochamp_faithful@DEPTH=2 turochamp_faithful@DEPTH=3
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// A bot by name (`my_bot`: ./bot/my_bot.rs, else the kit's) or a path to a bot file.
    bot: String,
    /// Print JSON: the bot, its marks and the grid's variants.
    #[arg(long)]
    json: bool,
}

/// The most variants listed: a larger grid is counted, and its first ones listed.
const LISTED: usize = 1000;

/// Prints the marks and the grid.
pub fn run(args: &Args) -> Result<()> {
    let bot = kit::bots::resolve(&args.bot)?;
    let source = token_counter::read_source(&bot.path)?;
    let marks = kit::variants::marks(&source)
        .with_context(|| format!("cannot read the marks of {}", bot.path.display()))?;
    let base = base_spec(&args.bot, &bot.path);
    let grid = kit::variants::grid(&marks);
    let size = grid.size();
    let specs: Vec<String> = grid.take(LISTED).map(|set| spec(base, &set)).collect();
    if args.json {
        let report = json!({
            "bot": bot.name,
            "path": bot.path,
            "marks": marks.iter().map(mark_json).collect::<Vec<_>>(),
            "grid": {
                "size": size.and_then(|n| u64::try_from(n).ok()),
                "listed": specs.len(),
                "variants": specs,
            },
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_text(&bot, &marks, size, &specs);
    }
    Ok(())
}

/// The spec the grid's variants are named from: the one given, or, for a variant, the
/// bot it is a variant of.
fn base_spec<'a>(given: &'a str, path: &std::path::Path) -> &'a str {
    let is_variant = kit::variants::family(path, &kit::bots::variants_dir()).is_some();
    match given.rsplit_once('@') {
        Some((base, _)) if is_variant => base,
        _ => given,
    }
}

fn spec(base: &str, set: &[Setting]) -> String {
    if set.is_empty() {
        base.to_string()
    } else {
        format!("{base}@{}", kit::variants::spec_text(set))
    }
}

fn print_text(bot: &kit::bots::BotFile, marks: &[Mark], size: Option<u128>, specs: &[String]) {
    let count = match marks.len() {
        0 => "no marked constant".to_string(),
        1 => "1 marked constant".to_string(),
        n => format!("{n} marked constants"),
    };
    println!("{}: {count} ({})", bot.name, bot.path.display());
    if marks.is_empty() {
        println!(
            "  mark one with a comment at the end of its line: const DEPTH: i32 = 3; // vary 1..=4"
        );
    }
    for mark in marks {
        let what = match (mark.kind, mark.values.count()) {
            (MarkKind::Tune, _) => "a tuning parameter".to_string(),
            (MarkKind::Vary, Some(1)) => "1 value".to_string(),
            (MarkKind::Vary, Some(n)) => format!("{n} values"),
            (MarkKind::Vary, None) => "more values than can be counted".to_string(),
        };
        println!(
            "  line {}: {}: {} = {}  {}  ({what})",
            mark.line,
            mark.name,
            mark.ty,
            mark.current,
            mark.text()
        );
    }
    let size = size.map_or_else(|| "more than 2^128".to_string(), |n| n.to_string());
    if marks.iter().all(|m| m.kind != MarkKind::Vary) {
        println!("grid: no `vary` mark, so only the bot itself");
    } else {
        println!("grid: {size} variants");
    }
    for spec in specs {
        println!("  {spec}");
    }
    if specs.len() == LISTED {
        println!("  (the first {LISTED} listed)");
    }
}

fn mark_json(mark: &Mark) -> Json {
    let values = match &mark.values {
        Values::Ints { min, max, step } => json!({
            "min": number(&Value::Int(*min)),
            "max": number(&Value::Int(*max)),
            "step": u64::try_from(*step).map_or_else(|_| json!(step.to_string()), |s| json!(s)),
        }),
        Values::Floats { min, max } => json!({ "min": min, "max": max }),
        Values::List(list) => json!({ "list": list.iter().map(number).collect::<Vec<_>>() }),
    };
    json!({
        "name": mark.name,
        "kind": mark.kind.word(),
        "line": mark.line,
        "type": mark.ty,
        "integer": mark.is_integer(),
        "current": number(&mark.current),
        "mark": mark.text(),
        "values": values,
        "count": mark.values.count().and_then(|n| u64::try_from(n).ok()),
    })
}

/// A value as JSON: a number where JSON holds it exactly, else its source text.
fn number(value: &Value) -> Json {
    match value {
        Value::Int(n) => i64::try_from(*n).map_or_else(|_| json!(n.to_string()), |n| json!(n)),
        Value::Float(x) => json!(x),
        Value::Bool(b) => json!(b),
        Value::Path(p) => json!(p),
    }
}
