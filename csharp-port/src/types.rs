//! C#'s static types, as far as bots use them, and their Rust spellings.

/// An integer type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntTy {
    /// `sbyte`.
    I8,
    /// `byte`.
    U8,
    /// `short`.
    I16,
    /// `ushort`.
    U16,
    /// `int`.
    I32,
    /// `uint`.
    U32,
    /// `long`.
    I64,
    /// `ulong`.
    U64,
}

impl IntTy {
    /// Its width in bits.
    pub fn bits(self) -> u32 {
        match self {
            IntTy::I8 | IntTy::U8 => 8,
            IntTy::I16 | IntTy::U16 => 16,
            IntTy::I32 | IntTy::U32 => 32,
            IntTy::I64 | IntTy::U64 => 64,
        }
    }

    /// Signed.
    pub fn signed(self) -> bool {
        matches!(self, IntTy::I8 | IntTy::I16 | IntTy::I32 | IntTy::I64)
    }

    /// The Rust type.
    pub fn rust(self) -> &'static str {
        match self {
            IntTy::I8 => "i8",
            IntTy::U8 => "u8",
            IntTy::I16 => "i16",
            IntTy::U16 => "u16",
            IntTy::I32 => "i32",
            IntTy::U32 => "u32",
            IntTy::I64 => "i64",
            IntTy::U64 => "u64",
        }
    }

    /// The smallest and largest value.
    pub fn range(self) -> (i128, i128) {
        let bits = self.bits();
        if self.signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }

    /// `value` wrapped into this type, as C#'s unchecked conversion does.
    pub fn wrap(self, value: i128) -> i128 {
        let bits = self.bits();
        let masked = value & ((1i128 << bits) - 1);
        if self.signed() && masked >= 1i128 << (bits - 1) {
            masked - (1i128 << bits)
        } else {
            masked
        }
    }
}

/// A C# type.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// Not yet known (or an error was reported).
    Unknown,
    /// `void`.
    Void,
    /// `bool`.
    Bool,
    /// An integer type.
    Int(IntTy),
    /// `float`.
    F32,
    /// `double`.
    F64,
    /// `decimal` (the runtime's exact `cs::Decimal`).
    Decimal,
    /// `char`.
    Char,
    /// `string`.
    Str,
    /// `object` (only `null`).
    Object,
    /// The type of `null`.
    Null,
    /// An API struct or class: `Move`, `Square`, `Board`, `Timer`, `Piece`, `PieceList`,
    /// `Random`; or an API enum: `PieceType`.
    Api(&'static str),
    /// An enum of the file's own.
    Enum(String),
    /// A struct or record struct of the file's own.
    Struct(String),
    /// A class of the file's own.
    Class(String),
    /// `T[]` (rank 1) or `T[,]` (rank 2...), and `Span<T>` (a view of one).
    Array(Box<Ty>, u8),
    /// `List<T>`.
    List(Box<Ty>),
    /// `Dictionary<K, V>`, `SortedDictionary<K, V>` or `SortedList<K, V>` (the kind: the
    /// runtime's `cs::` type of that name, with the same members as `cs::Dictionary`).
    Dict(Box<Ty>, Box<Ty>, &'static str),
    /// `HashSet<T>`.
    Set(Box<Ty>),
    /// `Queue<T>`, `Stack<T>`, `PriorityQueue<TElement, TPriority>`, `LinkedList<T>`,
    /// `LinkedListNode<T>`, `SortedSet<T>`, `BitArray`, `IGrouping<TKey, TElement>`,
    /// `IEnumerator<T>`: the runtime's `cs::` type of that name and its
    /// type arguments.
    Coll(&'static str, Vec<Ty>),
    /// `IEnumerable<T>`: a LINQ result (the port computes it at once).
    Seq(Box<Ty>),
    /// `(T1, T2)` with its element names.
    Tuple(Vec<Ty>, Vec<Option<String>>),
    /// `System.Tuple<T1, T2>`: a class holding a value tuple (`cs::Tuple`), nullable and
    /// shared, whose `==` compares references.
    TupleClass(Vec<Ty>),
    /// `T?` of a value type; also a `Random`, array or string the file lets be null
    /// (`Option<T>`: the port's `T` has no null).
    Nullable(Box<Ty>),
    /// `Func<...>`/`Action<...>`/a lambda: parameters and result (`Void` for an action).
    Func(Vec<Ty>, Box<Ty>),
    /// A method group (a method named without a call).
    Method(String),
    /// A generic method's type parameter.
    Param(String),
}

/// Whether `a` and `b` are the same type but for their tuple elements' names.
pub fn same_shape(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Tuple(x, _), Ty::Tuple(y, _)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_shape(p, q))
        }
        (Ty::TupleClass(x), Ty::TupleClass(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_shape(p, q))
        }
        (Ty::Array(x, r), Ty::Array(y, s)) => r == s && same_shape(x, y),
        (Ty::List(x), Ty::List(y))
        | (Ty::Set(x), Ty::Set(y))
        | (Ty::Seq(x), Ty::Seq(y))
        | (Ty::Nullable(x), Ty::Nullable(y)) => same_shape(x, y),
        (Ty::Dict(k, v, x), Ty::Dict(l, w, y)) => x == y && same_shape(k, l) && same_shape(v, w),
        _ => a == b,
    }
}

