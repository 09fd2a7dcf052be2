//! The refusals of the spec: what a bot file may not contain.
//!
//! The checks run over the lexed tokens rather than the syntax tree because a
//! macro's body is only tokens to `syn`: `macro_rules!` bodies and macro
//! arguments can hold anything, and the spec says the checks look inside them.
//! The one check that needs the tree (the `MyBot` type and its `impl Bot`) is
//! at the bottom.

use std::fmt;

use proc_macro2::Delimiter;
use serde::Serialize;

use crate::count::{Context, StandardNames};
use crate::tokens::{Pos, Tok};

mod breaks;
mod guards;
mod statics;
mod type_system;

/// The standard-library modules a bot may name, after `std::`, `core::` or
/// `alloc::`.
pub const ALLOWED_STD_MODULES: &[&str] = &[
    "cmp",
    "collections",
    "mem",
    "ops",
    "iter",
    "num",
    "array",
    "slice",
    "vec",
    "string",
    "str",
    "char",
    "boxed",
    "rc",
    "cell",
    "hash",
    "fmt",
    "convert",
    "default",
    "option",
    "result",
    "marker",
    "clone",
    "time",
    "f32",
    "f64",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
];

/// Macros refused anywhere in a bot file.
pub const FORBIDDEN_MACROS: &[&str] = &[
    "include",
    "include_str",
    "include_bytes",
    "env",
    "option_env",
    "asm",
    "global_asm",
    "concat_idents",
    "stringify",
    "file",
    "line",
    "column",
    "module_path",
    "concat",
    "concat_bytes",
    "trace_macros",
    "log_syntax",
];

/// Names refused anywhere because what they name prints names as text, which
/// a bot could read back as data: `Debug` (derived, it prints the file's
/// type, variant and field names), and `type_name`, `type_name_of_val`,
/// `PhantomData` and `MaybeUninit` (whose `Debug` prints a type's name).
pub const NAME_PRINTERS: &[&str] = &[
    "Debug",
    "type_name",
    "type_name_of_val",
    "PhantomData",
    "MaybeUninit",
];

/// The attributes a bot may use (by their first path segment: `rustfmt`
/// covers `#[rustfmt::skip]`). Any other is refused: crate-level switches
/// (`no_std`, `feature`, `recursion_limit`), linking and exporting, and
/// `debugger_visualizer`, which reads a file at build time.
pub const ALLOWED_ATTRIBUTES: &[&str] = &[
    "allow",
    "warn",
    "deny",
    "forbid",
    "expect",
    "derive",
    "inline",
    "cold",
    "repr",
    "must_use",
    "doc",
    "cfg",
    "cfg_attr",
    "default",
    "non_exhaustive",
    "track_caller",
    "macro_export",
    "deprecated",
    "test",
    "ignore",
    "should_panic",
    "rustfmt",
    "clippy",
    "diagnostic",
];

/// The traits a bot may derive. `Debug` is not one of them: see
/// [`NAME_PRINTERS`].
const ALLOWED_DERIVES: &[&str] = &[
    "Clone",
    "Copy",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Default",
];

/// Attributes refused anywhere in a bot file.
pub const FORBIDDEN_ATTRIBUTES: &[&str] = &[
    "path",
    "link",
    "no_mangle",
    "export_name",
    "link_section",
    "global_allocator",
];

const STD_ROOTS: &[&str] = &["std", "core", "alloc"];

