//! Delegates passed to the bot's methods: a `Func<...>`, `Action<...>` or
//! `Comparison<T>` parameter.
//!
//! A C# delegate made in the bot captures `this` by reference. Rust cannot lend the bot
//! to a closure while the method that calls the closure has it too, so the port hands
//! the bot over at each call: a delegate parameter is a `&mut impl FnMut(&mut MyBot,
//! ...)` (the kit's checker refuses `dyn`; passed on as `&mut *f`, it keeps its closure
//! type, so a recursive search instantiates it once), called `f(self, ...)`, and a lambda or method group passed to one is written
//! `&mut |this: &mut MyBot, ...| ...` with its `self` read as `this`. Its captured
//! locals are borrowed as C# shares them; `Board` and `Timer` parameters disappear, as
//! everywhere (every board is the one `think` was handed).

use super::decls::{FileEmitter, Local, LocalKind, Scope};
use super::{Prec, R, Val, snippet, unsupported};
use crate::ast::{Arg, Body, Expr, ExprKind, MethodDecl, PassMode};
use crate::error::Span;
use crate::types::Ty;

pub(crate) use super::program::vanishes;

impl FileEmitter<'_, '_> {
    /// The Rust type of a delegate parameter of type `Func(params, ret)`.
    pub(crate) fn delegate_param_ty(&self, params: &[Ty], ret: &Ty, span: Span) -> R<String> {
        if !self.fr().bot_level {
            return Err(unsupported(
                span,
                "a delegate parameter of a struct's method",
                "",
            ));
        }
        let mut tys = vec![format!("&mut {}", self.p.types[self.p.bot].rust)];
        for p in params.iter().filter(|p| !vanishes(p)) {
            tys.push(self.rty(p, span)?);
        }
        let ret = match ret {
            Ty::Void => String::new(),
            r => format!(" -> {}", self.rty(r, span)?),
        };
        Ok(format!("&mut impl FnMut({}){ret}", tys.join(", ")))
    }

    /// A call of the delegate parameter `l`: `f(self, args)`.
    pub(crate) fn delegate_call(&mut self, l: &Local, args: &[Arg], e: &Expr) -> R<Val> {
        let Ty::Func(params, ret) = l.ty.clone() else {
            return Err(unsupported(e.span, "a call of this delegate", &l.cs));
        };
        let modes: Vec<(Ty, PassMode, bool)> = params
            .iter()
            .map(|p| (p.clone(), PassMode::Value, false))
            .collect();
        let vals = self.args_for(&modes, args, e)?;
        let f = self.local_val(l);
        let mut codes = vec!["self".to_string()];
        for (v, p) in vals.iter().zip(&params) {
            if !vanishes(p) {
                codes.push(v.code.clone());
            }
        }
        self.note_mutation();
        let mut out = Val::new(
            format!("{}({})", f.at(Prec::Primary), codes.join(", ")),
            *ret,
            Prec::Primary,
        );
        for v in &vals {
            out = out.absorb(v);
        }
        out.effects = true;
        out.reads_self = true;
        out.mut_self = true;
        Ok(out)
    }

    /// The delegate parameter `l` where a closure of the plain form is wanted (`Sort`,
    /// LINQ): `|a, b| f(self, a, b)`.
    pub(crate) fn delegate_as_closure(&mut self, l: &Local, e: &Expr) -> R<Val> {
        let f = self.local_val(l);
        let Ty::Func(params, ret) = l.ty.clone() else {
            return Err(unsupported(e.span, "this delegate", snippet(self.src, e)));
        };
        let mut names = Vec::new();
        let mut args = vec!["self".to_string()];
        for p in params.iter().filter(|p| !vanishes(p)) {
            let name = self.temp("arg");
            names.push(format!("{name}: {}", self.rty(p, e.span)?));
            args.push(name);
        }
        self.note_mutation();
        let code = format!(
            "|{}| {}({})",
            names.join(", "),
            f.at(Prec::Primary),
            args.join(", ")
        );
        let mut v = Val::new(code, Ty::Func(params, ret), Prec::Assign);
        v.reads_self = true;
        v.mut_self = true;
        Ok(v)
    }

    /// An argument for a delegate parameter of type `want`: a lambda, a method group, or
    /// a delegate parameter passed on.
    pub(crate) fn delegate_arg(&mut self, x: &Expr, want: &Ty) -> R<Val> {
        if let ExprKind::Name(n, _) = &x.kind
            && let Some(l) = self.find_local(n)
        {
            if l.kind != LocalKind::Delegate || l.frame != self.fns.len() - 1 {
                return Err(unsupported(
                    x.span,
                    "a delegate held in a local, passed to a method",
                    snippet(self.src, x),
                ));
            }
            if !crate::types::same_shape(&l.ty, want) {
                return Err(unsupported(
                    x.span,
                    format!("a `{}` passed as a `{}`", l.ty.cs(), want.cs()),
                    snippet(self.src, x),
                ));
            }
            return Ok(Val::new(
                format!("&mut *{}", l.rust),
                want.clone(),
                Prec::Unary,
            ));
        }
        let lambda = match &x.kind {
            ExprKind::Lambda(..) => Some(x.clone()),
            _ => self.method_group_lambda(x, Some(want)),
        };
        let Some(lambda) = lambda else {
            return Err(unsupported(
                x.span,
                "a delegate argument that is not a lambda or a method",
                snippet(self.src, x),
            ));
        };
        let v = self.expr(&lambda, Some(want))?;
        let bot = self.p.types[self.p.bot].rust.clone();
        // In another class's method `self` is that instance, which the closure captures;
        // the bot is the method's `bot` parameter, which the call lends instead.
        let receiver = if self.fr().bot_level { "self" } else { "bot" };
        let code = with_receiver(&v.code, &bot, receiver);
        let mut out = Val::new(code, v.ty.clone(), Prec::Unary);
        out.effects = v.effects;
        Ok(out)
    }
}

