//! Rule 2 of docs/rules.md, section 4: the Rust spelling of what C# leaves
//! unwritten is free.
//!
//! The C# challenge counts tokens as Roslyn lexes them, less its access
//! modifiers, `readonly`, `;`, `,` and closing brackets. Rust makes a bot write
//! things C# never writes: a mark on every mutable binding, `self.` before
//! every member, punctuation between a name and its type, a derive for the
//! constructor every C# class has, and the prelude import of its frame. Each
//! of those is syntax whose presence the grammar decides, so none can carry
//! data; the one place a program could read them back is a matcher of a macro
//! the file defines, and there they cost (rule 7).
//!
//! The empty `()` of a C# property read is free too ([`property_reads`]): C# reads
//! `board.ZobristKey` with no brackets where the kit calls `board.key()`.

use std::collections::HashSet;

use proc_macro2::Delimiter;
use syn::visit::Visit;

use crate::tokens::{Pos, Tok};

/// The length of a run of free tokens starting at `toks[i]`, or 0:
/// - `mut`: C# marks no binding or borrow as mutable (its `readonly` is free);
/// - the receiver: `self` with the `.` after it, and the `&` of `&self` and
///   `&mut self`: C# names its members bare and never writes its `this`;
/// - `:` and `->`: C# writes a declaration's type before its name, with no
///   punctuation between;
/// - `use framework::prelude::*;`, the frame's import;
/// - `#[derive(Default)]`: C# gives every class a constructor that zeroes
///   its fields, unwritten ([`derive_list`] frees `Default` in longer lists).
pub(crate) fn free_len(toks: &[Tok], i: usize) -> usize {
    let is_kw = |at: usize, kw: &str| toks.get(at).and_then(Tok::keyword) == Some(kw);
    match &toks[i] {
        _ if is_kw(i, "mut") => 1,
        _ if is_kw(i, "self") => 1 + usize::from(toks.get(i + 1).is_some_and(|t| t.is_punct("."))),
        _ if is_kw(i, "use") => prelude_import_len(&toks[i..]),
        Tok::Punct { op, .. } => match op.as_str() {
            ":" | "->" => 1,
            "&" => usize::from(is_kw(i + 1 + usize::from(is_kw(i + 1, "mut")), "self")),
            "#" => match derive_list(toks, i) {
                Some(list) if is_only_default(list) => 2,
                _ => 0,
            },
            _ => 0,
        },
        _ => 0,
    }
}

/// `use framework::prelude::*;` at `toks[0]`: its length, or 0.
fn prelude_import_len(toks: &[Tok]) -> usize {
    let want: [&dyn Fn(&Tok) -> bool; 7] = [
        &|t| t.keyword() == Some("use"),
        &|t| matches!(t, Tok::Ident { name, raw: false, .. } if name == "framework"),
        &|t| t.is_punct("::"),
        &|t| matches!(t, Tok::Ident { name, raw: false, .. } if name == "prelude"),
        &|t| t.is_punct("::"),
        &|t| t.is_punct("*"),
        &|t| t.is_punct(";"),
    ];
    let matched = toks.len() >= want.len() && want.iter().zip(toks).all(|(is, t)| is(t));
    if matched { want.len() } else { 0 }
}

/// The list of a `#[derive(...)]` attribute starting at `toks[i]` (the `#`).
pub(crate) fn derive_list(toks: &[Tok], i: usize) -> Option<&[Tok]> {
    if !toks[i].is_punct("#") {
        return None;
    }
    match toks.get(i + 1)?.group(Delimiter::Bracket)? {
        [
            Tok::Ident {
                name, raw: false, ..
            },
            list,
        ] if name == "derive" => list.group(Delimiter::Parenthesis),
        _ => None,
    }
}

/// A derive list's `Default`: the plain name, as the trait is derived.
pub(crate) fn is_default(tok: &Tok) -> bool {
    matches!(tok, Tok::Ident { name, raw: false, .. } if name == "Default")
}

