//! Delegates that are methods in all but name.
//!
//! A field `Func<PieceType, int> Material = t => ...;` never assigned again is the method
//! `int Material(PieceType t) => ...;`: C# forbids a field initialiser to read `this`
//! (CS0236), so such a lambda captures nothing, and calling the field calls its lambda.
//!
//! A local `Func<int> Score = () => ...;` never assigned again is the local function
//! `int Score() => ...;`: both capture the enclosing locals by reference, and a call of
//! either runs the body on their current values. (Rust cannot keep a closure that
//! borrows locals the method goes on changing; a lifted local function borrows them
//! only while it runs.) Named as a value, the local function is a method group, which
//! C# converts to a delegate that calls it.

use std::collections::HashMap;

use crate::ast::*;
use crate::types::{IntTy, Ty};

/// Rewrites each such field of `unit` as the method it means.
pub(super) fn lambda_fields_as_methods(unit: &mut Unit, src: &str) {
    for t in &mut unit.types {
        for member in &mut t.members {
            let Member::Field(f) = member else { continue };
            if let Some(method) = as_method(f, src) {
                *member = Member::Method(method);
            }
        }
    }
}

fn as_method(f: &FieldDecl, src: &str) -> Option<MethodDecl> {
    let mut method = lambda_as_method(&f.ty, &f.vars, f.is_const, src)?;
    method.is_static = f.is_static;
    method.span = f.span;
    Some(method)
}

/// The local function a local delegate declaration `ty vars` means, if it means one:
/// of a declared delegate type, or `var f = (T x) => e;` (C# 10's natural type: its
/// parameters typed, its result the body's, which the emitter infers: `ret` is `var`).
pub(super) fn local_as_fn(
    ty: &TypeRef,
    vars: &[(String, Option<Expr>, crate::error::Span)],
    is_const: bool,
    src: &str,
) -> Option<MethodDecl> {
    if *ty != TypeRef::Var {
        return lambda_as_method(ty, vars, is_const, src);
    }
    let ([(name, Some(init), span)], false) = (vars, is_const) else {
        return None;
    };
    let group = api_method_group(init, src);
    let init = group.as_ref().unwrap_or(init);
    let ExprKind::Lambda(params, LambdaBody::Expr(body)) = &init.kind else {
        return None;
    };
    let types: Option<Vec<TypeRef>> = params.iter().map(|(_, t)| t.clone()).collect();
    if assignments(src, name) != 1 {
        return None;
    }
    let params = params
        .iter()
        .zip(types?)
        .map(|((n, _), ty)| Param {
            name: n.clone(),
            ty,
            mode: PassMode::Value,
            default: None,
            span: *span,
        })
        .collect();
    // `var f = (T x) => ref a[x];`: a ref-returning local function; its body the place.
    let (body, ret_ref) = match &body.kind {
        ExprKind::Ref(place) => (place, true),
        _ => (body, false),
    };
    Some(MethodDecl {
        name: name.clone(),
        ret: TypeRef::Var,
        ret_ref,
        params,
        type_params: Vec::new(),
        body: Body::Expr(body.clone()),
        is_static: false,
        is_property: false,
        is_extension: false,
        dispatch: Dispatch::Plain,
        span: *span,
        comments: Vec::new(),
    })
}