/// A rule of the challenge that a bot file can break. [`Rule::name`] is a
/// stable kebab-case identifier, safe to match on in scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// The `unsafe` keyword.
    Unsafe,
    /// The `extern` keyword: blocks, crates, ABIs.
    Extern,
    /// A named lifetime other than `'static` and `'_` (loop and block labels
    /// excepted): the lifetime-extension holes in rustc's implied bounds
    /// (rust-lang/rust#25860 and its kin) need two of them.
    NamedLifetime,
    /// The name `Sized`: a `?Sized` blanket impl also covers trait objects,
    /// which rust-lang/rust#57893 turns into a transmute.
    MaybeSized,
    /// The `dyn` keyword: a trait object implements its traits by itself, and
    /// rustc lets a second impl reach it (rust-lang/rust#57893, #152783).
    TraitObject,
    /// An impl for anything but one of the file's own structs, enums and unions
    /// named as written, or whose header holds a projection, a type macro or a
    /// macro variable: so no impl's self type is ever a trait object.
    ImplSelfType,
    /// A trait of the file's own with generic parameters or associated types.
    TraitDefinition,
    /// A generic type alias, or one for a projection, `impl Trait`, a type macro
    /// or a macro variable.
    TypeAlias,
    /// A `break` or `continue` that leaves the arguments of a call or a macro:
    /// rustc's two-phase borrows then lose track of the call's borrow,
    /// rust-lang/rust#160598.
    BreakOutOfCall,
    /// `'static` anywhere but on a reference to a type that mentions no
    /// generic parameter: a `'static` bound lets rustc take a closure's
    /// associated types to be `'static`, rust-lang/rust#84366.
    StaticBound,
    /// A match guard that names the variable its match reads (or calls a
    /// macro the file defines): rustc's guard checks have holes that let a
    /// guard change the matched place, rust-lang/rust#160599 and #161578.
    MatchGuard,
    /// `mod x;`, which loads another file.
    ModWithoutBody,
    /// `#[path]`, `#[link]`, `#[no_mangle]`, `#[export_name]`,
    /// `#[link_section]`, `#[global_allocator]`.
    ForbiddenAttribute,
    /// `include!`, `env!`, `stringify!` and the rest of the refused macros.
    ForbiddenMacro,
    /// A standard-library module outside the allowed list, or `mem::transmute`.
    ForbiddenPath,
    /// `type_name`, `type_name_of_val`, `PhantomData` or `MaybeUninit`,
    /// by any path: each prints a type's name.
    TypeName,
    /// The name `Debug`: derived `Debug` prints the file's own names.
    DebugText,
    /// Renaming `std`, `core`, `alloc` or `framework` (`use std as s`).
    RenamedRoot,
    /// A standard-library or framework root continued with, or spliced from,
    /// a macro variable (`std::$m`, `$root::fs`).
    MacroVariablePath,
    /// A macro name or attribute spliced from a macro variable (`$m!`,
    /// `#[$a]`), which would dodge the refused lists.
    MacroVariableSplice,
    /// A `framework::` path that does not go through `framework::prelude`.
    FrameworkPath,
    /// No type named `MyBot` at the top of the file.
    MissingMyBot,
    /// No `impl Bot for MyBot` at the top of the file.
    MissingBotImpl,
    /// A bidirectional control, an invisible format character, or a line
    /// break other than `\n` and `\r\n`.
    InvisibleCharacter,
}

impl Rule {
    /// Every rule, in the order the spec lists them.
    pub const ALL: [Rule; 24] = [
        Rule::Unsafe,
        Rule::Extern,
        Rule::NamedLifetime,
        Rule::StaticBound,
        Rule::TraitObject,
        Rule::ImplSelfType,
        Rule::TraitDefinition,
        Rule::TypeAlias,
        Rule::MaybeSized,
        Rule::BreakOutOfCall,
        Rule::MatchGuard,
        Rule::ModWithoutBody,
        Rule::ForbiddenAttribute,
        Rule::ForbiddenMacro,
        Rule::ForbiddenPath,
        Rule::TypeName,
        Rule::DebugText,
        Rule::RenamedRoot,
        Rule::MacroVariablePath,
        Rule::MacroVariableSplice,
        Rule::FrameworkPath,
        Rule::MissingMyBot,
        Rule::MissingBotImpl,
        Rule::InvisibleCharacter,
    ];

