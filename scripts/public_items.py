#!/usr/bin/env python3
"""Public items, lines and the longest file of each library crate in the workspace.

    python3 scripts/public_items.py [ROOT] [--unnamed]

For each library crate (a workspace member with `src/lib.rs`) it prints:
- lines: the lines of its `.rs` files under `src/` (tests and benches of its own excluded);
- exported: the free items (fn, struct, enum, trait, const, static, type, macro) a
  crate's user can name, reached through `pub mod` chains from `lib.rs` or re-exported by
  `pub use`; an item reached twice counts once; modules are counted apart;
- named: how many of those another package of the workspace names (through a path that
  starts with the crate's name, or through a module it imported from the crate);
- per 1k: exported free items per 1,000 lines.
Then the longest `.rs` file of the workspace. With `--unnamed`, it then lists each crate's
exported items that no other package names (each must be documented API, or private).

It reads the source with regular expressions and brace counting, not with rustc, so it
is an estimate: good for comparing one shape with another, measured the same way.
Items under `#[cfg(test)]` are left out.
"""

import re
import sys
import tomllib
from pathlib import Path

ITEM = re.compile(
    r"^\s*pub\s+(?:(?:const\s+|async\s+|unsafe\s+|extern\s+\"C\"\s+)*fn|struct|enum|trait|const|static|type|union)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
PUB_MOD = re.compile(r"^\s*(pub\s+)?mod\s+([a-z_][a-z0-9_]*)\s*([;{])")
PUB_USE = re.compile(r"(?:^|(?<=[;}\]]))\s*pub\s+use\s+([^;]+);")
MACRO = re.compile(r"^\s*#\[macro_export\]\s*macro_rules!\s*([A-Za-z_][A-Za-z0-9_]*)", re.M)


def strip(text):
    """The text without comments, strings and char literals (same length, same lines)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1]))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]):
            m = re.match(r"'(\\.|[^\\'])'", text[i:i + 4])
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def top_level(text):
    """The module's own lines (brace depth 0), with `#[cfg(test)]` items and the bodies of
    inline modules dropped; inline `mod name {` lines are kept."""
    lines, depth, skip_from = [], 0, None
    pending_test = in_use = False
    for line in text.splitlines():
        if in_use:
            lines.append(line)
            in_use = ";" not in line
            continue
        at_top = depth == 0 and skip_from is None
        if at_top and re.match(r"\s*(pub\s+)?use\s", line) and ";" not in line and not pending_test:
            lines.append(line)
            in_use = True
            continue
        if at_top and re.match(r"\s*#\[cfg\(test\)\]", line):
            pending_test = True
        elif at_top:
            if pending_test and line.strip() and not line.strip().startswith("#["):
                if "{" in line and line.count("{") > line.count("}"):
                    skip_from = depth
                pending_test = False
            else:
                lines.append(line)
        depth += line.count("{") - line.count("}")
        if skip_from is not None and depth <= skip_from:
            skip_from = None
    return "\n".join(lines)


class Module:
    def __init__(self, path, file, public):
        self.path, self.file, self.public = path, file, public
        self.items, self.children, self.uses = {}, {}, []


def load(file, path, public, modules):
    module = Module(path, file, public)
    modules[path] = module
    text = top_level(strip(file.read_text()))
    for m in MACRO.finditer(text):
        module.items[m.group(1)] = "macro"
    for line in text.splitlines():
        if m := ITEM.match(line):
            module.items[m.group(1)] = "item"
    for m in PUB_USE.finditer(text.replace("\n", " ")):
        module.uses.append(m.group(1))
    base = file.parent if file.name in ("lib.rs", "mod.rs") else file.with_suffix("")
    for line in text.splitlines():
        m = PUB_MOD.match(line)
        if not m or m.group(3) != ";":
            continue
        name = m.group(2)
        child = base / f"{name}.rs"
        if not child.exists():
            child = base / name / "mod.rs"
        if child.exists():
            module.children[name] = load(child, path + (name,), public and bool(m.group(1)), modules)
    return module


def use_leaves(tree, prefix=()):
    """(path, exported name) pairs of a `use` tree: `a::{b, c::d as e}`."""
    tree = tree.strip()
    if "{" not in tree:
        parts = [p.strip() for p in tree.split(" as ")]
        segs = tuple(s for s in parts[0].split("::") if s)
        full = prefix + segs
        if not full or full == ("self",):
            return []
        name = parts[1] if len(parts) > 1 else (full[-2] if full[-1] == "self" else full[-1])
        return [(full, name)]
    head, body = tree.split("{", 1)
    head_segs = tuple(s for s in head.strip().rstrip(":").split("::") if s)
    body = body.rsplit("}", 1)[0]
    out, depth, cur = [], 0, ""
    for ch in body + ",":
        if ch == "," and depth == 0:
            if cur.strip():
                out += use_leaves(cur, prefix + head_segs)
            cur = ""
            continue
        depth += (ch == "{") - (ch == "}")
        cur += ch
    return out


def resolve(modules, here, path, seen=0):
    """The (module path, item name) a `use` path names inside the crate, or None."""
    if seen > 8 or not path:
        return None
    segs = list(path)
    if segs[0] == "crate":
        at, segs = (), segs[1:]
    elif segs[0] in ("self", "super"):
        at = here
        while segs and segs[0] in ("self", "super"):
            at = at[:-1] if segs.pop(0) == "super" else at
    elif segs[0] in modules[here].children:
        at = here
    else:
        return None
    for seg in segs[:-1]:
        if at + (seg,) not in modules:
            return None
        at = at + (seg,)
    last = segs[-1] if segs else None
    if last in (None, "self") or at + (last,) in modules and last not in modules[at].items:
        return ("module", at + ((last,) if last not in (None, "self") else ()))
    if last in modules[at].items:
        return (at, last)
    for tree in modules[at].uses + private_uses(modules[at]):
        for p, name in use_leaves(tree):
            if name == last:
                return resolve(modules, at, p, seen + 1)
    return None


def private_uses(module):
    text = top_level(strip(module.file.read_text())).replace("\n", " ")
    return [m.group(1) for m in re.finditer(r"(?:^|[;}\s])use\s+([^;]+);", text)]


def exported(modules):
    """Free items and modules a user of the crate can name."""
    items, mods = set(), {p for p, m in modules.items() if m.public and p}
    for path, module in modules.items():
        if not module.public:
            continue
        for name in module.items:
            items.add((path, name))
        for tree in module.uses:
            for p, name in use_leaves(tree):
                target = resolve(modules, path, p)
                if target is None:
                    items.add((("extern",) + p[:-1], p[-1]))
                elif target[0] == "module":
                    mods.add(target[1])
                else:
                    items.add(target)
    return items, mods


def named_outside(root, crate, own_dirs):
    """Identifiers other packages name through the crate: every segment of a path that
    starts with the crate's name, and `M::x` for a module `M` they imported from it."""
    names = set()
    ident = crate.replace("-", "_")
    for file in root.rglob("*.rs"):
        if "target" in file.parts or any(d in file.parents for d in own_dirs):
            continue
        text = strip(file.read_text(errors="replace"))
        if ident + "::" not in text:
            continue
        aliases = set()
        for m in re.finditer(r"\buse\s+" + ident + r"::([^;]+);", text, re.S):
            for p, name in use_leaves(m.group(1).replace("\n", " ")):
                names.update(s for s in p if s != "self")
                names.add(name)
                if name.isidentifier():
                    aliases.add(name)
        for m in re.finditer(r"\b" + ident + r"((?:::[A-Za-z_][A-Za-z0-9_]*)+)", text):
            names.update(s for s in m.group(1).split("::") if s)
        for alias in aliases:
            for m in re.finditer(r"\b" + alias + r"::([A-Za-z_][A-Za-z0-9_]*)", text):
                names.add(m.group(1))
    return names


def crates(root):
    manifest = tomllib.loads((root / "Cargo.toml").read_text())
    for member in manifest["workspace"]["members"]:
        lib = root / member / "src" / "lib.rs"
        if lib.exists():
            package = tomllib.loads((root / member / "Cargo.toml").read_text())["package"]["name"]
            yield package, root / member


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    list_unnamed = "--unnamed" in sys.argv[1:]
    root = Path(args[0] if args else ".").resolve()
    members = list(crates(root))
    unnamed = {}
    print(f"{'crate':<14} {'lines':>6} {'exported':>8} {'named':>6} {'per 1k':>6} {'pub mods':>8}")
    total = [0, 0, 0]
    for package, folder in members:
        # A crate's own sources: its src/, less the folders of crates nested in it.
        nested = [f for _, f in members if f != folder and folder in f.parents]
        files = [f for f in (folder / "src").rglob("*.rs") if not any(n in f.parents for n in nested)]
        lines = sum(len(f.read_text().splitlines()) for f in files)
        modules = {}
        load(folder / "src" / "lib.rs", (), True, modules)
        items, mods = exported(modules)
        free = {i for i in items if i[0][:1] != ("extern",)}
        seen = named_outside(root, package, [folder / "src"])
        named = sum(1 for _, name in free if name in seen)
        unnamed[package] = sorted("::".join(path + (name,)) for path, name in free if name not in seen)
        total = [total[0] + lines, total[1] + len(free), total[2] + named]
        print(f"{package:<14} {lines:>6} {len(free):>8} {named:>6} {1000 * len(free) / max(lines, 1):>6.1f} {len(mods):>8}")
    print(f"{'all':<14} {total[0]:>6} {total[1]:>8} {total[2]:>6}")
    sources = [f for f in root.rglob("*.rs") if "target" not in f.relative_to(root).parts]
    longest = max(sources, key=lambda f: len(f.read_text().splitlines()))
    print(f"longest file: {longest.relative_to(root)} ({len(longest.read_text().splitlines())} lines)")
    if list_unnamed:
        for package, names in unnamed.items():
            print(f"{package}: {', '.join(names) if names else '(none)'}")


if __name__ == "__main__":
    main()