/// `var f = board.GetPieceBitboard;`: an API method group, as the lambda C# makes of it
/// (ECMA-334, "Method group conversions"). The delegate binds its receiver when it is
/// made, the lambda reads it when called: the same object when the receiver is a type
/// (`BitboardHelper`), a name nothing in the file assigns (a parameter), or a `Board`
/// field or local of a file that makes no board of its own: every such board is then
/// the one `Think` was handed (see `emit::boards`), whichever the name holds.
fn api_method_group(init: &Expr, src: &str) -> Option<Expr> {
    let ExprKind::Member(recv, method, targs) = &init.kind else {
        return None;
    };
    let ExprKind::Name(r, rargs) = &recv.kind else {
        return None;
    };
    let params: &[&str] = match (r.as_str(), method.as_str()) {
        ("BitboardHelper", "GetNumberOfSetBits") => &["ulong"],
        (_, "GetPieceBitboard" | "GetPieceList")
            if assignments(src, r) == 0 || the_handed_board(src, r) =>
        {
            &["PieceType", "bool"]
        }
        _ => return None,
    };
    if !targs.is_empty() || !rargs.is_empty() {
        return None;
    }
    let at = |kind| Expr::new(kind, init.span, init.range);
    let names: Vec<String> = (0..params.len()).map(|i| format!("group_arg{i}")).collect();
    let args = names
        .iter()
        .map(|n| Arg {
            mode: PassMode::Value,
            expr: at(ExprKind::Name(n.clone(), Vec::new())),
            name: None,
        })
        .collect();
    let call = at(ExprKind::Call(Box::new(init.clone()), args));
    let params = names
        .into_iter()
        .zip(params)
        .map(|(n, t)| (n, Some(TypeRef::Named(t.to_string(), Vec::new()))))
        .collect();
    Some(at(ExprKind::Lambda(
        params,
        LambdaBody::Expr(Box::new(call)),
    )))
}