    /// The stable kebab-case name of the rule.
    ///
    /// ```
    /// assert_eq!(token_counter::Rule::ModWithoutBody.name(), "mod-without-body");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Rule::Unsafe => "unsafe",
            Rule::Extern => "extern",
            Rule::NamedLifetime => "named-lifetime",
            Rule::StaticBound => "static-bound",
            Rule::MaybeSized => "maybe-sized",
            Rule::TraitObject => "trait-object",
            Rule::ImplSelfType => "impl-self-type",
            Rule::TraitDefinition => "trait-definition",
            Rule::TypeAlias => "type-alias",
            Rule::BreakOutOfCall => "break-out-of-call",
            Rule::MatchGuard => "match-guard",
            Rule::ModWithoutBody => "mod-without-body",
            Rule::ForbiddenAttribute => "forbidden-attribute",
            Rule::ForbiddenMacro => "forbidden-macro",
            Rule::ForbiddenPath => "forbidden-path",
            Rule::TypeName => "type-name",
            Rule::DebugText => "debug-text",
            Rule::RenamedRoot => "renamed-root",
            Rule::MacroVariablePath => "macro-variable-path",
            Rule::MacroVariableSplice => "macro-variable-splice",
            Rule::FrameworkPath => "framework-path",
            Rule::MissingMyBot => "missing-my-bot",
            Rule::MissingBotImpl => "missing-bot-impl",
            Rule::InvisibleCharacter => "invisible-character",
        }
    }

    fn hint(self) -> &'static str {
        match self {
            Rule::Unsafe => "bots are safe Rust only: remove `unsafe`",
            Rule::Extern => "bots cannot link or declare foreign code: remove `extern`",
            Rule::NamedLifetime => {
                "let the compiler infer lifetimes: elide them (`fn f(x: &Board) -> &str`), \
                 write `'_` where one must be shown, or `'static`; labels (`'outer: loop`) stay allowed"
            }
            Rule::StaticBound => {
                "write `'static` only on a reference to a concrete type (`&'static str`); drop the \
                 bound, or take the value by reference"
            }
            Rule::MaybeSized => {
                "make the generic parameter sized (drop `?Sized`), or take a slice or `&str` instead"
            }
            Rule::TraitObject => {
                "take a generic parameter (`impl Fn(&Board) -> i32`, `T: Tr`), a fn pointer \
                 (`fn(&Board) -> i32`) or an enum of the cases instead of a trait object"
            }
            Rule::TraitDefinition => {
                "give the trait neither generic parameters nor associated types: put the \
                 types in its methods' signatures, or write functions instead"
            }
            Rule::TypeAlias => {
                "give the alias no generic parameters and a type written out \
                 (`type Table = [[i32; 64]; 6];`), or write the type where it is used"
            }
            Rule::BreakOutOfCall => {
                "compute the value before the call: `let x = match y { Some(x) => x, None => continue }; \
                 v.push(x);`"
            }
            Rule::MatchGuard => {
                "read what the guard needs before the match (`let depth = self.depth;`), or test \
                 it inside the arm"
            }
            Rule::ImplSelfType => {
                "implement traits only for the structs, enums and unions the file defines, \
                 by name (`impl Ord for Entry`, `impl<T> Tr for Pair<T>`), written out rather \
                 than passed into a macro; use a function for anything else"
            }
            Rule::ModWithoutBody => "a bot is one file: give the module a body, `mod name { ... }`",
            Rule::ForbiddenAttribute => {
                "use only allow, warn, deny, forbid, expect, derive (Clone, Copy, PartialEq, Eq, \
                 PartialOrd, Ord, Hash, Default), inline, cold, repr, must_use, doc, cfg, cfg_attr, \
                 default, non_exhaustive, track_caller, macro_export, deprecated, test, ignore, \
                 should_panic and the rustfmt, clippy and diagnostic tool attributes"
            }
            Rule::ForbiddenMacro => {
                "remove the macro, under any name or path; it reads the build environment or \
                 turns source text into data"
            }
            Rule::ForbiddenPath => {
                "use only cmp, collections, mem, ops, iter, num, array, slice, vec, string, str, char, \
                 boxed, rc, cell, hash, fmt, convert, default, option, result, marker, clone, time, \
                 f32, f64, the integer modules and the prelude"
            }
            Rule::TypeName => "type names can hide data: compute the value instead",
            Rule::DebugText => {
                "derived `Debug` turns names into data: print the fields you need with `{}` \
                 (on a `// #DEBUG` line); `{:?}` on the framework's and the standard library's \
                 own types stays allowed"
            }
            Rule::RenamedRoot => "write the path out in full, e.g. `std::cmp::max`",
            Rule::MacroVariablePath => {
                "write the module path out in the macro instead of passing it in"
            }
            Rule::MacroVariableSplice => {
                "write the macro or attribute name out instead of passing it in"
            }
            Rule::FrameworkPath => "use the framework only through `use framework::prelude::*;`",
            Rule::MissingMyBot => "define the bot type: `#[derive(Default)] pub struct MyBot;`",
            Rule::MissingBotImpl => {
                "implement the trait: `impl Bot for MyBot { fn think(&mut self, board: Board, timer: Timer) -> Move { ... } }`"
            }
            Rule::InvisibleCharacter => {
                "delete it: write the file as it reads, with `\\u{...}` escapes in strings if needed"
            }
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One broken rule, at the 1-based line and column of the token that breaks it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Which rule.
    pub rule: Rule,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong, naming the offending code.
    pub message: String,
    /// What to do instead.
    pub hint: String,
}

