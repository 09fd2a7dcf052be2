//! Rust from the checked C#: the bot's struct and methods, in the author's order and
//! names, with C#'s meaning kept by explicit casts, masks and the framework's `cs::`
//! runtime where Rust's own would differ.
//!
//! Emission runs twice over the same file. The first pass learns what only the whole
//! file tells: which methods change the bot (and so take `&mut self`), which locals are
//! assigned after their declaration (`let mut`), which locals each local function
//! captures. The second pass writes the Rust with those facts.

mod api;
mod bigint;
mod boards;
mod call;
mod colls;
mod decimal;
mod decls;
mod delegates;
mod expr;
mod format;
mod gotos;
mod items;
mod linq;
mod names;
mod newx;
mod place;
mod program;
mod stmt;
mod tail;
mod time;
mod tuples;
mod ty;

use std::collections::{BTreeMap, BTreeSet};

pub(crate) use program::Program;

use crate::ast::{Expr, Unit};
use crate::error::{PortError, Span};
use crate::types::Ty;

pub(crate) type R<T> = Result<T, PortError>;

/// A constant value, as C# computes constants.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Const {
    /// An integer (its C# type is the expression's).
    Int(i128),
    /// A `float` or `double`.
    Float(f64),
    /// A `bool`.
    Bool(bool),
    /// A `string`.
    Str(String),
    /// A `decimal` literal's digits and scale (`123.45m` is 12345 and 2).
    Decimal(u128, u32, bool),
}

/// Rust operator precedence, loosest first, for parenthesising.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Prec {
    /// `x = y`, a block, a closure.
    Assign,
    /// `..`.
    Range,
    /// `||`.
    Or,
    /// `&&`.
    And,
    /// `==`, `<`.
    Cmp,
    /// `|`.
    BitOr,
    /// `^`.
    BitXor,
    /// `&`.
    BitAnd,
    /// `<<`, `>>`.
    Shift,
    /// `+`, `-`.
    Add,
    /// `*`, `/`, `%`.
    Mul,
    /// `as`.
    Cast,
    /// `-x`, `!x`, `*x`.
    Unary,
    /// Literals, names, calls, fields, method calls, parenthesised expressions.
    Primary,
}

/// An emitted expression: its Rust code, its C# type and what the code does.
#[derive(Debug, Clone)]
pub(crate) struct Val {
    /// The Rust code.
    pub code: String,
    /// The C# type.
    pub ty: Ty,
    /// The code's precedence.
    pub prec: Prec,
    /// Its C# constant value, if a constant.
    pub konst: Option<Const>,
    /// It may change state (assigns, increments, calls something that may).
    pub effects: bool,
    /// It needs `&mut self` (changes a field or the board, or calls what does).
    pub mut_self: bool,
    /// It reads `self` (so it borrows it while it runs).
    pub reads_self: bool,
    /// It names a place (a variable, a field): a non-`Copy` value read from it is
    /// cloned where C# copies the reference.
    pub place: bool,
    /// An integer or real literal without a Rust suffix (its Rust type comes from
    /// where it stands).
    pub bare_literal: bool,
}

impl Val {
    pub(crate) fn new(code: impl Into<String>, ty: Ty, prec: Prec) -> Val {
        Val {
            code: code.into(),
            ty,
            prec,
            konst: None,
            effects: false,
            mut_self: false,
            reads_self: false,
            place: false,
            bare_literal: false,
        }
    }

    /// The code, parenthesised if it binds looser than `min`.
    pub(crate) fn at(&self, min: Prec) -> String {
        // A block (`{ let t = ...; t }`) as an operand: at the start of a statement Rust
        // would read it as a statement, so it is parenthesised.
        if self.prec < min || self.code.starts_with('{') && min > Prec::Assign {
            format!("({})", self.code)
        } else {
            self.code.clone()
        }
    }

    /// Merges what `other`'s code does into this one's.
    pub(crate) fn absorb(mut self, other: &Val) -> Val {
        self.effects |= other.effects;
        self.mut_self |= other.mut_self;
        self.reads_self |= other.reads_self;
        self
    }
}