/// Whether `name` is declared a `Board` in `src` and `src` makes no board of its own, so
/// that whatever `name` holds is the board `Think` was handed.
fn the_handed_board(src: &str, name: &str) -> bool {
    let declared = src.match_indices("Board").any(|(at, _)| {
        let before = src[..at].chars().next_back();
        let after = src[at + "Board".len()..].trim_start();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && after.starts_with(name)
            && !after[name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
    });
    declared && !src.contains("CreateBoardFromFEN")
}

/// `Func<A, R> name = (a) => body;` (or `Action<A>`, `Comparison<T>`), declared alone
/// and assigned nowhere else, as the method `R name(A a) => body`.
fn lambda_as_method(
    ty: &TypeRef,
    vars: &[(String, Option<Expr>, crate::error::Span)],
    is_const: bool,
    src: &str,
) -> Option<MethodDecl> {
    let ([(name, Some(_), _)], false) = (vars, is_const) else {
        return None;
    };
    if assignments(src, name) != 1 {
        return None;
    }
    typed_lambda_as_method(ty, &vars[0])
}

/// The statements of a block with each `Func<A, R> f = null;` (or `Func<A, R> f;`)
/// followed by `f = (a) => body;`, `f` assigned nowhere else, as the local function
/// `R f(A a) => body`: the idiom of a recursive lambda. Nothing runs between the two,
/// so no call can find `f` null, and from the second on `f` is that lambda for good:
/// its calls of `f`, run later, call itself, as the local function's do.
pub(super) fn recursive_lambdas(stmts: Vec<Stmt>, src: &str) -> Vec<Stmt> {
    let mut out: Vec<Stmt> = Vec::with_capacity(stmts.len());
    let mut pending: Option<usize> = None;
    for stmt in stmts {
        if let (Some(at), StmtKind::Expr(e)) = (pending, &stmt.kind)
            && let Some(f) = assigned_lambda(&out[at], e, src)
        {
            out[at].kind = StmtKind::LocalFn(Box::new(f));
            pending = None;
            continue;
        }
        match &stmt.kind {
            StmtKind::Comment(_) => {}
            StmtKind::Local { vars, .. } if vars.len() == 1 => pending = Some(out.len()),
            _ => pending = None,
        }
        out.push(stmt);
    }
    out
}

/// The local function `decl; e` means, if `decl` declares a delegate `f` null or
/// unassigned and `e` is `f = lambda`, the only other assignment of `f`.
fn assigned_lambda(decl: &Stmt, e: &Expr, src: &str) -> Option<MethodDecl> {
    let StmtKind::Local {
        ty,
        vars,
        is_const: false,
    } = &decl.kind
    else {
        return None;
    };
    let [(name, init, span)] = vars.as_slice() else {
        return None;
    };
    let ExprKind::Assign(None, target, lambda) = &e.kind else {
        return None;
    };
    let writes = match init.as_ref().map(|i| &i.kind) {
        None => 1,
        Some(ExprKind::Null) => 2,
        Some(_) => return None,
    };
    if !matches!(&target.kind, ExprKind::Name(n, a) if n == name && a.is_empty())
        || assignments(src, name) != writes
    {
        return None;
    }
    typed_lambda_as_method(ty, &(name.clone(), Some((**lambda).clone()), *span))
}

/// `name = (a) => body` of the delegate type `ty` as the method `R name(A a) => body`.
fn typed_lambda_as_method(
    ty: &TypeRef,
    var: &(String, Option<Expr>, crate::error::Span),
) -> Option<MethodDecl> {
    let TypeRef::Named(kind, args) = ty else {
        return None;
    };
    let (name, Some(init), span) = var else {
        return None;
    };
    let ExprKind::Lambda(params, body) = &init.kind else {
        return None;
    };
    let (param_tys, ret) = match kind.as_str() {
        "Func" => {
            let (ret, params) = args.split_last()?;
            (params, ret.clone())
        }
        "Action" => (args.as_slice(), TypeRef::Named("void".into(), Vec::new())),
        "Comparison" if args.len() == 1 => (
            &[args[0].clone(), args[0].clone()][..],
            TypeRef::Named("int".into(), Vec::new()),
        ),
        _ => return None,
    };
    if param_tys.len() != params.len() {
        return None;
    }
    let params = params
        .iter()
        .zip(param_tys)
        .map(|((n, _), ty)| Param {
            name: n.clone(),
            ty: ty.clone(),
            mode: PassMode::Value,
            default: None,
            span: *span,
        })
        .collect();
    let body = match body {
        LambdaBody::Expr(e) => Body::Expr(e.clone()),
        LambdaBody::Block(stmts) => Body::Block(stmts.clone()),
    };
    Some(MethodDecl {
        name: name.clone(),
        ret,
        ret_ref: false,
        params,
        type_params: Vec::new(),
        body,
        is_static: false,
        is_property: false,
        is_extension: false,
        dispatch: Dispatch::Plain,
        span: *span,
        comments: Vec::new(),
    })
}

/// `Func<R>[] name = { M, this.N, board.IsDraw };` whose every other use is a call
/// `name[i]()`, as its name and method groups. Each call then means `i switch { 0 =>
/// M(), 1 => this.N(), .., _ => throw }`: the array is never written, so its element `k`
/// stays the delegate of method group `k`, and calling that delegate calls the method on
/// the receiver read when the array was made. A receiver is the bot or a `Board`
/// parameter never assigned (every board is the one `Think` was handed), so reading it
/// again at the call reads the same object; making the array reads nothing that can
/// throw. (Delegates with parameters would evaluate the arguments before the index
/// check, not after as C# does, and lambdas may read locals declared later under the
/// same name: both stay refused.)
pub(super) fn delegate_array(stmt: &Stmt, src: &str) -> Option<(String, Table)> {
    let StmtKind::Local {
        ty: TypeRef::Array(elem, 1),
        vars,
        is_const: false,
    } = &stmt.kind
    else {
        return None;
    };
    let (TypeRef::Named(kind, args), [(name, Some(init), _)]) = (&**elem, vars.as_slice()) else {
        return None;
    };
    let ExprKind::NewArray {
        rank: 1,
        sizes,
        init: Some(elems),
        ..
    } = &init.kind
    else {
        return None;
    };
    let fits = kind == "Func" && args.len() == 1 && sizes.is_empty() && !elems.is_empty();
    let groups = elems.iter().all(|e| method_group(e, src));
    if !(fits && groups && only_called(src, name, 1)) {
        return None;
    }
    let arms = elems
        .iter()
        .enumerate()
        .map(|(k, e)| (at(e, ExprKind::Int(k as u64, Ty::Int(IntTy::I32))), call(e)))
        .collect();
    let missing = "IndexOutOfRangeException";
    Some((name.clone(), Table { arms, missing }))
}

/// What `name[k]()` of a table of delegates means: the value of the arm whose key is
/// `k`, or the exception `missing` when none is.
#[derive(Clone)]
pub(super) struct Table {
    arms: Vec<(Expr, Expr)>,
    missing: &'static str,
}

/// `kind` where `e` stands.
fn at(e: &Expr, kind: ExprKind) -> Expr {
    Expr::new(kind, e.span, e.range)
}

/// `e()`.
fn call(e: &Expr) -> Expr {
    at(e, ExprKind::Call(Box::new(e.clone()), Vec::new()))
}

/// The fields `Dictionary<PieceType, Func<R>> name;` of `unit` whose type's only
/// constructor, taking nothing, first sets `name = new() { { PieceType.P, M }, .. }`
/// (method groups of the bot, or lambdas returning a literal), and whose every other use
/// is a call `name[k]()`: as tables. A field initialiser cannot read `this` (CS0236),
/// so nothing reads the field before the constructor sets it, and nothing changes the
/// dictionary after: `name[k]()` is `k switch { PieceType.P => M(), .., _ => throw new
/// KeyNotFoundException() }`. The keys are distinct enum members, so making the
/// dictionary throws nothing, and making it does nothing else C# can observe.
pub(super) fn delegate_tables(unit: &Unit, src: &str) -> HashMap<String, Table> {
    let mut out = HashMap::new();
    for t in &unit.types {
        let ctors: Vec<&MethodDecl> = t
            .members
            .iter()
            .filter_map(|m| match m {
                Member::Method(m) if m.name == ".ctor" => Some(m),
                _ => None,
            })
            .collect();
        let [ctor] = ctors.as_slice() else { continue };
        let Some((name, items)) = first_dictionary(ctor) else {
            continue;
        };
        let declared = t.members.iter().any(|m| {
            matches!(m, Member::Field(f) if !f.is_static && !f.is_const
                && f.vars.len() == 1 && f.vars[0].0 == name && f.vars[0].1.is_none()
                && delegate_dictionary(&f.ty))
        });
        if declared
            && only_called(src, &name, 2)
            && let Some(arms) = dictionary_arms(items, src)
        {
            let missing = "KeyNotFoundException";
            out.insert(name, Table { arms, missing });
        }
    }
    out
}

/// The unit without the fields `tables` name and the constructors' statements setting them.
pub(super) fn drop_tables(unit: &mut Unit, tables: &HashMap<String, Table>) {
    for t in &mut unit.types {
        t.members.retain(|m| {
            !matches!(m, Member::Field(f) if f.vars.len() == 1 && tables.contains_key(&f.vars[0].0))
        });
        for m in &mut t.members {
            let Member::Method(m) = m else { continue };
            if m.name != ".ctor" {
                continue;
            }
            if let Some((name, _)) = first_dictionary(m)
                && tables.contains_key(&name)
                && let Body::Block(stmts) = &mut m.body
                && let Some(at) = stmts
                    .iter()
                    .position(|s| !matches!(s.kind, StmtKind::Comment(_)))
            {
                stmts.remove(at);
            }
        }
    }
}

fn delegate_dictionary(ty: &TypeRef) -> bool {
    let TypeRef::Named(d, args) = ty else {
        return false;
    };
    matches!((d.as_str(), args.as_slice()), ("Dictionary", [TypeRef::Named(k, ka), TypeRef::Named(f, fa)])
        if k == "PieceType" && ka.is_empty() && f == "Func" && fa.len() == 1)
}

/// A constructor taking nothing whose first statement is `name = new() { items }`.
fn first_dictionary(ctor: &MethodDecl) -> Option<(String, &[Expr])> {
    let Body::Block(stmts) = &ctor.body else {
        return None;
    };
    if !ctor.params.is_empty() || ctor.is_static {
        return None;
    }
    let first = stmts
        .iter()
        .find(|s| !matches!(s.kind, StmtKind::Comment(_)))?;
    let StmtKind::Expr(e) = &first.kind else {
        return None;
    };
    let ExprKind::Assign(None, target, value) = &e.kind else {
        return None;
    };
    let (ExprKind::Name(name, a), ExprKind::New(_, args, Some(items))) =
        (&target.kind, &value.kind)
    else {
        return None;
    };
    (a.is_empty() && args.is_empty()).then(|| (name.clone(), items.as_slice()))
}

/// `{ PieceType.P, M }` items, keys distinct, as (key, value of a call) arms.
fn dictionary_arms(items: &[Expr], src: &str) -> Option<Vec<(Expr, Expr)>> {
    let mut keys = Vec::new();
    let mut arms = Vec::new();
    for item in items {
        let ExprKind::NewArray {
            init: Some(pair),
            sizes,
            ..
        } = &item.kind
        else {
            return None;
        };
        let ([key, value], true) = (pair.as_slice(), sizes.is_empty()) else {
            return None;
        };
        let ExprKind::Member(t, member, a) = &key.kind else {
            return None;
        };
        if !matches!(&t.kind, ExprKind::Name(n, ta) if n == "PieceType" && ta.is_empty())
            || !a.is_empty()
            || keys.contains(member)
        {
            return None;
        }
        keys.push(member.clone());
        let value = match &value.kind {
            ExprKind::Lambda(ps, LambdaBody::Expr(body)) if ps.is_empty() && literal(body) => {
                (**body).clone()
            }
            _ if method_group(value, src) => call(value),
            _ => return None,
        };
        arms.push((key.clone(), value));
    }
    Some(arms)
}

/// A literal, which reads nothing.
fn literal(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Int(..)
            | ExprKind::Real(..)
            | ExprKind::Bool(_)
            | ExprKind::Char(_)
            | ExprKind::Str(_)
    )
}

