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

use crate::ast::*;

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
/// (`BitboardHelper`) or a name nothing in the file assigns (a parameter).
fn api_method_group(init: &Expr, src: &str) -> Option<Expr> {
    let ExprKind::Member(recv, method, targs) = &init.kind else {
        return None;
    };
    let ExprKind::Name(r, rargs) = &recv.kind else {
        return None;
    };
    let params: &[&str] = match (r.as_str(), method.as_str()) {
        ("BitboardHelper", "GetNumberOfSetBits") => &["ulong"],
        (_, "GetPieceBitboard" | "GetPieceList") if assignments(src, r) == 0 => {
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

/// How many places of `src` may assign `name` (its declaration's initialiser included):
/// `name =`, `name +=`, `name -=`, `name ??=`, `ref name`, `out name`. Counted on the
/// text, so a comment or string that looks like one counts too (the field then stays a
/// field, which the translator refuses): never fewer than there are.
pub(super) fn assignments(src: &str, name: &str) -> usize {
    let bytes = src.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut count = 0;
    for (at, _) in src.match_indices(name) {
        let end = at + name.len();
        if at > 0 && word(bytes[at - 1]) || bytes.get(end).is_some_and(|&c| word(c)) {
            continue;
        }
        let before = src[..at].trim_end();
        let after = src[end..].trim_start();
        let assigned = ["+=", "-=", "??="].iter().any(|op| after.starts_with(op))
            || after.starts_with('=') && !after[1..].starts_with(['=', '>'])
            || before.ends_with("ref")
            || before.ends_with("out");
        count += usize::from(assigned);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::assignments;

    #[test]
    fn assignments_count_every_way_of_writing_a_name() {
        let src = "Func<int, int> F = x => x; int G(int F) => F == 1 ? 0 : F; void H() { F += Y; this.F ??= Z; M(ref F); FF = 2; }";
        assert_eq!(assignments(src, "F"), 4);
        assert_eq!(assignments("F = a => a == b; G(x => F(x));", "F"), 1);
    }
}