fn is_only_default(list: &[Tok]) -> bool {
    let mut names = list.iter().filter(|t| !t.is_punct(","));
    names.next().is_some_and(is_default) && names.next().is_none()
}

/// Where the closing `|` of each closure's parameter list starts: the pair
/// `|...|` is a delimiter pair, paid for by its opening `|` as a bracket pair
/// is by its opener. Only a `|` lexed alone is freed at these places: in `||`
/// (an empty list, or `|x||y| 0`) one token is the closer and the next
/// opener, and it costs 1. Closures inside macro arguments are not parsed, so
/// theirs are not here.
pub(crate) fn closure_closers(file: &syn::File) -> HashSet<Pos> {
    struct Closers(HashSet<Pos>);
    impl<'ast> Visit<'ast> for Closers {
        fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
            self.0.insert(Pos::of(closure.or2_token.span));
            syn::visit::visit_expr_closure(self, closure);
        }
    }
    let mut closers = Closers(HashSet::new());
    closers.visit_file(file);
    closers.0
}

/// The kit's spellings of what C# reads as a property (`board.ZobristKey`, `move.IsCapture`,
/// `square.File`, `timer.MillisecondsRemaining`, an array's `Length`): called with an empty
/// `()`, which C# does not write, the `()` is free (docs/rules.md, section 4, rule 1). A
/// zero-argument *method* of C#'s (`GetLegalMoves()`, `IsInCheck()`) is not here: C# pays
/// its `(`, and so does the kit's.
pub const PROPERTY_READS: &[&str] = &[
    // Board
    "key",
    "ply_count",
    "fifty_move_counter",
    "is_white_to_move",
    "side_to_move",
    "occupied",
    "white",
    "black",
    "history_keys",
    "history_moves",
    "start_fen",
    // Move
    "from",
    "to",
    "piece",
    "captured",
    "promotion",
    "is_capture",
    "is_en_passant",
    "is_promotion",
    "is_castle",
    "is_null",
    "raw",
    // Piece and PieceList
    "piece_type",
    "is_white",
    "color",
    "is_pawn",
    "is_knight",
    "is_bishop",
    "is_rook",
    "is_queen",
    "is_king",
    // Square
    "file",
    "rank",
    "index",
    // Timer
    "ms_remaining",
    "ms_elapsed_this_turn",
    "opponent_ms_remaining",
    "game_start_ms",
    "increment_ms",
    // C#'s Length and Count of arrays, lists and piece lists
    "len",
];

/// Where the free `()` of each property read starts: a method call `.name()` with no
/// arguments and no turbofish, `name` one of [`PROPERTY_READS`], in a file that declares
/// no field of that name. Without a field of its name `x.name` does not compile, so the
/// `()` is forced and carries nothing; with one, `x.name` and `x.name()` would be two
/// programs, so there the `()` costs. Calls inside macro arguments are not parsed, so
/// theirs are not here (they pay, as a closure's closer does there).
pub(crate) fn property_reads(file: &syn::File) -> HashSet<Pos> {
    #[derive(Default)]
    struct Fields(HashSet<String>);
    impl<'ast> Visit<'ast> for Fields {
        fn visit_field(&mut self, field: &'ast syn::Field) {
            if let Some(name) = &field.ident {
                self.0.insert(name.to_string());
            }
            syn::visit::visit_field(self, field);
        }
    }
    struct Reads<'a> {
        fields: &'a HashSet<String>,
        found: HashSet<Pos>,
    }
    impl<'ast> Visit<'ast> for Reads<'_> {
        fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
            let name = call.method.to_string();
            if call.args.is_empty()
                && call.turbofish.is_none()
                && PROPERTY_READS.contains(&name.as_str())
                && !self.fields.contains(&name)
            {
                self.found.insert(Pos::of(call.paren_token.span.open()));
            }
            syn::visit::visit_expr_method_call(self, call);
        }
    }
    let mut fields = Fields::default();
    fields.visit_file(file);
    let mut reads = Reads {
        fields: &fields.0,
        found: HashSet::new(),
    };
    reads.visit_file(file);
    reads.found
}