/// `M`, `this.M` or `b.M` for a `Board` parameter `b`, none of them assigned anywhere.
fn method_group(e: &Expr, src: &str) -> bool {
    let unassigned = |n: &str| assignments(src, n) == 0;
    match &e.kind {
        ExprKind::Name(m, a) => a.is_empty() && unassigned(m),
        ExprKind::Member(r, m, a) if a.is_empty() && unassigned(m) => match &r.kind {
            ExprKind::This => true,
            ExprKind::Name(b, a) => a.is_empty() && unassigned(b) && board_param(src, b),
            _ => false,
        },
        _ => false,
    }
}

/// `src` declares `name` only as a `Board` parameter.
fn board_param(src: &str, name: &str) -> bool {
    let decls = words(src, name)
        .filter(|&at| {
            let before = src[..at].trim_end();
            before.ends_with("Board") && words(before, "Board").last() == Some(before.len() - 5)
        })
        .collect::<Vec<_>>();
    !decls.is_empty()
        && decls
            .iter()
            .all(|&at| src[at + name.len()..].trim_start().starts_with([',', ')']))
        && !src.contains(&format!("{name} ="))
}

/// Every use of `name` in `src` but `others` (its declaration, its assignment) is
/// `name[...]()`, and it is assigned once.
fn only_called(src: &str, name: &str, others: usize) -> bool {
    if assignments(src, name) != 1 {
        return false;
    }
    let calls = words(src, name)
        .filter(|&at| {
            let rest = &src[at + name.len()..];
            let Some(open) = rest.strip_prefix('[') else {
                return false;
            };
            let mut depth = 1;
            for (i, c) in open.char_indices() {
                match c {
                    '[' => depth += 1,
                    ']' if depth == 1 => {
                        return open[i + 1..].trim_start().starts_with("()");
                    }
                    ']' => depth -= 1,
                    _ => {}
                }
            }
            false
        })
        .count();
    calls + others == words(src, name).count()
}

