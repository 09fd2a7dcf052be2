//! Types: C#'s as written into [`Ty`], and [`Ty`] into Rust.

use super::program::Program;
use super::{R, unsupported};
use crate::ast::TypeRef;
use crate::error::{PortError, Span};
use crate::types::{IntTy, Ty};

impl Program<'_> {
    /// The [`Ty`] of a type as written (`var` is `Unknown`, for the caller to infer).
    pub(crate) fn resolve(&self, t: &TypeRef, type_params: &[String], span: Span) -> R<Ty> {
        match t {
            TypeRef::Var => Ok(Ty::Unknown),
            TypeRef::Ref(inner) => self.resolve(inner, type_params, span),
            TypeRef::Array(elem, rank) => match self.resolve(elem, type_params, span)? {
                // `GetAllPieceLists()`'s twelve lists: a sequence (a kit `PieceList` has
                // no default value for an array to hold).
                Ty::Api("PieceList") => Ok(Ty::Seq(Box::new(Ty::Api("PieceList")))),
                elem => Ok(Ty::Array(Box::new(elem), *rank)),
            },
            TypeRef::Tuple(items) => {
                let mut tys = Vec::new();
                let mut names = Vec::new();
                for (t, n) in items {
                    tys.push(self.resolve(t, type_params, span)?);
                    names.push(n.clone());
                }
                Ok(Ty::Tuple(tys, names))
            }
            TypeRef::Nullable(inner) => {
                let inner = self.resolve(inner, type_params, span)?;
                if inner.is_reference() {
                    Ok(inner)
                } else {
                    Ok(Ty::Nullable(Box::new(inner)))
                }
            }
            TypeRef::Named(name, args) => self.resolve_named(name, args, type_params, span),
        }
    }

    fn resolve_named(&self, name: &str, args: &[TypeRef], tps: &[String], span: Span) -> R<Ty> {
        let arg = |i: usize| -> R<Ty> {
            match args.get(i) {
                Some(a) => self.resolve(a, tps, span),
                None => Err(unsupported(
                    span,
                    format!("`{name}` without its type arguments"),
                    name,
                )),
            }
        };
        if tps.iter().any(|p| p == name) {
            return Ok(Ty::Param(name.to_string()));
        }
        // A type of the file's own named as a library one (`class Action`, `struct Memory`)
        // is that type: C# finds the file's namespace's types before the `using`s'. Types
        // differ by their number of type arguments, so `Memory<int>` is still
        // `System.Memory<T>`.
        if args.is_empty()
            && let Some(t) = self.own_type(name)
        {
            return Ok(t);
        }
        if let Some(t) = self.more_collections(name, &arg)? {
            return Ok(t);
        }
        if let Some(t) = crate::types::predefined(name) {
            return Ok(t);
        }
        Ok(match name {
            "Move" | "Square" | "Board" | "Timer" | "PieceList" | "Random" | "BigInteger"
            | "DateTime" | "TimeSpan" | "Vector2" => Ty::Api(api_name(name)),
            "Piece" => Ty::Api("Piece"),
            "PieceType" => Ty::Api("PieceType"),
            "List" | "IList" | "ICollection" | "IReadOnlyList" => Ty::List(Box::new(arg(0)?)),
            "Dictionary" | "IDictionary" | "IReadOnlyDictionary" => {
                Ty::Dict(Box::new(arg(0)?), Box::new(arg(1)?), "Dictionary")
            }
            "HashSet" | "ISet" => Ty::Set(Box::new(arg(0)?)),
            "Queue" => Ty::Coll("Queue", vec![arg(0)?]),
            "Stack" => Ty::Coll("Stack", vec![arg(0)?]),
            "PriorityQueue" => Ty::Coll("PriorityQueue", vec![arg(0)?, arg(1)?]),
            "Span" | "ReadOnlySpan" | "Memory" => Ty::Array(Box::new(arg(0)?), 1),
            "IEnumerable" | "IOrderedEnumerable" => Ty::Seq(Box::new(arg(0)?)),
            "KeyValuePair" => Ty::Tuple(
                vec![arg(0)?, arg(1)?],
                vec![Some("Key".into()), Some("Value".into())],
            ),
            "Func" => {
                let mut tys = args
                    .iter()
                    .map(|a| self.resolve(a, tps, span))
                    .collect::<R<Vec<Ty>>>()?;
                let ret = tys
                    .pop()
                    .ok_or_else(|| unsupported(span, "`Func` without types", name))?;
                Ty::Func(tys, Box::new(ret))
            }
            // `Comparison<T>`: `(T, T) => int`, negative, zero or positive.
            "Comparison" => Ty::Func(vec![arg(0)?, arg(0)?], Box::new(Ty::Int(IntTy::I32))),
            "Action" => {
                let tys = args
                    .iter()
                    .map(|a| self.resolve(a, tps, span))
                    .collect::<R<Vec<Ty>>>()?;
                Ty::Func(tys, Box::new(Ty::Void))
            }
            "ValueTuple" | "Tuple" => {
                let tys = args
                    .iter()
                    .map(|a| self.resolve(a, tps, span))
                    .collect::<R<Vec<Ty>>>()?;
                let n = tys.len();
                if name == "ValueTuple" {
                    Ty::Tuple(tys, vec![None; n])
                } else {
                    tuple_class(tys, span)?
                }
            }
            // An exception is only made and thrown (`throw` ends the search whatever it
            // throws, and `catch` reads no exception), so it needs no data.
            "object" | "Object" => Ty::Object,
            n if is_system_exception(n) => Ty::Api("Exception"),
            _ => match self.own_type(name) {
                Some(t) => t,
                None => return Err(unknown_type(name, span)),
            },
        })
    }

    /// The sorted collections, the linked list and `BitArray`, if `name` is one.
    fn more_collections(&self, name: &str, arg: &dyn Fn(usize) -> R<Ty>) -> R<Option<Ty>> {
        Ok(Some(match name {
            "SortedDictionary" => {
                Ty::Dict(Box::new(arg(0)?), Box::new(arg(1)?), "SortedDictionary")
            }
            "SortedList" => Ty::Dict(Box::new(arg(0)?), Box::new(arg(1)?), "SortedList"),
            "LinkedList" => Ty::Coll("LinkedList", vec![arg(0)?]),
            "LinkedListNode" => Ty::Coll("LinkedListNode", vec![arg(0)?]),
            "SortedSet" => Ty::Coll("SortedSet", vec![arg(0)?]),
            "IGrouping" => Ty::Coll("IGrouping", vec![arg(0)?, arg(1)?]),
            "IEnumerator" => Ty::Coll("IEnumerator", vec![arg(0)?]),
            "BitArray" => Ty::Coll("BitArray", vec![]),
            "StringBuilder" => Ty::Coll("StringBuilder", vec![]),
            _ => return Ok(None),
        }))
    }

    /// The Rust spelling of `t`.
    pub(crate) fn rust_ty(&self, t: &Ty, span: Span) -> R<String> {
        Ok(match t {
            Ty::Bool => "bool".into(),
            Ty::Int(i) => i.rust().into(),
            Ty::F32 => "f32".into(),
            Ty::F64 => "f64".into(),
            Ty::Char => "u16".into(),
            Ty::Str => "String".into(),
            Ty::Void => "()".into(),
            Ty::Api("PieceType") => "i32".into(),
            Ty::Api("Piece") => "cs::Piece".into(),
            Ty::Api("Random") => "Random".into(),
            Ty::Api("BigInteger") => "cs::BigInteger".into(),
            Ty::Api("DateTime") => "cs::DateTime".into(),
            Ty::Api("TimeSpan") => "cs::TimeSpan".into(),
            Ty::Api("Vector2") => "cs::Vector2".into(),
            Ty::Api("Guid") => "cs::Guid".into(),
            Ty::Api("OwnedBoard") => "Board".into(),
            Ty::Api("Exception") => "()".into(),
            Ty::Api(n) => (*n).into(),
            Ty::Enum(name) => self.enum_repr(name).rust().into(),
            Ty::Class(name) if self.is_ref_class(name) => {
                format!("cs::Obj<{}>", self.rust_type_name(name))
            }
            Ty::Struct(name) | Ty::Class(name) => self.rust_type_name(name),
            Ty::Array(e, _) => format!("cs::Array<{}>", self.rust_ty(e, span)?),
            Ty::List(e) => format!("cs::List<{}>", self.rust_ty(e, span)?),
            Ty::Set(e) => format!("cs::HashSet<{}>", self.rust_ty(e, span)?),
            Ty::Coll(name, args) if args.is_empty() => format!("cs::{name}"),
            Ty::Coll(name, args) => {
                let mut rust = Vec::new();
                for a in args {
                    rust.push(self.rust_ty(a, span)?);
                }
                format!("cs::{name}<{}>", rust.join(", "))
            }
            Ty::Seq(e) => format!("cs::Seq<{}>", self.rust_ty(e, span)?),
            Ty::Dict(k, v, kind) => format!(
                "cs::{kind}<{}, {}>",
                self.rust_ty(k, span)?,
                self.rust_ty(v, span)?
            ),
            Ty::Tuple(items, _) => {
                let items = items
                    .iter()
                    .map(|i| self.rust_ty(i, span))
                    .collect::<R<Vec<String>>>()?;
                if items.len() == 1 {
                    format!("({},)", items[0])
                } else {
                    format!("({})", items.join(", "))
                }
            }
            Ty::TupleClass(items) => {
                let inner = Ty::Tuple(items.clone(), Vec::new());
                format!("cs::Tuple<{}>", self.rust_ty(&inner, span)?)
            }
            Ty::Nullable(inner) if **inner == Ty::Api("Timer") => "bool".into(),
            Ty::Nullable(inner) => format!("Option<{}>", self.rust_ty(inner, span)?),
            Ty::Param(name) => name.clone(),
            Ty::Decimal => "cs::Decimal".into(),
            Ty::Func(..) => {
                return Err(unsupported(
                    span,
                    "a delegate stored in a field or passed around",
                    "Func",
                ));
            }
            _ => {
                return Err(unsupported(
                    span,
                    format!("a value of type `{}`", t.cs()),
                    "",
                ));
            }
        })
    }
}

