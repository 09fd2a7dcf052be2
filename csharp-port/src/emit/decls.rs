//! The file's layout: header, constants, the file's own structs, the bot's struct, its
//! `Default`, `Bot` and method impls; and the state of the method being written (its
//! scopes of locals and local functions).

use std::collections::HashSet;

use super::names::{fresh, snake};
use super::program::{MethodInfo, Program};
use super::{Const, EmitOptions, Facts, R, unsupported};
use crate::ast::*;
use crate::error::Span;
use crate::types::Ty;

/// How a local is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LocalKind {
    /// A plain Rust local.
    Value,
    /// A `&mut T`: a `ref`/`out` parameter, or a local captured by a lifted local
    /// function (read and written through `*name`).
    Ref,
    /// The board `think` was handed (every `Board` is it).
    Board,
    /// The timer `think` was handed.
    Timer,
    /// A `ref` local to an array element: a `cs::ElemRef`.
    Elem,
    /// A `Func`/`Action` local: a Rust closure.
    Closure,
    /// A delegate parameter: a `&mut impl FnMut` taking the bot first
    /// (`emit::delegates`).
    Delegate,
}

/// A local variable or parameter in scope.
#[derive(Debug, Clone)]
pub(crate) struct Local {
    /// The C# name.
    pub cs: String,
    /// The Rust name.
    pub rust: String,
    /// Its C# type.
    pub ty: Ty,
    /// Its number in its function.
    pub id: u32,
    /// The key of the function that declared it.
    pub owner: String,
    /// The depth of that function (0: a method, 1: a local function in it...).
    pub frame: usize,
    /// How it is reached.
    pub kind: LocalKind,
}

/// A local function in scope.
#[derive(Debug, Clone)]
pub(crate) struct LocalFn {
    /// Its info (Rust name, parameters, return type, key).
    pub info: MethodInfo,
    /// Its declaration.
    pub decl: MethodDecl,
}

/// One block's names.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    pub locals: Vec<Local>,
    pub fns: Vec<LocalFn>,
}

/// How the innermost `try` body being written uses its closure's exits.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct TryExits {
    pub returns: bool,
    pub breaks: bool,
    pub continues: bool,
}

/// The function being written (a method, or a local function lifted to one).
#[derive(Debug)]
pub(crate) struct FnCtx {
    /// Its key (facts are recorded under it).
    pub key: String,
    /// The type whose method it is.
    pub class: usize,
    /// Its C# return type.
    pub ret: Ty,
    /// It returns by `ref`.
    pub ret_ref: bool,
    /// A method of the bot's struct (it can reach the board and the statics).
    pub bot_level: bool,
    /// Rust names taken in it.
    pub taken: HashSet<String>,
    /// The next local number.
    pub next_id: u32,
    /// Statements to put before the statement being written (out-variable
    /// declarations).
    pub pre: Vec<String>,
    /// Loops entered since the innermost `try` body started (a `break` at 0 leaves it).
    pub loops_in_try: Vec<u32>,
    /// The exits the innermost `try` bodies use.
    pub try_exits: Vec<TryExits>,
    /// The scope depth where this function's own scopes start.
    pub scope_base: usize,
    /// The loop depth, for labels.
    pub loop_depth: u32,
    /// Lambdas being written inside it (a `return` in one returns from the lambda).
    pub lambda_depth: u32,
    /// The names a lifted local function gives the locals it captures.
    pub capture_names: std::collections::HashMap<(String, u32), String>,
    /// Inside `checked` code: integer overflow throws (per function, so that nothing
    /// written meanwhile for another function inherits it).
    pub checked: bool,
}