/// Where `name` stands as a whole word in `src`.
fn words<'s>(src: &'s str, name: &'s str) -> impl Iterator<Item = usize> + 's {
    let bytes = src.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    src.match_indices(name)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let end = at + name.len();
            !(at > 0 && word(bytes[at - 1]) || bytes.get(end).is_some_and(|&c| word(c)))
        })
}

impl super::Lower<'_> {
    /// `name[i]()` of a [`delegate_array`] `name`: `i switch { 0 => M(), .., _ => throw
    /// new IndexOutOfRangeException() }`.
    pub(super) fn delegate_array_call(
        &self,
        callee: &Expr,
        args: &[Arg],
        node: tree_sitter::Node,
    ) -> Option<ExprKind> {
        let ExprKind::Index(target, index) = &callee.kind else {
            return None;
        };
        let (ExprKind::Name(name, a), [i], []) = (&target.kind, index.as_slice(), args) else {
            return None;
        };
        let map = self.delegate_arrays.borrow();
        let table = map.get(name).filter(|_| a.is_empty())?;
        let here = Expr::new(
            ExprKind::Null,
            crate::error::Span::of(node),
            (node.start_byte(), node.end_byte()),
        );
        let mut arms: Vec<(Pattern, Option<Expr>, Expr)> = table
            .arms
            .iter()
            .map(|(k, v)| (Pattern::Const(k.clone()), None, v.clone()))
            .collect();
        let exception = TypeRef::Named(table.missing.into(), Vec::new());
        let throw = at(&here, ExprKind::New(Some(exception), Vec::new(), None));
        arms.push((
            Pattern::Discard,
            None,
            at(&here, ExprKind::Throw(Some(Box::new(throw)))),
        ));
        Some(ExprKind::Switch(Box::new(i.clone()), arms))
    }
}