impl FileEmitter<'_, '_> {
    /// The result type of a local function lowered from `var f = (T x) => e;`: the type
    /// of `e` with the parameters declared, found where the lambda stood (the locals it
    /// reads are declared by then) by writing `e` once and dropping what that wrote.
    pub(crate) fn infer_local_fn_ret(&mut self, decl: &MethodDecl) -> R<()> {
        let Body::Expr(body) = &decl.body else {
            return Err(unsupported(decl.span, "a `var` lambda", &decl.name));
        };
        let learned = self.learned.clone();
        let pre = std::mem::take(&mut self.f().pre);
        self.scopes.push(Scope::default());
        let ty = self.typed_body(decl, body);
        self.scopes.pop();
        self.learned = learned;
        self.f().pre = pre;
        let ty = ty?;
        if matches!(ty, Ty::Unknown | Ty::Null) {
            return Err(unsupported(
                decl.span,
                "a `var` lambda whose result type this translator cannot tell",
                &decl.name,
            ));
        }
        if let Some(f) = self
            .scopes
            .iter_mut()
            .rev()
            .flat_map(|s| s.fns.iter_mut().rev())
            .find(|f| f.info.cs == decl.name)
        {
            f.info.ret = ty;
        }
        Ok(())
    }

    fn typed_body(&mut self, decl: &MethodDecl, body: &Expr) -> R<Ty> {
        for p in &decl.params {
            let t = self.p.resolve(&p.ty, &self.type_params, p.span)?;
            let kind = match t {
                Ty::Api("Board") => LocalKind::Board,
                Ty::Api("Timer") => LocalKind::Timer,
                _ => LocalKind::Value,
            };
            self.declare(&p.name, t, kind);
        }
        Ok(self.expr(body, None)?.ty)
    }
}

/// The closure `|a, b| body` as `&mut |this: &mut MyBot, a, b| body'`, where `body'`
/// reads the bot as `this` wherever `body` reads it as `receiver` (`self` in the bot's
/// methods, `bot` in another class's), `_` for a body that does not.
pub(crate) fn with_receiver(closure: &str, bot: &str, receiver: &str) -> String {
    let renamed = rename_receiver(closure, receiver);
    let this = if renamed == closure { "_" } else { "this" };
    let with = renamed
        .strip_prefix("||")
        .map(|r| format!("|{this}: &mut {bot}|{r}"))
        .or_else(|| {
            renamed
                .strip_prefix('|')
                .map(|r| format!("|{this}: &mut {bot}, {r}"))
        })
        .unwrap_or(renamed);
    format!("&mut {with}")
}

/// `code` with every `receiver` token outside string literals (and not a field after
/// `.`) read as `this`.
fn rename_receiver(code: &str, receiver: &str) -> String {
    let bytes = code.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    let mut in_str = false;
    while i < code.len() {
        let c = bytes[i];
        if in_str {
            if c == b'\\' && i + 1 < code.len() {
                out.push_str(&code[i..i + 2]);
                i += 2;
                continue;
            }
            in_str = c != b'"';
        } else if c == b'"' {
            in_str = true;
        } else if code[i..].starts_with(receiver)
            && (i == 0 || !word(bytes[i - 1]) && bytes[i - 1] != b'.')
            && !bytes.get(i + receiver.len()).is_some_and(|&n| word(n))
        {
            out.push_str("this");
            i += receiver.len();
            continue;
        }
        let len = code[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&code[i..i + len]);
        i += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closure_takes_the_bot_and_reads_it_there() {
        assert_eq!(
            with_receiver(
                "|x: i32| self.f(x, \"self\") + self_ + itself",
                "MyBot",
                "self"
            ),
            "&mut |this: &mut MyBot, x: i32| this.f(x, \"self\") + self_ + itself"
        );
        assert_eq!(
            with_receiver("|| self.g()", "MyBot", "self"),
            "&mut |this: &mut MyBot| this.g()"
        );
        assert_eq!(
            with_receiver("|x: i32| x + 1", "MyBot", "self"),
            "&mut |_: &mut MyBot, x: i32| x + 1"
        );
    }

    #[test]
    fn in_another_class_the_closure_keeps_self_and_takes_the_bot() {
        assert_eq!(
            with_receiver(
                "|i: i32| self.cells.get(i) + bot.weight + self.bot",
                "MyBot",
                "bot"
            ),
            "&mut |this: &mut MyBot, i: i32| self.cells.get(i) + this.weight + self.bot"
        );
    }
}