impl Violation {
    pub(crate) fn new(rule: Rule, pos: Pos, message: impl Into<String>) -> Violation {
        Violation {
            rule,
            line: pos.line,
            column: pos.column,
            message: message.into(),
            hint: rule.hint().to_owned(),
        }
    }
}

impl fmt::Display for Violation {
    /// `line:column: error[rule]: message` and an indented hint line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: error[{}]: {}\n  hint: {}",
            self.line, self.column, self.rule, self.message, self.hint
        )
    }
}

/// Runs every check of the file's tokens: [`check_tokens`] token by token,
/// and the checks that follow a token's way out through its groups.
pub(crate) fn check_file(
    toks: &[Tok],
    ctx: Context,
    standard: &StandardNames,
    out: &mut Vec<Violation>,
) {
    check_tokens(toks, ctx, standard, out);
    type_system::check(toks, standard, out);
    breaks::check(toks, out);
    guards::check(toks, standard, out);
    statics::check(toks, out);
}

/// Runs every token-level check over `toks` and, recursively, their groups.
// One pass over the token stream with every check side by side, so each rule sees
// the same context; split it when a rule needs state of its own.
#[allow(clippy::too_many_lines)]
fn check_tokens(toks: &[Tok], ctx: Context, standard: &StandardNames, out: &mut Vec<Violation>) {
    let in_macro = ctx != Context::Code;
    for (i, tok) in toks.iter().enumerate() {
        let next = toks.get(i + 1);
        let after_dot = i > 0 && toks[i - 1].is_punct(".");
        match tok {
            Tok::Ident { name, .. } => {
                let name = name.as_str();
                match tok.keyword() {
                    Some("unsafe") => out.push(Violation::new(
                        Rule::Unsafe,
                        tok.pos(),
                        "`unsafe` is refused",
                    )),
                    Some("extern") => out.push(Violation::new(
                        Rule::Extern,
                        tok.pos(),
                        "`extern` is refused",
                    )),
                    Some("mod") if !mod_has_body(&toks[i + 1..]) => out.push(Violation::new(
                        Rule::ModWithoutBody,
                        tok.pos(),
                        "`mod` without a body `{ ... }`",
                    )),
                    Some("use") => check_use_names(&toks[i + 1..], out),
                    _ => {}
                }
                check_name_printer(name, tok.pos(), out);
                if name == "Sized" {
                    out.push(Violation::new(
                        Rule::MaybeSized,
                        tok.pos(),
                        "`Sized` is refused: a `?Sized` generic impl also covers trait objects, \
                         which rustc turns into a transmute (rust-lang/rust#57893)",
                    ));
                }
                if name == "macro_rules"
                    && next.is_some_and(|t| t.is_punct("!"))
                    && toks.get(i + 2).is_some_and(|t| t.is_punct("$"))
                {
                    out.push(Violation::new(
                        Rule::MacroVariableSplice,
                        tok.pos(),
                        "a macro defined under a name taken from a macro variable (`macro_rules! $name`)",
                    ));
                }
                if FORBIDDEN_MACROS.contains(&name) {
                    check_macro_name(name, next, ctx, tok.pos(), out);
                }
                let is_root = STD_ROOTS.contains(&name) || name == "framework";
                if is_root && !after_dot {
                    if next.is_some_and(|t| t.is_punct("::")) {
                        if name == "framework" {
                            check_framework_path(&toks[i + 2..], tok.pos(), out);
                        } else {
                            check_std_path(name, &toks[i + 2..], tok.pos(), out);
                        }
                    } else if next.is_some_and(|t| t.keyword() == Some("as")) {
                        out.push(Violation::new(
                            Rule::RenamedRoot,
                            tok.pos(),
                            format!("`{name}` is renamed"),
                        ));
                    } else if in_macro {
                        // In a macro, a bare root can be passed to `$root::fs`.
                        out.push(Violation::new(
                            Rule::MacroVariablePath,
                            tok.pos(),
                            format!("`{name}` alone in a macro can be spliced into a path"),
                        ));
                    }
                }
            }
            Tok::Punct { op, .. }
                if op == "$"
                    && next.is_some_and(|t| t.ident().is_some())
                    && toks.get(i + 2).is_some_and(|t| t.is_punct("!")) =>
            {
                out.push(Violation::new(
                    Rule::MacroVariableSplice,
                    tok.pos(),
                    "a macro name taken from a macro variable (`$name!`)",
                ));
            }
            Tok::Punct { op, .. } if op == "#" => {
                let bang = usize::from(next.is_some_and(|t| t.is_punct("!")));
                match toks
                    .get(i + 1 + bang)
                    .and_then(|t| t.group(Delimiter::Bracket))
                {
                    Some(inner) => check_attribute(inner, tok.pos(), out),
                    // Only attributes start with `#`; a `#` alone can only be
                    // meant for a macro to splice before `[no_mangle]`, where
                    // the attribute check would never see it.
                    None => out.push(Violation::new(
                        Rule::MacroVariableSplice,
                        tok.pos(),
                        "a `#` that does not start an attribute (a macro could splice it into one)",
                    )),
                }
            }
            Tok::Lifetime { .. } => check_lifetime(toks, i, ctx, out),
            Tok::Group { inner, .. } => {
                check_tokens(inner, standard.context_of(toks, i, ctx), standard, out)
            }
            _ => {}
        }
    }
}

