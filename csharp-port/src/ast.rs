//! The C# the translator reads, as a tree of its own: the subset bots use, each node with
//! its place in the source. The checker (`check`) fills in every expression's type and
//! resolves its names; the emitter (`emit`) writes Rust from the result.

use crate::error::Span;
use crate::types::Ty;

/// A type as written in the source.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeRef {
    /// `var`.
    Var,
    /// A name with type arguments: `int`, `Move`, `List<int>`, `System.Int32`.
    Named(String, Vec<TypeRef>),
    /// `T[]`, `T[,]`: element type and rank.
    Array(Box<TypeRef>, u8),
    /// `(int, Move)` and `(int score, Move move)`.
    Tuple(Vec<(TypeRef, Option<String>)>),
    /// `T?`.
    Nullable(Box<TypeRef>),
    /// `ref T` (a ref local's or ref return's type).
    Ref(Box<TypeRef>),
}

/// A file: its types and the `using` lines that matter.
#[derive(Debug, Default)]
pub struct Unit {
    /// Classes, structs, records and enums, nested ones included (with their outer names
    /// dropped: C# bots do not reuse a name at two levels).
    pub types: Vec<TypeDecl>,
    /// `using static X;` targets.
    pub using_static: Vec<String>,
    /// Comments before the first type.
    pub leading_comments: Vec<String>,
    /// It creates an anonymous type (`new { Score = s }`), which the port writes as a
    /// named tuple: C#'s `==` on one compares references, a tuple's `==` values.
    pub has_anonymous: bool,
}

/// The kind of a type declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    /// `class`.
    Class,
    /// `struct` (and `record struct`).
    Struct,
    /// `record` (a class).
    Record,
    /// `enum`.
    Enum,
}

/// A class, struct, record or enum.
#[derive(Debug)]
pub struct TypeDecl {
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: TypeKind,
    /// Base types and interfaces (`IChessBot`).
    pub bases: Vec<TypeRef>,
    /// `static class`.
    pub is_static: bool,
    /// Its members, in source order.
    pub members: Vec<Member>,
    /// A record's or class's primary constructor parameters.
    pub primary: Vec<Param>,
    /// An enum's members and their explicit values.
    pub enum_members: Vec<(String, Option<Expr>)>,
    /// Where it starts.
    pub span: Span,
    /// Comments before it.
    pub comments: Vec<String>,
}

/// A member of a type.
#[derive(Debug, Clone)]
pub enum Member {
    /// A field (or several declared together), or a `const`.
    Field(FieldDecl),
    /// A method, a constructor (`name` is `.ctor`) or a property with a getter.
    Method(MethodDecl),
    /// A comment between members.
    Comment(String),
}

/// `int a = 1, b;` at class level.
#[derive(Debug, Clone)]
pub struct FieldDecl {
    /// The declared type.
    pub ty: TypeRef,
    /// Names and initialisers.
    pub vars: Vec<(String, Option<Expr>, Span)>,
    /// `static`.
    pub is_static: bool,
    /// `const`.
    pub is_const: bool,
    /// Where it starts.
    pub span: Span,
    /// A property with `{ get; set; }` (an auto property: a field).
    pub is_auto_property: bool,
}

/// How a parameter is passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassMode {
    /// By value.
    Value,
    /// `ref`.
    Ref,
    /// `out`.
    Out,
    /// `in`.
    In,
    /// `params T[]`.
    Params,
}

/// A parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: TypeRef,
    /// How it is passed.
    pub mode: PassMode,
    /// A default value.
    pub default: Option<Expr>,
    /// Where.
    pub span: Span,
}

/// A method, local function, constructor or property getter.
#[derive(Debug, Clone)]
pub struct MethodDecl {
    /// Its name (`.ctor` for a constructor).
    pub name: String,
    /// Its return type (`void` for none).
    pub ret: TypeRef,
    /// Returns by `ref`.
    pub ret_ref: bool,
    /// Its parameters.
    pub params: Vec<Param>,
    /// Generic parameters (`T` of `void Sort<T>(...)`).
    pub type_params: Vec<String>,
    /// Its body.
    pub body: Body,
    /// `static`.
    pub is_static: bool,
    /// A property getter (read without parentheses).
    pub is_property: bool,
    /// An extension method (`static T F(this R r, ...)`): `r.F(...)` calls it.
    pub is_extension: bool,
    /// How it takes part in inheritance between the file's own classes.
    pub dispatch: Dispatch,
    /// Where it starts.
    pub span: Span,
    /// Comments before it.
    pub comments: Vec<String>,
}

