//! The file's declarations, indexed: its types, their fields and methods with C# and Rust
//! names and types, and which class is the bot.

use std::collections::{HashMap, HashSet};

use super::names::{camel, fresh, screaming, snake};
use super::{R, unsupported};
use crate::ast::*;
use crate::error::{PortError, Span};
use crate::types::{IntTy, Ty};

/// A field (or auto property, or constant).
#[derive(Debug, Clone)]
pub(crate) struct FieldInfo {
    /// The C# name.
    pub cs: String,
    /// The Rust name (a field, or a `const` item's).
    pub rust: String,
    /// The declared type (`Unknown` until inferred for `var`-like constants).
    pub ty: Ty,
    /// `static` (it lives in the bot's struct).
    pub is_static: bool,
    /// `const` (a Rust `const` item).
    pub is_const: bool,
    /// Index of the declaring type.
    pub owner: usize,
    /// Where its declaration is: (type index, member index, variable index).
    pub at: (usize, usize, usize),
    /// Where.
    pub span: Span,
}

/// A method, constructor or property getter.
#[derive(Debug, Clone)]
pub(crate) struct MethodInfo {
    /// The C# name.
    pub cs: String,
    /// The Rust name.
    pub rust: String,
    /// A key unique in the file.
    pub key: String,
    /// Parameter types and modes.
    pub params: Vec<(Ty, PassMode, bool)>,
    /// The return type.
    pub ret: Ty,
    /// Returns by `ref`.
    pub ret_ref: bool,
    /// `static` (a method of the bot's struct).
    pub is_static: bool,
    /// A property getter.
    pub is_property: bool,
    /// Index of the declaring type.
    pub owner: usize,
    /// Its member index in the type.
    pub member: usize,
    /// Generic parameters.
    pub type_params: Vec<String>,
    /// The parameters' default values.
    pub defaults: Vec<Option<Expr>>,
}

/// One of the file's types.
#[derive(Debug)]
pub(crate) struct TypeInfo {
    /// The C# name.
    pub cs: String,
    /// The Rust name (`MyBot` for the bot).
    pub rust: String,
    /// Class, struct, record or enum.
    pub kind: TypeKind,
    /// Its fields.
    pub fields: Vec<FieldInfo>,
    /// Its methods.
    pub methods: Vec<MethodInfo>,
    /// An enum's members and values, and its underlying type.
    pub enum_values: Vec<(String, i128)>,
    /// An enum's underlying type.
    pub enum_repr: IntTy,
}

/// The whole file's declarations.
pub(crate) struct Program<'u> {
    /// The parsed file.
    pub unit: &'u Unit,
    /// Its types, in the unit's order.
    pub types: Vec<TypeInfo>,
    /// The index of the bot class.
    pub bot: usize,
    by_name: HashMap<String, usize>,
    /// `using static` classes (`Math`, `BitboardHelper`).
    pub using_static: Vec<String>,
}