/// The lifetime at `toks[i]` must be `'static`, `'_` or a label.
///
/// rustc's known lifetime-extension holes (rust-lang/rust#25860, #84591,
/// #100051) all relate two lifetimes that only names can tie together:
/// elided lifetimes are each fresh, and a lifetime carried by a type or
/// `Self` parameter is early-bound, which rustc checks. A label cannot be a
/// lifetime, so it stays allowed where rustc reads it as one: defined before
/// `loop`, `while`, `for` or a block, or used after `break` or `continue`.
/// In the arguments of a macro the file defines it is refused all the same,
/// since a `$l:lifetime` matcher can capture a label and transcribe it as a
/// lifetime parameter.
fn check_lifetime(toks: &[Tok], i: usize, ctx: Context, out: &mut Vec<Violation>) {
    let Tok::Lifetime { name, raw, pos } = &toks[i] else {
        return;
    };
    if !raw && (name == "static" || name == "_") {
        return;
    }
    let used = i > 0 && matches!(toks[i - 1].keyword(), Some("break" | "continue"));
    let defined = toks.get(i + 1).is_some_and(|t| t.is_punct(":"))
        && toks.get(i + 2).is_some_and(|t| {
            matches!(t.keyword(), Some("loop" | "while" | "for"))
                || t.group(Delimiter::Brace).is_some()
        });
    let shown = if *raw {
        format!("'r#{name}")
    } else {
        format!("'{name}")
    };
    let message = if used || defined {
        if ctx != Context::FileMacro {
            return;
        }
        format!(
            "the label `{shown}` in the arguments of a macro the file defines, which could \
             transcribe it as a lifetime parameter"
        )
    } else {
        format!(
            "the lifetime `{shown}` is refused: a bot writes only `'static` and `'_` \
             (rustc's implied-bounds holes need named lifetimes)"
        )
    };
    out.push(Violation::new(Rule::NamedLifetime, *pos, message));
}