/// A method's inheritance modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dispatch {
    /// None.
    Plain,
    /// `virtual` or `abstract`: a derived class may override it.
    Virtual,
    /// `override`.
    Override,
    /// `new`: hides a base class's member.
    Hides,
}

impl Dispatch {
    /// The modifier among `mods`.
    pub fn of(mods: &[&str]) -> Dispatch {
        if mods.contains(&"override") {
            Dispatch::Override
        } else if mods.contains(&"virtual") || mods.contains(&"abstract") {
            Dispatch::Virtual
        } else if mods.contains(&"new") {
            Dispatch::Hides
        } else {
            Dispatch::Plain
        }
    }
}

/// A body: a block or `=> expression`.
#[derive(Debug, Clone)]
pub enum Body {
    /// `{ ... }`.
    Block(Vec<Stmt>),
    /// `=> e`.
    Expr(Box<Expr>),
    /// `;` (abstract or extern).
    None,
}

/// A statement with its place.
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it starts.
    pub span: Span,
}

/// One `catch` clause.
#[derive(Debug, Clone)]
pub struct Catch {
    /// The caught type, if named (`catch (Exception e)`).
    pub ty: Option<TypeRef>,
    /// The variable, if named.
    pub name: Option<String>,
    /// Its body.
    pub body: Vec<Stmt>,
    /// Has a `when` filter.
    pub filtered: bool,
}

/// One `case ...:` group of a switch statement.
#[derive(Debug, Clone)]
pub struct SwitchSection {
    /// Its labels; `None` for `default`.
    pub labels: Vec<Option<(Pattern, Option<Expr>)>>,
    /// Its statements.
    pub body: Vec<Stmt>,
}

/// A statement.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// A local variable declaration (`int a = 1, b;`, `ref var e = ref t[i];`, `const`).
    Local {
        /// The declared type (`var` included).
        ty: TypeRef,
        /// Names, initialisers and places.
        vars: Vec<(String, Option<Expr>, Span)>,
        /// `const`.
        is_const: bool,
    },
    /// `var (a, b) = e;` and `(int a, int b) = e;`.
    Deconstruct {
        /// The declared names (`None` for a discard) with their types.
        names: Vec<(Option<String>, TypeRef)>,
        /// The value.
        value: Expr,
    },
    /// An expression statement.
    Expr(Expr),
    /// `if`.
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `while`.
    While(Expr, Box<Stmt>),
    /// `do ... while`.
    Do(Box<Stmt>, Expr),
    /// `for (init; cond; update) body`.
    For {
        /// Declarations or expressions.
        init: Vec<Stmt>,
        /// The condition (none: forever).
        cond: Option<Expr>,
        /// The updates.
        update: Vec<Expr>,
        /// The body.
        body: Box<Stmt>,
    },
    /// `foreach (T x in e) body`.
    Foreach {
        /// The declared type (`var` included).
        ty: TypeRef,
        /// The variable, or the names of a deconstruction (`var (a, b)`).
        names: Vec<String>,
        /// The collection.
        iter: Expr,
        /// The body.
        body: Box<Stmt>,
    },
    /// `return`.
    Return(Option<Expr>),
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `{ ... }`.
    Block(Vec<Stmt>),
    /// `try { } catch { } finally { }`.
    Try {
        /// The body.
        body: Vec<Stmt>,
        /// The catch clauses.
        catches: Vec<Catch>,
        /// The finally block.
        finally: Option<Vec<Stmt>>,
    },
    /// `throw;` or `throw e;`.
    Throw(Option<Expr>),
    /// `switch (v) { case ...: }`.
    Switch(Expr, Vec<SwitchSection>),
    /// A local function.
    LocalFn(Box<MethodDecl>),
    /// `;`.
    Empty,
    /// A comment on its own.
    Comment(String),
    /// `goto label;`.
    Goto(String),
    /// `label: statement`.
    Labeled(String, Box<Stmt>),
}