/// How many places of `src` may assign `name` (its declaration's initialiser included):
/// `name =`, `name +=`, `name -=`, `name ??=`, `ref name`, `out name`. Counted on the
/// text, so a comment or string that looks like one counts too (the field then stays a
/// field, which the translator refuses): never fewer than there are.
pub(super) fn assignments(src: &str, name: &str) -> usize {
    let assigned = |at: usize| {
        let before = src[..at].trim_end();
        let after = src[at + name.len()..].trim_start();
        ["+=", "-=", "??="].iter().any(|op| after.starts_with(op))
            || after.starts_with('=') && !after[1..].starts_with(['=', '>'])
            || before.ends_with("ref")
            || before.ends_with("out")
    };
    words(src, name).filter(|&at| assigned(at)).count()
}

#[cfg(test)]
mod tests {
    use super::{assignments, board_param, only_called, the_handed_board};

    #[test]
    fn a_table_is_only_called_and_its_receiver_only_a_board_parameter() {
        let src =
            "Func<bool>[] c = { b.IsDraw }; bool M(Board b, int i) => c[i]() || c[f(i[0])] ();";
        assert!(only_called(src, "c", 1));
        assert!(!only_called(
            "Func<int>[] c = { F }; var d = c[0]; c[0]();",
            "c",
            1
        ));
        assert!(board_param(src, "b"));
        assert!(!board_param("Board b = x; void M(Board b) {}", "b"));
        assert!(!board_param("void M(MyBoard b) {}", "b"));
    }

    #[test]
    fn a_board_name_is_the_handed_board_unless_the_file_makes_one() {
        let src = "Board boardRef; Board b2; void T(Board board) { boardRef = board; }";
        assert!(the_handed_board(src, "boardRef"));
        assert!(!the_handed_board(src, "b"));
        let owns = format!("{src} Board x = Board.CreateBoardFromFEN(f);");
        assert!(!the_handed_board(&owns, "boardRef"));
    }

    #[test]
    fn assignments_count_every_way_of_writing_a_name() {
        let src = "Func<int, int> F = x => x; int G(int F) => F == 1 ? 0 : F; void H() { F += Y; this.F ??= Z; M(ref F); FF = 2; }";
        assert_eq!(assignments(src, "F"), 4);
        assert_eq!(assignments("F = a => a == b; G(x => F(x));", "F"), 1);
    }
}