/// Shorthand: `int`.
pub const INT: Ty = Ty::Int(IntTy::I32);
/// Shorthand: `long`.
pub const LONG: Ty = Ty::Int(IntTy::I64);
/// Shorthand: `ulong`.
pub const ULONG: Ty = Ty::Int(IntTy::U64);

impl Ty {
    /// An integer type's [`IntTy`].
    pub fn int(&self) -> Option<IntTy> {
        match self {
            Ty::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// Integer, `char`, `float`, `double`: a numeric type of C#'s promotions.
    pub fn is_numeric(&self) -> bool {
        matches!(self, Ty::Int(_) | Ty::Char | Ty::F32 | Ty::F64)
    }

    /// An enum (the API's `PieceType` or the file's own).
    pub fn is_enum(&self) -> bool {
        matches!(self, Ty::Enum(_) | Ty::Api("PieceType"))
    }

    /// A reference type of C# (shared, not copied, on assignment).
    pub fn is_reference(&self) -> bool {
        matches!(
            self,
            Ty::Array(..)
                | Ty::List(_)
                | Ty::Dict(..)
                | Ty::Set(_)
                | Ty::Coll(..)
                | Ty::Class(_)
                | Ty::TupleClass(_)
                | Ty::Str
                | Ty::Object
                | Ty::Null
                | Ty::Seq(_)
                | Ty::Func(..)
                | Ty::Api("Board" | "OwnedBoard" | "Timer" | "PieceList" | "Random")
        )
    }

    /// A Rust `Copy` type (as the port spells it), given which structs of the file are.
    pub fn is_copy(&self, copy_struct: &dyn Fn(&str) -> bool) -> bool {
        match self {
            Ty::Bool | Ty::Int(_) | Ty::F32 | Ty::F64 | Ty::Char | Ty::Enum(_) => true,
            Ty::Api(name) => matches!(
                *name,
                "Move"
                    | "Square"
                    | "Piece"
                    | "PieceType"
                    | "BigInteger"
                    | "DateTime"
                    | "TimeSpan"
                    | "Vector2"
                    | "Exception"
            ),
            Ty::Struct(name) => copy_struct(name),
            Ty::Tuple(items, _) => items.iter().all(|t| t.is_copy(copy_struct)),
            Ty::Nullable(inner) => inner.is_copy(copy_struct),
            _ => false,
        }
    }

    /// The element type of a collection a `foreach` can walk.
    pub fn element(&self) -> Option<Ty> {
        match self {
            Ty::Array(e, _) | Ty::List(e) | Ty::Set(e) | Ty::Seq(e) => Some((**e).clone()),
            Ty::Coll("Queue" | "Stack" | "LinkedList" | "SortedSet", args) => args.first().cloned(),
            Ty::Coll("IGrouping", args) => args.get(1).cloned(),
            Ty::Dict(k, v, _) => Some(Ty::Tuple(
                vec![(**k).clone(), (**v).clone()],
                vec![Some("Key".into()), Some("Value".into())],
            )),
            Ty::Api("PieceList") => Some(Ty::Api("Piece")),
            Ty::Str => Some(Ty::Char),
            _ => None,
        }
    }

    /// How C# names it, for messages.
    pub fn cs(&self) -> String {
        match self {
            Ty::Unknown => "?".into(),
            Ty::Void => "void".into(),
            Ty::Bool => "bool".into(),
            Ty::Int(i) => cs_int(*i).into(),
            Ty::F32 => "float".into(),
            Ty::F64 => "double".into(),
            Ty::Decimal => "decimal".into(),
            Ty::Char => "char".into(),
            Ty::Str => "string".into(),
            Ty::Object => "object".into(),
            Ty::Null => "null".into(),
            // The port's type of a board made by `Board.CreateBoardFromFEN`.
            Ty::Api("OwnedBoard") => "Board".into(),
            Ty::Api(n) => (*n).into(),
            Ty::Enum(n) | Ty::Struct(n) | Ty::Class(n) | Ty::Method(n) | Ty::Param(n) => n.clone(),
            Ty::Array(..) => {
                // C# writes the outermost rank first: `byte[,][]` is a grid of `byte[]`.
                let (mut ranks, mut base) = (String::new(), self);
                while let Ty::Array(e, r) = base {
                    ranks += &format!("[{}]", ",".repeat(*r as usize - 1));
                    base = e;
                }
                format!("{}{ranks}", base.cs())
            }
            Ty::List(e) => format!("List<{}>", e.cs()),
            Ty::Dict(k, v, kind) => format!("{kind}<{}, {}>", k.cs(), v.cs()),
            Ty::Set(e) => format!("HashSet<{}>", e.cs()),
            Ty::Coll(name, args) if args.is_empty() => (*name).to_string(),
            Ty::Coll(name, args) => {
                let args: Vec<String> = args.iter().map(Ty::cs).collect();
                format!("{name}<{}>", args.join(", "))
            }
            Ty::Seq(e) => format!("IEnumerable<{}>", e.cs()),
            Ty::Tuple(items, _) => {
                let items: Vec<String> = items.iter().map(Ty::cs).collect();
                format!("({})", items.join(", "))
            }
            Ty::TupleClass(items) => {
                let items: Vec<String> = items.iter().map(Ty::cs).collect();
                format!("Tuple<{}>", items.join(", "))
            }
            Ty::Nullable(e) => format!("{}?", e.cs()),
            Ty::Func(params, ret) => {
                let params: Vec<String> = params.iter().map(Ty::cs).collect();
                format!("Func<{}, {}>", params.join(", "), ret.cs())
            }
        }
    }
}

fn cs_int(i: IntTy) -> &'static str {
    match i {
        IntTy::I8 => "sbyte",
        IntTy::U8 => "byte",
        IntTy::I16 => "short",
        IntTy::U16 => "ushort",
        IntTy::I32 => "int",
        IntTy::U32 => "uint",
        IntTy::I64 => "long",
        IntTy::U64 => "ulong",
    }
}

/// C#'s binary numeric promotion (ECMA-334 12.4.7.3) of two numeric operand types; `None`
/// where C# has no operator (`long` with `ulong`), which a constant operand may still
/// satisfy (the checker handles constants).
pub fn promote(a: &Ty, b: &Ty) -> Option<Ty> {
    use IntTy::*;
    let norm = |t: &Ty| match t {
        Ty::Char => Some(Ty::Int(U16)),
        Ty::Int(_) | Ty::F32 | Ty::F64 | Ty::Decimal => Some(t.clone()),
        _ => None,
    };
    let (a, b) = (norm(a)?, norm(b)?);
    // C# has no implicit conversion between `decimal` and `float` or `double`.
    if a == Ty::Decimal || b == Ty::Decimal {
        return (!matches!((&a, &b), (Ty::F32 | Ty::F64, _) | (_, Ty::F32 | Ty::F64)))
            .then_some(Ty::Decimal);
    }
    if a == Ty::F64 || b == Ty::F64 {
        return Some(Ty::F64);
    }
    if a == Ty::F32 || b == Ty::F32 {
        return Some(Ty::F32);
    }
    let (x, y) = (a.int()?, b.int()?);
    if x == U64 || y == U64 {
        return if x.signed() || y.signed() {
            None
        } else {
            Some(Ty::Int(U64))
        };
    }
    if x == I64 || y == I64 {
        return Some(Ty::Int(I64));
    }
    if x == U32 || y == U32 {
        let other = if x == U32 { y } else { x };
        return Some(if other.signed() {
            Ty::Int(I64)
        } else {
            Ty::Int(U32)
        });
    }
    Some(Ty::Int(I32))
}

/// Whether C# converts `from` to `to` implicitly (ECMA-334 10.2.3, implicit numeric
/// conversions), for numeric types.
pub fn implicit_numeric(from: &Ty, to: &Ty) -> bool {
    use IntTy::*;
    if from == to {
        return true;
    }
    match (from, to) {
        (Ty::Int(_) | Ty::Char, Ty::F32 | Ty::F64 | Ty::Decimal) => true,
        (Ty::F32, Ty::F64) => true,
        (Ty::Char, Ty::Int(t)) => matches!(t, U16 | I32 | U32 | I64 | U64),
        (Ty::Int(f), Ty::Int(t)) => match f {
            I8 => matches!(t, I16 | I32 | I64),
            U8 => matches!(t, I16 | U16 | I32 | U32 | I64 | U64),
            I16 => matches!(t, I32 | I64),
            U16 => matches!(t, I32 | U32 | I64 | U64),
            I32 => *t == I64,
            U32 => matches!(t, I64 | U64),
            I64 | U64 => false,
        },
        _ => false,
    }
}

/// C#'s keywords and `System` names for the built-in types.
pub(crate) fn predefined(name: &str) -> Option<Ty> {
    Some(match name {
        "int" | "Int32" => Ty::Int(IntTy::I32),
        "uint" | "UInt32" => Ty::Int(IntTy::U32),
        "long" | "Int64" => Ty::Int(IntTy::I64),
        "ulong" | "UInt64" => Ty::Int(IntTy::U64),
        "short" | "Int16" => Ty::Int(IntTy::I16),
        "ushort" | "UInt16" => Ty::Int(IntTy::U16),
        "byte" | "Byte" => Ty::Int(IntTy::U8),
        "sbyte" | "SByte" => Ty::Int(IntTy::I8),
        "bool" | "Boolean" => Ty::Bool,
        "double" | "Double" => Ty::F64,
        "float" | "Single" => Ty::F32,
        "decimal" | "Decimal" => Ty::Decimal,
        "char" | "Char" => Ty::Char,
        "string" | "String" => Ty::Str,
        "void" | "Void" => Ty::Void,
        _ => return None,
    })
}

/// C#'s unary numeric promotion: `byte`, `short`, `char` become `int`.
pub(crate) fn unary_promote(t: &Ty) -> Option<Ty> {
    match t {
        Ty::Int(IntTy::I8 | IntTy::U8 | IntTy::I16 | IntTy::U16) | Ty::Char => {
            Some(Ty::Int(IntTy::I32))
        }
        Ty::Int(_) | Ty::F32 | Ty::F64 | Ty::Decimal => Some(t.clone()),
        Ty::Enum(_) | Ty::Api("PieceType") => Some(Ty::Int(IntTy::I32)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotions_follow_csharp() {
        use IntTy::*;
        let p = |a, b| promote(&Ty::Int(a), &Ty::Int(b));
        assert_eq!(p(U8, U8), Some(Ty::Int(I32)));
        assert_eq!(p(I32, U32), Some(Ty::Int(I64)));
        assert_eq!(p(U16, U32), Some(Ty::Int(U32)));
        assert_eq!(p(I64, U64), None);
        assert_eq!(p(U32, U64), Some(Ty::Int(U64)));
        assert_eq!(promote(&Ty::Int(I64), &Ty::F32), Some(Ty::F32));
    }

    #[test]
    fn wrapping_is_twos_complement() {
        assert_eq!(IntTy::I32.wrap(1 << 31), -(1 << 31));
        assert_eq!(IntTy::U8.wrap(-1), 255);
        assert_eq!(IntTy::I16.wrap(40000), 40000 - 65536);
    }
}