/// A refused macro's name: refused before `!` anywhere; before a macro
/// variable (`include_str $bang ("x")`, the `!` spliced in); and anywhere in
/// the arguments of a macro the file defines, which could splice it in front
/// of a `!` (`$name $bang (...)`).
fn check_macro_name(
    name: &str,
    next: Option<&Tok>,
    ctx: Context,
    pos: Pos,
    out: &mut Vec<Violation>,
) {
    let message = if next.is_some_and(|t| t.is_punct("!")) {
        format!("the macro `{name}!` is refused")
    } else if ctx != Context::Code && next.is_some_and(|t| t.is_punct("$")) {
        format!("`{name}` followed by a macro variable, which could splice in the `!` of `{name}!`")
    } else if ctx == Context::FileMacro {
        format!(
            "`{name}` in the arguments of a macro the file defines, which could call `{name}!` with it"
        )
    } else {
        return;
    };
    out.push(Violation::new(Rule::ForbiddenMacro, pos, message));
}

fn check_name_printer(name: &str, pos: Pos, out: &mut Vec<Violation>) {
    if !NAME_PRINTERS.contains(&name) {
        return;
    }
    let (rule, why) = if name == "Debug" {
        (
            Rule::DebugText,
            "derived `Debug` prints the file's own type, variant and field names",
        )
    } else {
        (Rule::TypeName, "its `Debug` or its value is a type's name")
    };
    out.push(Violation::new(
        rule,
        pos,
        format!("`{name}` is refused: {why}"),
    ));
}

/// `rest` follows a `use` keyword: a refused macro named anywhere in the
/// use tree is refused, because `use include_str as f;` (or any path that
/// reaches it) brings it in under another name.
fn check_use_names(rest: &[Tok], out: &mut Vec<Violation>) {
    let end = rest
        .iter()
        .position(|t| t.is_punct(";"))
        .unwrap_or(rest.len());
    let mut found = Vec::new();
    idents_at(&rest[..end], &mut found);
    for (name, pos) in found {
        if FORBIDDEN_MACROS.contains(&name) {
            out.push(Violation::new(
                Rule::ForbiddenMacro,
                pos,
                format!("the macro `{name}!` is refused, also when imported or renamed by `use`"),
            ));
        }
    }
}

fn idents_at<'a>(toks: &'a [Tok], out: &mut Vec<(&'a str, Pos)>) {
    for t in toks {
        match t {
            Tok::Ident { name, pos, .. } => out.push((name, *pos)),
            Tok::Group { inner, .. } => idents_at(inner, out),
            _ => {}
        }
    }
}

/// `rest` follows a `mod` keyword: a body is `name { ... }` (or, in a macro,
/// `$name { ... }`).
fn mod_has_body(rest: &[Tok]) -> bool {
    let rest = match rest.first() {
        Some(t) if t.is_punct("$") => &rest[1..],
        _ => rest,
    };
    rest.first().is_some_and(|t| t.ident().is_some())
        && rest
            .get(1)
            .is_some_and(|t| t.group(Delimiter::Brace).is_some())
}

fn check_attribute(inner: &[Tok], pos: Pos, out: &mut Vec<Violation>) {
    if inner.first().is_some_and(|t| t.is_punct("$")) {
        out.push(Violation::new(
            Rule::MacroVariableSplice,
            pos,
            "an attribute taken from a macro variable (`#[$attr]`)",
        ));
        return;
    }
    check_attribute_name(inner, pos, out);
    // Anywhere inside, so that `#[cfg_attr(all(), no_mangle)]` is caught too.
    let mut found = Vec::new();
    idents_in(inner, &mut found);
    for name in found {
        if FORBIDDEN_ATTRIBUTES.contains(&name) {
            out.push(Violation::new(
                Rule::ForbiddenAttribute,
                pos,
                format!("the attribute `#[{name}]` is refused"),
            ));
        }
    }
}