/// Writes a whole file.
pub(crate) struct FileEmitter<'p, 'u> {
    pub p: &'p Program<'u>,
    pub src: &'p str,
    pub facts: Facts,
    pub learned: Facts,
    opts: &'p EmitOptions,
    pub warnings: Vec<String>,
    /// The bot struct's field for the board.
    pub board: String,
    /// The bot struct's field for the timer.
    pub timer: String,
    pub scopes: Vec<Scope>,
    pub fns: Vec<FnCtx>,
    /// Lifted local functions, by the type whose impl they join.
    pub lifted: Vec<(usize, String)>,
    /// `const` items (enums' members, constants).
    pub consts: Vec<String>,
    /// Each loop's labels by loop depth: the block `continue` leaves and the loop's own
    /// (empty: plain `continue` and `break`).
    pub continue_labels: Vec<(u32, String, String)>,
    /// The switch statements being written: their label and loop depth.
    pub switch_labels: Vec<(String, u32)>,
    /// A `break` left the innermost switch before its end.
    pub switch_break_used: bool,
    /// Names given to lifted local functions.
    pub lifted_names: Vec<String>,
    /// What the arguments of the collection method being written do (their flags).
    pub arg_acc: Option<super::Val>,
    /// The labels a `goto` can reach from here.
    pub goto_labels: Vec<GotoLabel>,
    /// The return types of the lambdas being written (`None` until a `return` tells).
    pub lambda_ret: Vec<Option<Ty>>,
    /// `foreach` variables (by function key and local number): C# reads them only, and
    /// calls a struct method on a copy of one.
    pub readonly_locals: HashSet<(String, u32)>,
    /// For each lambda being written: whether its return type is inferred from its
    /// `return`s, and the wider type a later `return` needs (C# infers the best common
    /// type of them all, ECMA-334 12.6.3.15).
    pub lambda_widen: Vec<(bool, Option<Ty>)>,
    /// The type parameters of the generic method being written.
    pub type_params: Vec<String>,
}

impl<'p, 'u> FileEmitter<'p, 'u> {
    pub(crate) fn new(
        p: &'p Program<'u>,
        src: &'p str,
        facts: Facts,
        opts: &'p EmitOptions,
    ) -> Self {
        let bot = &p.types[p.bot];
        let mut taken: HashSet<String> = bot.fields.iter().map(|f| f.rust.clone()).collect();
        for t in &p.types {
            for f in t.fields.iter().filter(|f| f.is_static) {
                taken.insert(f.rust.clone());
            }
        }
        let field_of = |api: &str| {
            p.types.iter().flat_map(|t| &t.fields).find(|f| {
                f.ty == Ty::Api(if api == "Board" { "Board" } else { "Timer" })
                    && (f.is_static || f.owner == p.bot)
            })
        };
        let board = match field_of("Board") {
            Some(f) => f.rust.clone(),
            None => fresh("board".into(), &mut taken),
        };
        let timer = match field_of("Timer") {
            Some(f) => f.rust.clone(),
            None => fresh("timer".into(), &mut taken),
        };
        FileEmitter {
            p,
            src,
            facts,
            learned: Facts::default(),
            opts,
            warnings: Vec::new(),
            board,
            timer,
            scopes: Vec::new(),
            fns: Vec::new(),
            lifted: Vec::new(),
            consts: Vec::new(),
            continue_labels: Vec::new(),
            switch_labels: Vec::new(),
            switch_break_used: false,
            lifted_names: Vec::new(),
            lambda_ret: Vec::new(),
            lambda_widen: Vec::new(),
            type_params: Vec::new(),
            goto_labels: Vec::new(),
            arg_acc: None,
            readonly_locals: HashSet::new(),
        }
    }

    pub(crate) fn learned(self) -> Facts {
        self.learned
    }

    pub(crate) fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// The current function.
    pub(crate) fn f(&mut self) -> &mut FnCtx {
        self.fns.last_mut().expect("inside a function")
    }

    /// The current function, read-only.
    pub(crate) fn fr(&self) -> &FnCtx {
        self.fns.last().expect("inside a function")
    }

    /// The whole file.
    pub(crate) fn file(&mut self) -> R<String> {
        let mut out = String::new();
        out.push_str(&self.header());
        out.push_str("use framework::prelude::*;\n\n");
        let mut body = String::new();
        for t in 0..self.p.types.len() {
            if t == self.p.bot {
                continue;
            }
            body.push_str(&self.own_type(t)?);
        }
        body.push_str(&self.bot_struct()?);
        for c in std::mem::take(&mut self.consts) {
            out.push_str(&c);
        }
        if !out.ends_with("\n\n") {
            out.push('\n');
        }
        out.push_str(&body);
        Ok(out)
    }

    fn header(&self) -> String {
        let mut h = String::new();
        for c in &self.p.unit.leading_comments {
            h.push_str(&comment(c));
            h.push('\n');
        }
        h.push_str(&format!(
            "// Ported from {} by challenge port {} (the C# Tiny Chess Bot Challenge API to the kit's).\n",
            self.opts.source_name,
            env!("CARGO_PKG_VERSION")
        ));
        h.push_str("// Integer arithmetic wraps as C#'s unchecked default does: the kit builds bots in release\n");
        h.push_str("// mode without overflow checks, where Rust's `+`, `-`, `*` wrap too.\n");
        h.push_str("#![allow(clippy::all, unused_parens, unused_variables, unused_mut, non_snake_case, dead_code, unused_assignments, unreachable_code, arithmetic_overflow, unconditional_panic, unused_must_use)]\n\n");
        h
    }