impl<'u> Program<'u> {
    /// Indexes `unit`.
    pub(crate) fn build(unit: &'u Unit, src: &str) -> R<Program<'u>> {
        let bot = unit
            .types
            .iter()
            .position(|t| {
                t.bases
                    .iter()
                    .any(|b| matches!(b, TypeRef::Named(n, _) if n == "IChessBot"))
            })
            .ok_or_else(|| {
                PortError::typing(
                    Span { line: 1, column: 1 },
                    "no class implements `IChessBot`",
                    src.lines().next().unwrap_or(""),
                )
            })?;
        let mut taken_types: HashSet<String> = [
            "MyBot",
            "Board",
            "Move",
            "Square",
            "Timer",
            "Bot",
            "Piece",
            "PieceType",
            "Color",
            "Bitboard",
            "Table",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut program = Program {
            unit,
            types: Vec::new(),
            bot,
            by_name: HashMap::new(),
            using_static: unit
                .using_static
                .iter()
                .map(|u| u.rsplit('.').next().unwrap_or(u).to_string())
                .collect(),
        };
        for (i, t) in unit.types.iter().enumerate() {
            let rust = if i == bot {
                "MyBot".to_string()
            } else {
                fresh(camel(&t.name), &mut taken_types)
            };
            if program.by_name.insert(t.name.clone(), i).is_some() {
                return Err(unsupported(t.span, "two types of the same name", &t.name));
            }
            program.types.push(TypeInfo {
                cs: t.name.clone(),
                rust,
                kind: t.kind,
                fields: Vec::new(),
                methods: Vec::new(),
                enum_values: Vec::new(),
                enum_repr: IntTy::I32,
            });
        }
        for i in 0..unit.types.len() {
            program.index_members(i, src)?;
        }
        program.rename_bot_level();
        Ok(program)
    }

    fn index_members(&mut self, i: usize, src: &str) -> R<()> {
        let decl = &self.unit.types[i];
        if decl.kind == TypeKind::Enum {
            return self.index_enum(i);
        }
        let mut field_names: HashSet<String> = HashSet::new();
        let mut method_names: HashSet<String> = HashSet::new();
        let mut fields = Vec::new();
        let mut methods = Vec::new();
        let mut overloads: HashMap<String, usize> = HashMap::new();
        for (m, member) in decl.members.iter().enumerate() {
            match member {
                Member::Field(f) => {
                    let declared = self.resolve(&f.ty, &[], f.span)?;
                    for (v, (name, init, span)) in f.vars.iter().enumerate() {
                        let in_bot = i == self.bot || f.is_static;
                        let ty =
                            nullable_field(declared.clone(), in_bot, init.is_none(), name, src);
                        let rust = if f.is_const {
                            screaming(name)
                        } else {
                            snake(name)
                        };
                        fields.push(FieldInfo {
                            cs: name.clone(),
                            rust: fresh(rust, &mut field_names),
                            ty: ty.clone(),
                            is_static: f.is_static || f.is_const,
                            is_const: f.is_const,
                            owner: i,
                            at: (i, m, v),
                            span: *span,
                        });
                    }
                }
                Member::Method(md) => {
                    let n = overloads.entry(md.name.clone()).or_insert(0);
                    *n += 1;
                    let base = if md.name == ".ctor" {
                        "construct".to_string()
                    } else {
                        snake(&md.name)
                    };
                    let rust = fresh(base, &mut method_names);
                    let key = format!("{}.{}#{}", decl.name, md.name, n);
                    methods.push(self.method_info(md, i, m, rust, key)?);
                }
                Member::Comment(_) => {}
            }
        }
        self.types[i].fields = fields;
        self.types[i].methods = methods;
        Ok(())
    }

    /// Static members of other types live in the bot's struct: give each a Rust name no
    /// member of the bot has (the bot's own names come first).
    fn rename_bot_level(&mut self) {
        let bot = self.bot;
        let mut fields: HashSet<String> = self.types[bot]
            .fields
            .iter()
            .map(|f| f.rust.clone())
            .collect();
        let mut methods: HashSet<String> = self.types[bot]
            .methods
            .iter()
            .map(|m| m.rust.clone())
            .collect();
        for t in 0..self.types.len() {
            if t == bot {
                continue;
            }
            let prefix = snake(&self.types[t].cs);
            for f in self.types[t].fields.iter_mut().filter(|f| f.is_static) {
                if fields.contains(&f.rust) {
                    f.rust = if f.is_const {
                        format!("{}_{}", prefix.to_uppercase(), f.rust)
                    } else {
                        format!("{prefix}_{}", f.rust)
                    };
                }
                f.rust = fresh(f.rust.clone(), &mut fields);
            }
            for m in self.types[t].methods.iter_mut().filter(|m| m.is_static) {
                if methods.contains(&m.rust) {
                    m.rust = format!("{prefix}_{}", m.rust);
                }
                m.rust = fresh(m.rust.clone(), &mut methods);
            }
        }
    }

    /// The info of a method or local function.
    pub(crate) fn method_info(
        &self,
        md: &MethodDecl,
        owner: usize,
        member: usize,
        rust: String,
        key: String,
    ) -> R<MethodInfo> {
        let tps = &md.type_params;
        let mut params = Vec::new();
        for p in &md.params {
            params.push((
                self.param_ty(&p.ty, tps, p.span)?,
                p.mode,
                p.default.is_some(),
            ));
        }
        if self.object_compare_to(md, owner) {
            params[0].0 = Ty::Class(self.unit.types[owner].name.clone());
        }
        Ok(MethodInfo {
            cs: md.name.clone(),
            rust,
            key,
            params,
            ret: self.resolve(&md.ret, tps, md.span)?,
            ret_ref: md.ret_ref,
            is_static: md.is_static,
            is_property: md.is_property,
            owner,
            member,
            type_params: tps.clone(),
            defaults: md.params.iter().map(|p| p.default.clone()).collect(),
        })
    }

    /// `int CompareTo(object obj)` of a class implementing the non-generic `IComparable`:
    /// its parameter as the class itself. The port has no other `object` values, so every
    /// call passes an instance of the class or `null` (a sort, or `a.CompareTo(b)`), and
    /// `obj as C` of one is the value itself.
    fn object_compare_to(&self, md: &MethodDecl, owner: usize) -> bool {
        let decl = &self.unit.types[owner];
        md.name == "CompareTo"
            && !md.is_static
            && md.params.len() == 1
            && md.params[0].mode == PassMode::Value
            && matches!(&md.params[0].ty, TypeRef::Named(n, a) if a.is_empty() && (n == "object" || n == "Object"))
            && decl.kind == TypeKind::Class
            && decl
                .bases
                .contains(&TypeRef::Named("IComparable".into(), Vec::new()))
    }

    fn index_enum(&mut self, i: usize) -> R<()> {
        let decl = &self.unit.types[i];
        let repr = match decl.bases.first() {
            Some(TypeRef::Named(n, _)) => match crate::types::predefined(n) {
                Some(Ty::Int(int)) => int,
                _ => return Err(unsupported(decl.span, "an enum's base type", n)),
            },
            _ => IntTy::I32,
        };
        let mut next = 0i128;
        let mut values = Vec::new();
        for (name, value) in &decl.enum_members {
            if let Some(v) = value {
                next = match &v.kind {
                    ExprKind::Int(n, _) => *n as i128,
                    ExprKind::Unary(UnOp::Neg, inner) => match inner.kind {
                        ExprKind::Int(n, _) => -(n as i128),
                        _ => {
                            return Err(unsupported(
                                v.span,
                                "an enum value that is not a number",
                                "",
                            ));
                        }
                    },
                    _ => {
                        return Err(unsupported(
                            v.span,
                            "an enum value that is not a number",
                            "",
                        ));
                    }
                };
            }
            values.push((name.clone(), next));
            next += 1;
        }
        self.types[i].enum_values = values;
        self.types[i].enum_repr = repr;
        Ok(())
    }

    /// The type `name` of the file's own.
    pub(crate) fn own_type(&self, name: &str) -> Option<Ty> {
        let &i = self.by_name.get(name)?;
        Some(match self.types[i].kind {
            TypeKind::Enum => Ty::Enum(name.to_string()),
            TypeKind::Struct => Ty::Struct(name.to_string()),
            TypeKind::Class | TypeKind::Record => Ty::Class(name.to_string()),
        })
    }

    /// Whether `name` is a class of the file's own, other than the bot, whose instances
    /// the port makes (`cs::Obj`).
    /// A parameter's type. A `Timer?` parameter stays `Timer?`: the port's one timer
    /// is the bot's, so the parameter carries only whether it is null (a `bool`).
    fn param_ty(&self, t: &TypeRef, tps: &[String], span: Span) -> R<Ty> {
        let ty = self.resolve(t, tps, span)?;
        Ok(match t {
            TypeRef::Nullable(_) if ty == Ty::Api("Timer") => Ty::Nullable(Box::new(ty)),
            _ => ty,
        })
    }

    pub(crate) fn is_ref_class(&self, name: &str) -> bool {
        self.type_index(name)
            .is_some_and(|i| i != self.bot && self.types[i].kind == TypeKind::Class)
    }

    /// The index of the type `name` of the file's own.
    pub(crate) fn type_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// An enum's underlying type.
    pub(crate) fn enum_repr(&self, name: &str) -> IntTy {
        self.type_index(name)
            .map_or(IntTy::I32, |i| self.types[i].enum_repr)
    }

    /// The Rust name of a type of the file's own.
    pub(crate) fn rust_type_name(&self, name: &str) -> String {
        self.type_index(name)
            .map_or_else(|| name.to_string(), |i| self.types[i].rust.clone())
    }

    /// The Rust name of an enum member's constant: `Bound.Exact` -> `BOUND_EXACT`.
    pub(crate) fn enum_const(&self, enum_name: &str, member: &str) -> String {
        format!("{}_{}", screaming(enum_name), screaming(member))
    }

    /// The field `name` of type `t`, with its type's index.
    pub(crate) fn field(&self, t: usize, name: &str) -> Option<&FieldInfo> {
        self.types[t].fields.iter().find(|f| f.cs == name)
    }

    /// The methods called `name` of type `t`.
    pub(crate) fn methods(&self, t: usize, name: &str) -> Vec<&MethodInfo> {
        self.types[t]
            .methods
            .iter()
            .filter(|m| m.cs == name && m.cs != ".ctor")
            .collect()
    }

    /// The declaration of a method.
    pub(crate) fn method_decl(&self, m: &MethodInfo) -> &'u MethodDecl {
        match &self.unit.types[m.owner].members[m.member] {
            Member::Method(md) => md,
            _ => unreachable!("a method's member is a method"),
        }
    }

    /// The declaration of a field's variable: its type and initialiser.
    pub(crate) fn field_decl(&self, f: &FieldInfo) -> (&'u FieldDecl, Option<&'u Expr>) {
        match &self.unit.types[f.at.0].members[f.at.1] {
            Member::Field(fd) => (fd, fd.vars[f.at.2].1.as_ref()),
            _ => unreachable!("a field's member is a field"),
        }
    }

    /// Whether values of `t` are Rust `Copy` as the port spells them.
    pub(crate) fn is_copy(&self, t: &Ty) -> bool {
        t.is_copy(&|name| self.struct_is_copy(name, 0))
    }

    fn struct_is_copy(&self, name: &str, depth: u32) -> bool {
        let Some(i) = self.type_index(name) else {
            return false;
        };
        depth < 8
            && self.types[i]
                .fields
                .iter()
                .filter(|f| kept_field(f))
                .all(|f| f.ty.is_copy(&|n| self.struct_is_copy(n, depth + 1)))
    }
}

/// Whether a parameter of type `t` vanishes from Rust signatures.
pub(crate) fn vanishes(t: &Ty) -> bool {
    matches!(t, Ty::Api("Board" | "Timer"))
}

/// A field's type, `T?` for a `Random` or array field the file treats as possibly null
/// (it starts null and is compared with `null`, `??=`'d or set to `null`): C#'s null
/// then differs from every value of the port's `T` (an empty array is not null).
/// A `Random` only where it lives in the bot's struct, whose fields are borrowed in
/// place (a class's `Var` gives copies, and a generator must not be copied).
fn nullable_field(ty: Ty, in_bot: bool, uninit: bool, name: &str, src: &str) -> Ty {
    let candidate = match &ty {
        Ty::Api("Random") => in_bot,
        Ty::Array(..) => true,
        _ => false,
    };
    if candidate && uninit && null_used(src, name) {
        Ty::Nullable(Box::new(ty))
    } else {
        ty
    }
}

/// Whether `name` appears in `src` compared with `null`, `??=`'d or assigned `null`
/// (a scan of the text: an unrelated variable of the same name only makes the field
/// `T?`, which still means what C# does).
pub(crate) fn null_used(src: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(k) = src[from..].find(name) {
        let (at, end) = (from + k, from + k + name.len());
        from = end;
        if src[..at].chars().next_back().is_some_and(ident)
            || src[end..].chars().next().is_some_and(ident)
        {
            continue;
        }
        let after = src[end..].trim_start();
        let before = src[..at].trim_end();
        let null_after = |op: &str| {
            after.strip_prefix(op).is_some_and(|r| {
                let r = r.trim_start();
                r.starts_with("null") && !r[4..].starts_with(ident)
            })
        };
        if null_after("==")
            || null_after("!=")
            || (null_after("=") && !after.starts_with("=="))
            || after.starts_with("??=")
            || before.ends_with("null ==")
            || before.ends_with("null !=")
        {
            return true;
        }
    }
    false
}

/// Whether a type other than the bot keeps field `f` in its own struct: not a static
/// (the bot's struct holds those) nor a board or timer (every one is the bot's).
pub(crate) fn kept_field(f: &FieldInfo) -> bool {
    !f.is_static && !vanishes(&f.ty)
}