/// The attribute `inner` (the tokens of `#[...]`) must be an allowed one;
/// `cfg_attr(predicate, a, b)` is judged by the attributes it applies and
/// `derive(...)` by the traits it derives.
fn check_attribute_name(inner: &[Tok], pos: Pos, out: &mut Vec<Violation>) {
    let Some(name) = inner.first().and_then(Tok::ident) else {
        return;
    };
    let args = inner.get(1).and_then(|t| t.group(Delimiter::Parenthesis));
    if !ALLOWED_ATTRIBUTES.contains(&name) {
        out.push(Violation::new(
            Rule::ForbiddenAttribute,
            pos,
            format!("the attribute `#[{name}]` is not one a bot may use"),
        ));
    } else if let Some(args) = args.filter(|_| name == "cfg_attr") {
        for attr in args.split(|t| t.is_punct(",")).skip(1) {
            check_attribute(attr, pos, out);
        }
    } else if let Some(args) = args.filter(|_| name == "derive") {
        for item in args.split(|t| t.is_punct(",")) {
            let last = item.iter().rev().find_map(Tok::ident);
            let spliced = item.iter().any(|t| t.is_punct("$"));
            match last {
                _ if spliced => out.push(Violation::new(
                    Rule::MacroVariableSplice,
                    pos,
                    "a derived trait taken from a macro variable (`derive($t)`)",
                )),
                Some(t) if !ALLOWED_DERIVES.contains(&t) && t != "Debug" => {
                    out.push(Violation::new(
                        Rule::ForbiddenAttribute,
                        pos,
                        format!("deriving `{t}` is refused: derive only Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash or Default"),
                    ))
                }
                _ => {}
            }
        }
    }
}

fn idents_in<'a>(toks: &'a [Tok], out: &mut Vec<&'a str>) {
    for t in toks {
        match t {
            Tok::Ident { name, .. } => out.push(name),
            Tok::Group { inner, .. } => idents_in(inner, out),
            _ => {}
        }
    }
}

/// `rest` follows `std::` (or `core::`, `alloc::`): a module name, a glob, a
/// `{ use tree }` or a macro variable.
fn check_std_path(root: &str, rest: &[Tok], pos: Pos, out: &mut Vec<Violation>) {
    match rest.first() {
        Some(Tok::Ident { name, .. }) => check_std_module(root, name, rest, pos, out),
        Some(Tok::Group {
            delim: Delimiter::Brace,
            inner,
            ..
        }) => {
            for item in inner.split(|t| t.is_punct(",")) {
                check_std_tree_item(root, item, pos, out);
            }
        }
        Some(t) if t.is_punct("*") => out.push(Violation::new(
            Rule::ForbiddenPath,
            pos,
            format!("`{root}::*` imports every module of `{root}`, the refused ones too"),
        )),
        Some(t) if t.is_punct("$") => out.push(Violation::new(
            Rule::MacroVariablePath,
            pos,
            format!("`{root}::$...` continues a standard-library path with a macro variable"),
        )),
        _ => out.push(Violation::new(
            Rule::ForbiddenPath,
            pos,
            format!("`{root}::` is not followed by an allowed module"),
        )),
    }
}

/// One item of a `std::{...}` use tree.
fn check_std_tree_item(root: &str, item: &[Tok], pos: Pos, out: &mut Vec<Violation>) {
    match item.first() {
        None => {}
        Some(t) if t.keyword() == Some("self") => check_self_item(root, item, out),
        // `std::{{fs}}` is a valid use tree too.
        Some(Tok::Group {
            delim: Delimiter::Brace,
            ..
        }) => check_std_path(root, item, pos, out),
        Some(_) => check_std_path(root, item, item[0].pos(), out),
    }
}

/// A `self` item of a use tree rooted at `root`: `{self}` is harmless,
/// `{self as x}` renames the root.
fn check_self_item(root: &str, item: &[Tok], out: &mut Vec<Violation>) {
    if item.get(1).is_some_and(|t| t.keyword() == Some("as")) {
        out.push(Violation::new(
            Rule::RenamedRoot,
            item[0].pos(),
            format!("`{root}` is renamed (`self as ...`)"),
        ));
    }
}