/// What the first pass learns.
#[derive(Debug, Default, Clone)]
pub(crate) struct Facts {
    /// Methods (by key) that change the bot directly.
    pub mutating: BTreeSet<String>,
    /// Calls between methods (caller key -> callee keys).
    pub calls: BTreeMap<String, BTreeSet<String>>,
    /// Locals (by method key and local number) assigned after their declaration.
    pub reassigned: BTreeSet<(String, u32)>,
    /// Local functions' captured locals: function key -> (owner key, local number).
    pub captures: BTreeMap<String, BTreeSet<(String, u32)>>,
    /// Which local functions are nested in which method or local function.
    pub parent: BTreeMap<String, String>,
    /// Functions of the bot's struct (their `self` is the bot).
    pub bot_level: BTreeSet<String>,
    /// Functions of other types that reach the bot (its board, timer, statics or
    /// methods) and so take it as a last parameter `bot: &mut MyBot`.
    pub needs_bot: BTreeSet<String>,
    /// Classes (C# names) whose methods pass or store `this` (their instances keep a
    /// `cs::This`).
    pub this_value: BTreeSet<String>,
}

impl Facts {
    /// The methods that need `&mut self`: those that change the bot and those that call
    /// one (to a fixed point).
    pub(crate) fn closed(mut self) -> Facts {
        for local_fn in self.parent.keys() {
            self.captures.entry(local_fn.clone()).or_default();
        }
        loop {
            let mut changed = self.close_needs_bot();
            for (caller, callees) in &self.calls {
                // A bot's method changing the bot does not change the struct whose method
                // calls it (that one reaches the bot through its `bot` parameter).
                let caller_is_bot = self.bot_level.contains(caller);
                // A constructor changes the new value, not the caller's.
                let changes_caller = callees.iter().any(|c| {
                    self.mutating.contains(c)
                        && (caller_is_bot || !self.bot_level.contains(c))
                        && !c.contains("..ctor#")
                });
                if !self.mutating.contains(caller) && changes_caller {
                    self.mutating.insert(caller.clone());
                    changed = true;
                }
            }
            // A local function's captures include its callees' captures that it does not
            // own itself (they come through it from further out).
            let snapshot = self.captures.clone();
            for (caller, callees) in &self.calls {
                if !self.captures.contains_key(caller) {
                    continue;
                }
                for callee in callees {
                    let Some(theirs) = snapshot.get(callee) else {
                        continue;
                    };
                    for cap in theirs {
                        let owned = cap.0 == *caller;
                        if !owned
                            && self
                                .captures
                                .get_mut(caller)
                                .is_some_and(|c| c.insert(cap.clone()))
                        {
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return self;
            }
        }
    }

    /// Spreads `needs_bot` from callees to the callers that are not the bot's (they pass
    /// their `bot` on); a bot's function passing `self` needs it `&mut`.
    fn close_needs_bot(&mut self) -> bool {
        let mut changed = false;
        for (caller, callees) in &self.calls {
            if !callees.iter().any(|c| self.needs_bot.contains(c)) {
                continue;
            }
            let set = if self.bot_level.contains(caller) {
                &mut self.mutating
            } else {
                &mut self.needs_bot
            };
            changed |= set.insert(caller.clone());
        }
        changed
    }
}

/// Translation options the emitter reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct EmitOptions {
    /// The file name for the header comment.
    pub source_name: String,
}

/// Emits the Rust file for `unit`.
pub(crate) fn emit(unit: &Unit, src: &str, options: &EmitOptions) -> R<(String, Vec<String>)> {
    let program = Program::build(unit, src)?;
    let mut first = decls::FileEmitter::new(&program, src, Facts::default(), options);
    first.file()?;
    let facts = first.learned().closed();
    let mut second = decls::FileEmitter::new(&program, src, facts, options);
    let text = second.file()?;
    Ok((text, second.warnings()))
}

/// The source text of `e`, for messages.
pub(crate) fn snippet<'a>(src: &'a str, e: &Expr) -> &'a str {
    src.get(e.range.0..e.range.1).unwrap_or("")
}

/// An error for an unsupported construct at `span`.
pub(crate) fn unsupported(span: Span, construct: impl Into<String>, text: &str) -> PortError {
    PortError::unsupported(span, construct, text)
}