/// A pattern (`is` and `switch`).
#[derive(Debug, Clone)]
pub enum Pattern {
    /// A constant: `case 3:`, `is null`.
    Const(Expr),
    /// `< 3`, `>= x`.
    Relational(BinOp, Expr),
    /// `Type` or `Type name`.
    Type(TypeRef, Option<String>),
    /// `var x`.
    Var(String),
    /// `_`.
    Discard,
    /// `not p`.
    Not(Box<Pattern>),
    /// `p and q`.
    And(Box<Pattern>, Box<Pattern>),
    /// `p or q`.
    Or(Box<Pattern>, Box<Pattern>),
    /// `T { A: p, B.C: q }`: the subject's members matching patterns.
    Property(Option<TypeRef>, Vec<(Vec<String>, Pattern)>),
    /// `(p, q)`: a tuple's elements matching patterns, in order.
    Positional(Vec<Pattern>),
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
    /// `<<`.
    Shl,
    /// `>>`.
    Shr,
    /// `>>>`.
    UShr,
    /// `&`.
    And,
    /// `|`.
    Or,
    /// `^`.
    Xor,
    /// `&&`.
    AndAlso,
    /// `||`.
    OrElse,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `??`.
    Coalesce,
}

impl BinOp {
    /// The name of the method a user-defined operator is (ECMA-334 15.10, "Operators";
    /// CLI's `op_Addition`...), for the arithmetic and bitwise operators the port reads.
    pub fn method_name(self) -> Option<&'static str> {
        Some(match self {
            BinOp::Add => "op_Addition",
            BinOp::Sub => "op_Subtraction",
            BinOp::Mul => "op_Multiply",
            BinOp::Div => "op_Division",
            BinOp::Rem => "op_Modulus",
            BinOp::And => "op_BitwiseAnd",
            BinOp::Or => "op_BitwiseOr",
            BinOp::Xor => "op_ExclusiveOr",
            _ => return None,
        })
    }

    /// Reads a C# operator token.
    pub fn from_token(token: &str) -> Option<BinOp> {
        Some(match token {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Rem,
            "<<" => BinOp::Shl,
            ">>" => BinOp::Shr,
            ">>>" => BinOp::UShr,
            "&" => BinOp::And,
            "|" => BinOp::Or,
            "^" => BinOp::Xor,
            "&&" => BinOp::AndAlso,
            "||" => BinOp::OrElse,
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            "??" => BinOp::Coalesce,
            _ => return None,
        })
    }

    /// Its Rust spelling (C#'s, but for `>>>`, which the emitter writes as a cast).
    pub fn rust(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr | BinOp::UShr => ">>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::AndAlso => "&&",
            BinOp::OrElse => "||",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Coalesce => "??",
        }
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    /// `<<`, `>>`, `>>>`.
    pub fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr | BinOp::UShr)
    }
}

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-`.
    Neg,
    /// `+`.
    Plus,
    /// `!`.
    Not,
    /// `~`.
    BitNot,
}

/// `++`/`--`, before or after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncDec {
    /// `++x`.
    PreInc,
    /// `--x`.
    PreDec,
    /// `x++`.
    PostInc,
    /// `x--`.
    PostDec,
}

/// An argument of a call.
#[derive(Debug, Clone)]
pub struct Arg {
    /// `ref`, `out`, `in` or by value.
    pub mode: PassMode,
    /// The value (for `out var x`, a [`ExprKind::DeclVar`]).
    pub expr: Expr,
    /// A named argument's name.
    pub name: Option<String>,
}

/// A lambda's body.
#[derive(Debug, Clone)]
pub enum LambdaBody {
    /// `x => e`.
    Expr(Box<Expr>),
    /// `x => { ... }`.
    Block(Vec<Stmt>),
}

/// What a name resolved to (the checker's answer).
#[derive(Debug, Clone, PartialEq)]
pub enum Resolved {
    /// A local variable or parameter, by its unique id.
    Local(u32),
    /// A field of the bot (or of `this` in another type).
    Field(String),
    /// A constant item.
    Const(String),
    /// A type name (a static class, an enum, a struct).
    Type(String),
}

/// An expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it starts.
    pub span: Span,
    /// Its byte range in the source.
    pub range: (usize, usize),
    /// Its C# type, once checked.
    pub ty: Ty,
}

/// An interpolated string's part.
#[derive(Debug, Clone)]
pub enum InterpPart {
    /// Text.
    Text(String),
    /// `{e}`, `{e:F2}`, `{e,10}`: the value, its format and its alignment (0 for none;
    /// a width to pad to, on the left if positive, on the right if negative).
    Value(Expr, Option<String>, i32),
}

/// The kinds of expression.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// An integer literal: its value and its C# type (from its suffix and size).
    Int(u64, Ty),
    /// A real literal: its source text (for `decimal` and exact printing) and type.
    Real(String, Ty),
    /// `true`/`false`.
    Bool(bool),
    /// A character literal (a UTF-16 unit).
    Char(u16),
    /// A string literal.
    Str(String),
    /// An interpolated string.
    Interp(Vec<InterpPart>),
    /// `null`.
    Null,
    /// `default` or `default(T)`.
    Default(Option<TypeRef>),
    /// A simple name, before resolution.
    Name(String, Vec<TypeRef>),
    /// A name, resolved.
    Resolved(Resolved, String),
    /// `this`.
    This,
    /// `e.name` (with type arguments).
    Member(Box<Expr>, String, Vec<TypeRef>),
    /// `e(args)`.
    Call(Box<Expr>, Vec<Arg>),
    /// `e[i, j]`.
    Index(Box<Expr>, Vec<Expr>),
    /// `[k]` as the target of an object initialiser's item (`new D { [k] = v }`).
    ElementBinding(Vec<Expr>),
    /// `-e`, `!e`, `~e`, `+e`.
    Unary(UnOp, Box<Expr>),
    /// `++e`, `e--`, ...
    IncDec(IncDec, Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b`, `a op= b`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(T)e`.
    Cast(TypeRef, Box<Expr>),
    /// `new T(args) { init }`, and `new(args)` (no type: from the target).
    New(Option<TypeRef>, Vec<Arg>, Option<Vec<Expr>>),
    /// `e as T`.
    As(Box<Expr>, TypeRef),
    /// `e with { F = v, ... }`: the members as `F = v` assignments.
    With(Box<Expr>, Vec<Expr>),
    /// `new T[n]`, `new T[] { ... }`, `new[] { ... }`, `{ ... }` (element type
    /// unknown for the last two), `stackalloc T[n]`.
    NewArray {
        /// The element type, if written.
        elem: Option<TypeRef>,
        /// The rank (1 for `T[]`).
        rank: u8,
        /// The sizes, if written.
        sizes: Vec<Expr>,
        /// The elements, if written.
        init: Option<Vec<Expr>>,
    },
    /// `(a, b) => e`.
    Lambda(Vec<(String, Option<TypeRef>)>, LambdaBody),
    /// `(a, b)` and `(first: a, second: b)`: the elements and their names.
    Tuple(Vec<Expr>, Vec<Option<String>>),
    /// `e is pattern`.
    Is(Box<Expr>, Box<Pattern>),
    /// `e switch { p => v, ... }`.
    Switch(Box<Expr>, Vec<(Pattern, Option<Expr>, Expr)>),
    /// `ref e` (a ref local's initialiser, a ref return).
    Ref(Box<Expr>),
    /// `out var x`, `out int x`: declares `x`.
    DeclVar(TypeRef, String),
    /// `checked(e)` / `unchecked(e)`.
    Checked(bool, Box<Expr>),
    /// `typeof(T)`.
    TypeOf(TypeRef),
    /// `throw e` as an expression.
    Throw(Option<Box<Expr>>),
    /// `a..b` (a range).
    Range(Option<Box<Expr>>, Option<Box<Expr>>),
    /// `^e` (an index from the end).
    FromEnd(Box<Expr>),
    /// An implicit conversion the checker made explicit: to the expression's `ty`.
    Convert(Box<Expr>),
    /// `e?.name`: a member unless `e` is null.
    NullMember(Box<Expr>, String),
}

impl Expr {
    /// A new unchecked expression.
    pub fn new(kind: ExprKind, span: Span, range: (usize, usize)) -> Expr {
        Expr {
            kind,
            span,
            range,
            ty: Ty::Unknown,
        }
    }
}