fn check_std_module(root: &str, module: &str, rest: &[Tok], pos: Pos, out: &mut Vec<Violation>) {
    let then = |name: &str| {
        rest.get(1).is_some_and(|t| t.is_punct("::"))
            && rest.get(2).is_some_and(|t| names_ident(t, name))
    };
    if module == "any" && then("type_name") {
        out.push(Violation::new(
            Rule::TypeName,
            pos,
            format!("`{root}::any::type_name` is refused"),
        ));
    } else if !ALLOWED_STD_MODULES.contains(&module) {
        out.push(Violation::new(
            Rule::ForbiddenPath,
            pos,
            format!("`{root}::{module}` is not one of the allowed standard-library modules"),
        ));
    } else if module == "mem" && then("transmute") {
        out.push(Violation::new(
            Rule::ForbiddenPath,
            pos,
            format!("`{root}::mem::transmute` is refused"),
        ));
    }
}

/// Whether `tok` is the identifier `name` or a use-tree group naming it.
fn names_ident(tok: &Tok, name: &str) -> bool {
    match tok {
        Tok::Ident { name: n, .. } => n == name,
        Tok::Group { inner, .. } => {
            let mut found = Vec::new();
            idents_in(inner, &mut found);
            found.contains(&name)
        }
        _ => false,
    }
}

/// `rest` follows `framework::`: only `prelude` may come next.
fn check_framework_path(rest: &[Tok], pos: Pos, out: &mut Vec<Violation>) {
    let bad = |out: &mut Vec<Violation>, p: Pos| {
        out.push(Violation::new(
            Rule::FrameworkPath,
            p,
            "the framework is reachable only through `framework::prelude`",
        ))
    };
    match rest.first() {
        Some(t) if t.ident() == Some("prelude") => {}
        Some(Tok::Group {
            delim: Delimiter::Brace,
            inner,
            ..
        }) => {
            for item in inner.split(|t| t.is_punct(",")) {
                match item.first() {
                    None => {}
                    Some(t) if t.ident() == Some("prelude") => {}
                    Some(t) if t.keyword() == Some("self") => {
                        check_self_item("framework", item, out)
                    }
                    Some(Tok::Group {
                        delim: Delimiter::Brace,
                        ..
                    }) => check_framework_path(item, pos, out),
                    Some(t) => bad(out, t.pos()),
                }
            }
        }
        Some(t) if t.is_punct("$") => out.push(Violation::new(
            Rule::MacroVariablePath,
            pos,
            "`framework::$...` continues a framework path with a macro variable",
        )),
        _ => bad(out, pos),
    }
}

/// The file must define `MyBot` and `impl Bot for MyBot` at its top level,
/// where the kit looks for them.
pub(crate) fn check_bot_shape(file: &syn::File, out: &mut Vec<Violation>) {
    let mut my_bot = None;
    let mut has_impl = false;
    for item in &file.items {
        let ident = match item {
            syn::Item::Struct(s) => Some(&s.ident),
            syn::Item::Enum(e) => Some(&e.ident),
            syn::Item::Union(u) => Some(&u.ident),
            syn::Item::Type(t) => Some(&t.ident),
            syn::Item::Impl(imp) => {
                let is_bot = imp.trait_.as_ref().is_some_and(|(_, path, _)| {
                    path.segments.last().is_some_and(|s| s.ident == "Bot")
                });
                let is_my_bot = matches!(&*imp.self_ty, syn::Type::Path(p)
                    if p.qself.is_none() && p.path.segments.len() == 1 && p.path.segments[0].ident == "MyBot");
                has_impl |= is_bot && is_my_bot;
                None
            }
            _ => None,
        };
        if let Some(ident) = ident.filter(|i| *i == "MyBot") {
            my_bot.get_or_insert(ident.span().start());
        }
    }
    let start = Pos { line: 1, column: 1 };
    match my_bot {
        None => out.push(Violation::new(
            Rule::MissingMyBot,
            start,
            "the file defines no type named `MyBot`",
        )),
        Some(at) if !has_impl => out.push(Violation::new(
            Rule::MissingBotImpl,
            Pos {
                line: at.line,
                column: at.column + 1,
            },
            "`MyBot` does not implement `Bot` (no `impl Bot for MyBot`)",
        )),
        Some(_) => {}
    }
}