/// Where the free `{` of each `if` that stands for C#'s `?:` starts: an `if` with an `else`
/// in a value's place (anywhere but a statement of a block; the last expression of a
/// function that returns a value counts as a value), every branch a block of one
/// expression and nothing else, `else if` chains included. `if c { a } else { b }` then
/// costs `if` and `else`, as `c ? a : b` costs `?` and `:`. An `if` statement keeps its
/// braces: C#'s pays `if (` for it. The braces are the grammar's (an `if` branch is a
/// block), so they carry nothing; in macro arguments, which are not parsed, they pay.
pub(crate) fn ternary_braces(file: &syn::File) -> HashSet<Pos> {
    let mut ternaries = Ternaries::default();
    ternaries.visit_file(file);
    ternaries.0
}

#[derive(Default)]
struct Ternaries(HashSet<Pos>);

impl Ternaries {
    /// Marks the braces of `chain` if it is a `?:`, then visits its parts.
    fn value_if(&mut self, chain: &syn::ExprIf) {
        if is_ternary(chain) {
            mark_chain(chain, &mut self.0);
        }
        self.chain_parts(chain);
    }

    /// Visits the condition and branches of an `if` chain; the chain's own `else if`
    /// links are not values of their own.
    fn chain_parts(&mut self, chain: &syn::ExprIf) {
        self.visit_expr(&chain.cond);
        self.visit_block(&chain.then_branch);
        match chain.else_branch.as_ref().map(|(_, e)| &**e) {
            Some(syn::Expr::If(next)) => self.chain_parts(next),
            Some(other) => self.visit_expr(other),
            None => {}
        }
    }

    /// A function's body: its last expression is the value returned when it has a type.
    fn body(&mut self, output: &syn::ReturnType, body: &syn::Block) {
        let returns = matches!(output, syn::ReturnType::Type(..));
        if let (true, Some(syn::Stmt::Expr(syn::Expr::If(tail), None))) =
            (returns, body.stmts.last())
            && is_ternary(tail)
        {
            mark_chain(tail, &mut self.0);
        }
        self.visit_block(body);
    }
}

impl<'ast> Visit<'ast> for Ternaries {
    fn visit_block(&mut self, block: &'ast syn::Block) {
        for stmt in &block.stmts {
            match stmt {
                syn::Stmt::Expr(syn::Expr::If(statement), _) => self.chain_parts(statement),
                other => self.visit_stmt(other),
            }
        }
    }

    fn visit_expr_if(&mut self, chain: &'ast syn::ExprIf) {
        self.value_if(chain);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.body(&f.sig.output, &f.block);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.body(&f.sig.output, &f.block);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.body(&f.sig.output, block);
        }
    }
}

/// A block of one expression and nothing else (no statement, no `;`).
fn is_single_expression(block: &syn::Block) -> bool {
    matches!(block.stmts.as_slice(), [syn::Stmt::Expr(_, None)])
}

/// An `if` chain with an `else` at its end, every branch a single expression.
fn is_ternary(chain: &syn::ExprIf) -> bool {
    is_single_expression(&chain.then_branch)
        && match chain.else_branch.as_ref().map(|(_, e)| &**e) {
            Some(syn::Expr::If(next)) => is_ternary(next),
            Some(syn::Expr::Block(last)) => is_single_expression(&last.block),
            _ => false,
        }
}

/// The opening braces of every branch of `chain`.
fn mark_chain(chain: &syn::ExprIf, found: &mut HashSet<Pos>) {
    found.insert(Pos::of(chain.then_branch.brace_token.span.open()));
    match chain.else_branch.as_ref().map(|(_, e)| &**e) {
        Some(syn::Expr::If(next)) => mark_chain(next, found),
        Some(syn::Expr::Block(last)) => {
            found.insert(Pos::of(last.block.brace_token.span.open()));
        }
        _ => {}
    }
}
