#!/usr/bin/env python3
"""Times how long rust-analyzer takes to show the first error in a bot file, as an editor
would see it: the folder opened as the editor's workspace, then the file opened.

It starts `rust-analyzer` (the language server, over stdin/stdout), opens FOLDER as the
workspace, opens FILE with an error planted in it (a call to a method `Board` does not have,
appended to the file) and saves it, as an author who just typed it would, and waits for
the first `publishDiagnostics` of FILE with an error: rust-analyzer's own, or cargo
check's, which it runs on save. It prints the seconds from the start of the server to
that diagnostic, and the diagnostic. The file is put back as it was at the end.

Usage: scripts/ra_first_diagnostic.py FOLDER FILE [--timeout SECONDS]
  FOLDER  the folder opened in the editor (the kit's checkout, or a `challenge new` folder)
  FILE    the bot file to open (`bot/my_bot.rs`)

Exit code 0 when the error was shown, 1 when the time ran out first. Run it after
README's first command (`cargo run --release -- match`), as a bot author would open an
editor; rust-analyzer's own caches (`target/` of the workspace it loads) count as they
would for them.
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

# Appended to the bot: a function that calls a method `Board` does not have (rust-analyzer's
# own diagnostic E0599, and rustc's, on the line it is written).
PLANTED = "\nfn planted(board: &Board) {\n    board.legal_movez();\n}\n"


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(stream):
    """The next message from the server, or None at the end of its output."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(stream.read(length))


def answer(proc, message):
    """Answers the server's requests as a plain editor does: no settings, yes to the rest."""
    method = message.get("method")
    if method == "workspace/configuration":
        result = [None for _ in message["params"]["items"]]
    else:
        result = None
    send(proc, {"jsonrpc": "2.0", "id": message["id"], "result": result})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("file", type=Path)
    parser.add_argument("--timeout", type=float, default=1800.0)
    args = parser.parse_args()
    folder, file = args.folder.resolve(), args.file.resolve()
    original = file.read_text()
    text = original + PLANTED
    planted_line = text.count("\n", 0, text.index("legal_movez"))
    file.write_text(text)
    try:
        return measure(folder, file, text, planted_line, args.timeout)
    finally:
        file.write_text(original)


def measure(folder, file, text, planted_line, timeout):
    """Runs the server until FILE shows an error; the exit code."""
    start = time.monotonic()
    proc = subprocess.Popen(
        ["rust-analyzer"],
        cwd=folder,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    messages = []
    done = threading.Event()

    def read():
        while (message := receive(proc.stdout)) is not None:
            messages.append(message)
            done.set()
        done.set()

    threading.Thread(target=read, daemon=True).start()
    send(proc, {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "processId": os.getpid(),
            "rootUri": folder.as_uri(),
            "workspaceFolders": [{"uri": folder.as_uri(), "name": folder.name}],
            "capabilities": {
                "textDocument": {"publishDiagnostics": {}},
                "window": {"workDoneProgress": True},
                "workspace": {"configuration": True},
            },
        },
    })
    sent_open = False
    seen = 0
    while time.monotonic() - start < timeout:
        done.wait(1.0)
        done.clear()
        while seen < len(messages):
            message = messages[seen]
            seen += 1
            if "id" in message and "method" in message:
                answer(proc, message)
            elif message.get("id") == 1 and not sent_open:
                send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
                send(proc, {
                    "jsonrpc": "2.0", "method": "textDocument/didOpen",
                    "params": {"textDocument": {
                        "uri": file.as_uri(), "languageId": "rust", "version": 1, "text": text,
                    }},
                })
                send(proc, {
                    "jsonrpc": "2.0", "method": "textDocument/didSave",
                    "params": {"textDocument": {"uri": file.as_uri()}},
                })
                sent_open = True
            elif message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                errors = [d for d in params["diagnostics"] if d.get("severity") == 1]
                if params["uri"] == file.as_uri() and errors:
                    seconds = time.monotonic() - start
                    first = errors[0]
                    print(f"{seconds:.1f} s: {file.name}:{first['range']['start']['line'] + 1}: "
                          f"{first['message'].splitlines()[0]}"
                          f" (planted on line {planted_line + 1})")
                    proc.kill()
                    return 0
        if proc.poll() is not None:
            break
    proc.kill()
    print(f"no error shown in {file} within {time.monotonic() - start:.0f} s", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