    /// Starts writing a function.
    pub(crate) fn enter_fn(
        &mut self,
        key: String,
        class: usize,
        ret: Ty,
        ret_ref: bool,
        bot_level: bool,
    ) {
        let base = self.scopes.len();
        let mut taken = HashSet::new();
        if bot_level {
            self.learned.bot_level.insert(key.clone());
        } else {
            // The name of the bot parameter a method of another type may take.
            taken.insert("bot".to_string());
        }
        self.fns.push(FnCtx {
            key,
            class,
            ret,
            ret_ref,
            bot_level,
            taken,
            next_id: 0,
            pre: Vec::new(),
            loops_in_try: Vec::new(),
            try_exits: Vec::new(),
            scope_base: base,
            loop_depth: 0,
            lambda_depth: 0,
            capture_names: Default::default(),
            checked: false,
        });
        self.scopes.push(Scope::default());
    }

    /// Ends writing a function.
    pub(crate) fn leave_fn(&mut self) {
        let f = self.fns.pop().expect("a function");
        self.scopes.truncate(f.scope_base);
    }

    /// Declares a local in the innermost scope; gives it its Rust name.
    pub(crate) fn declare(&mut self, cs: &str, ty: Ty, kind: LocalKind) -> Local {
        let frame = self.fns.len() - 1;
        let f = self.f();
        let id = f.next_id;
        f.next_id += 1;
        let rust = fresh(snake(cs), &mut f.taken);
        let local = Local {
            cs: cs.to_string(),
            rust,
            ty,
            id,
            owner: f.key.clone(),
            frame,
            kind,
        };
        self.scopes
            .last_mut()
            .expect("a scope")
            .locals
            .push(local.clone());
        local
    }

    /// A fresh Rust name for a temporary.
    pub(crate) fn temp(&mut self, base: &str) -> String {
        fresh(base.to_string(), &mut self.f().taken)
    }