fn api_name(name: &str) -> &'static str {
    match name {
        "BigInteger" => "BigInteger",
        "Move" => "Move",
        "Square" => "Square",
        "Board" => "Board",
        "Timer" => "Timer",
        "PieceList" => "PieceList",
        "DateTime" => "DateTime",
        "TimeSpan" => "TimeSpan",
        "Vector2" => "Vector2",
        _ => "Random",
    }
}

/// `System.Tuple<..>` of these items: to seven (an eighth is `TRest`, a nested tuple whose
/// items C# names `Item8`... through it, which the port does not follow).
pub(crate) fn tuple_class(items: Vec<Ty>, span: Span) -> R<Ty> {
    if items.len() >= 8 {
        return Err(unsupported(
            span,
            "a `Tuple` of eight or more items (its `TRest` nests another tuple)",
            "Tuple",
        ));
    }
    Ok(Ty::TupleClass(items))
}

/// `System`'s exceptions a bot makes to throw (`TimeoutException` to end a search).
fn is_system_exception(name: &str) -> bool {
    matches!(
        name,
        "Exception"
            | "TimeoutException"
            | "OperationCanceledException"
            | "InvalidOperationException"
            | "ArgumentException"
            | "SystemException"
    )
}

/// The error for a type name the port does not know.
fn unknown_type(name: &str, span: Span) -> PortError {
    let why = match name {
        "Hashtable" | "OrderedDictionary" | "ArrayList" => {
            " (a non-generic collection: its keys and values are `object`s, which the port has no type for)"
        }
        "Vector" => {
            " (`System.Numerics.Vector<T>`: its `Count`, the elements it holds, is the machine's SIMD width, so a port would compute what one machine's .NET does and not another's)"
        }
        _ => "",
    };
    unsupported(span, format!("the type `{name}`{why}"), name)
}
