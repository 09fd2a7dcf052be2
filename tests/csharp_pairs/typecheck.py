#!/usr/bin/env python3
"""Type-checks the C# bots of this folder against api_stub.cs with Mono's `mcs`.

`mcs` (Debian's mono-mcs) knows C# up to 7.x but not local functions, which the golfed
and PVS bots use as real entries do (a search inside Think sees the board and the timer).
So each local function is rewritten, for the check only, as a delegate of the same
signature that the function's body is assigned to (`Func<int, int> F = null; F = (int x)
=> { ... };`): the same names, types and calls, so the compiler still checks every use
of the API, every expression and every call. Statement order is kept, so a local
function must be declared before it is first called (the bots are written that way).

Usage: typecheck.py [FILE.cs...]   (default: pvs.cs plain.cs golf.cs); needs `mcs`.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = re.compile(r"^(\s{8,})(int|bool|void|ulong|double|Move) (\w+)\(([^)]*)\)\s*$")


def delegate_type(result, params):
    types = [p.split()[0] for p in params.split(",") if p.strip()]
    if result == "void":
        return "Action" + (f"<{', '.join(types)}>" if types else "")
    return f"Func<{', '.join(types + [result])}>"


def rewrite(src):
    lines = src.split("\n")
    out = []
    closing = {}
    for i, line in enumerate(lines):
        m = HEADER.match(line)
        if m and i + 1 < len(lines) and lines[i + 1].strip() == "{":
            indent, result, name, params = m.groups()
            out.append(f"{indent}{delegate_type(result, params)} {name} = null;")
            out.append(f"{indent}{name} = ({params}) =>")
            end = next(j for j in range(i + 2, len(lines)) if lines[j] == indent + "}")
            closing[end] = indent + "};"
            continue
        out.append(closing.get(i, line))
    return "\n".join(out)


def main(files):
    files = files or ["pvs.cs", "plain.cs", "golf.cs"]
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in files:
            path = os.path.join(HERE, name) if not os.path.isabs(name) else name
            checked = os.path.join(tmp, os.path.basename(path))
            with open(path, encoding="utf-8") as f:
                text = rewrite(f.read())
            with open(checked, "w", encoding="utf-8") as f:
                f.write(text)
            result = subprocess.run(
                ["mcs", "-langversion:7.2", "-target:library", "-warnaserror+", "-nowarn:219",
                 "-out:" + os.path.join(tmp, "bot.dll"), os.path.join(HERE, "api_stub.cs"), checked],
                capture_output=True, text=True)
            ok = result.returncode == 0
            print(f"{name}: {'type-checks' if ok else 'does not type-check'}")
            if not ok:
                print(result.stdout + result.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