    /// The innermost local called `name`, searching outward (into enclosing functions:
    /// a local function's captures).
    pub(crate) fn find_local(&self, name: &str) -> Option<Local> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.locals.iter().rev())
            .find(|l| l.cs == name)
            .cloned()
    }

    /// The Rust name of local `l` in the current function: a captured local's
    /// parameter name in a lifted local function.
    pub(crate) fn local_name(&self, l: &Local) -> String {
        self.fr()
            .capture_names
            .get(&(l.owner.clone(), l.id))
            .cloned()
            .unwrap_or_else(|| l.rust.clone())
    }

    /// The innermost local function called `name`.
    pub(crate) fn find_local_fn(&self, name: &str) -> Option<LocalFn> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.fns.iter())
            .find(|f| f.info.cs == name)
            .cloned()
    }

    /// Whether the local `(owner, id)` is assigned after its declaration (first pass:
    /// records nothing and answers yes; second: the first pass's answer).
    pub(crate) fn is_reassigned(&self, owner: &str, id: u32) -> bool {
        self.facts.reassigned.contains(&(owner.to_string(), id))
    }

    /// Records that a local is assigned.
    pub(crate) fn note_assigned(&mut self, local: &Local) {
        self.learned
            .reassigned
            .insert((local.owner.clone(), local.id));
    }

    /// Records a call from the current function to `callee`.
    pub(crate) fn note_call(&mut self, callee: &str) {
        let key = self.fr().key.clone();
        self.learned
            .calls
            .entry(key)
            .or_default()
            .insert(callee.to_string());
    }

    /// Records that the current function changes the bot.
    pub(crate) fn note_mutation(&mut self) {
        let key = self.fr().key.clone();
        self.learned.mutating.insert(key);
    }

    /// How the current function names the bot: `self` in the bot's own, else its `bot`
    /// parameter (which the function now needs).
    pub(crate) fn bot_self(&mut self) -> &'static str {
        if self.fr().bot_level {
            return "self";
        }
        let key = self.fr().key.clone();
        self.learned.needs_bot.insert(key);
        "bot"
    }

    /// Whether the function `key` of a type other than the bot takes the bot (from the
    /// first pass).
    pub(crate) fn takes_bot(&self, key: &str) -> bool {
        self.facts.needs_bot.contains(key)
    }

    /// Whether the method `key` takes `&mut self` (from the first pass).
    pub(crate) fn mutates(&self, key: &str) -> bool {
        self.facts.mutating.contains(key)
    }

    /// A warning for the port's report.
    pub(crate) fn warn(&mut self, span: Span, text: impl Into<String>) {
        let w = format!("line {}: {}", span.line, text.into());
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }

    /// Indents every line of `text` by one level.
    pub(crate) fn indent(text: &str) -> String {
        let mut out = String::new();
        for line in text.lines() {
            if line.is_empty() {
                out.push('\n');
            } else {
                out.push_str("    ");
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    /// Comments as Rust line comments (`/* */` kept as block comments).
    pub(crate) fn comments(cs: &[String]) -> String {
        let mut out = String::new();
        for c in cs {
            out.push_str(&comment(c));
            out.push('\n');
        }
        out
    }

    /// A C# type's Rust spelling.
    pub(crate) fn rty(&self, t: &Ty, span: Span) -> R<String> {
        self.p.rust_ty(t, span)
    }

    /// C#'s default value of `t`, spelled out.
    pub(crate) fn default_value(&self, t: &Ty, span: Span) -> R<String> {
        Ok(match t {
            Ty::Bool => "false".into(),
            Ty::Int(_) | Ty::Char | Ty::Enum(_) | Ty::Api("PieceType") => "0".into(),
            Ty::F32 | Ty::F64 => "0.0".into(),
            Ty::Decimal => "cs::Decimal::ZERO".into(),
            Ty::Api("Move") => "Move::NULL".into(),
            Ty::Api("Square") => "Square::A1".into(),
            Ty::Api("Piece") => "cs::Piece::default()".into(),
            Ty::Str => "String::new()".into(),
            Ty::Nullable(inner) if **inner == Ty::Api("Timer") => "false".into(),
            Ty::Nullable(_) => "None".into(),
            Ty::Tuple(items, _) => {
                let items = items
                    .iter()
                    .map(|i| self.default_value(i, span))
                    .collect::<R<Vec<_>>>()?;
                if items.len() == 1 {
                    format!("({},)", items[0])
                } else {
                    format!("({})", items.join(", "))
                }
            }
            Ty::Struct(name) => format!("{}::default()", self.p.rust_type_name(name)),
            Ty::Api("Board") => "Board::default()".into(),
            Ty::Api("Timer") => "Timer::default()".into(),
            Ty::Array(..) | Ty::List(_) | Ty::Dict(..) | Ty::Set(_) | Ty::Seq(_) => {
                "Default::default()".into()
            }
            Ty::Class(name) if self.p.is_ref_class(name) => "cs::Obj::null()".into(),
            Ty::TupleClass(_) => "cs::Tuple::null()".into(),
            Ty::Class(_) | Ty::Object | Ty::Null => {
                return Err(unsupported(
                    span,
                    "a class instance of the file's own",
                    &t.cs(),
                ));
            }
            _ => "Default::default()".into(),
        })
    }

    /// The constant value of a `const` field, if it folds.
    pub(crate) fn field_const(&mut self, t: usize, name: &str) -> Option<Const> {
        let f = self.p.field(t, name)?.clone();
        if !f.is_const {
            return None;
        }
        let (_, init) = self.p.field_decl(&f);
        let init = init?;
        self.fold_const(init, &f.ty)
    }
}

/// A C# comment as a Rust one.
pub(crate) fn comment(c: &str) -> String {
    let c = c.trim_end();
    // Rust reads `///`, `//!`, `/**` and `/*!` as documentation: C#'s are not.
    if let Some(rest) = c.strip_prefix("///") {
        format!("// {}", rest.trim_start_matches('/').trim_start())
    } else if let Some(rest) = c.strip_prefix("//!") {
        format!("// !{rest}")
    } else if let Some(rest) = c
        .strip_prefix("/**")
        .filter(|r| !r.starts_with('*') && !r.starts_with('/'))
    {
        format!("/* *{rest}")
    } else if let Some(rest) = c.strip_prefix("/*!") {
        format!("/* !{rest}")
    } else if let Some(body) = c.strip_prefix("/*").and_then(|r| r.strip_suffix("*/")) {
        // Rust nests block comments, C# does not: a `/*` inside (`/*/ ... //*/`, a toggle
        // for a block of code) would open another that nothing closes.
        let mut body = body.replace("/*", "/ *");
        if body.ends_with('/') {
            body.push(' ');
        }
        format!("/*{body}*/")
    } else {
        c.to_string()
    }
}

/// How a `goto` to a label is written.
#[derive(Debug, Clone)]
pub(crate) struct GotoLabel {
    /// The C# label.
    pub cs: String,
    /// `break 'label` (forward) or `continue 'label` (backward).
    pub code: String,
    /// The `try` and lambda depth of the label: a `goto` from deeper cannot reach it.
    pub depth: (usize, u32),
}
