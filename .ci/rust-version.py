"""Fails unless the crate's rust-version is at least every locked dependency's (read from
`cargo metadata` on standard input)."""
import json
import sys


def version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def show(parts):
    return ".".join(str(part) for part in parts)


meta = json.load(sys.stdin)
ours = next(p for p in meta["packages"] if p["name"] == "othello")["rust_version"]
needs, name = max((version(p["rust_version"]), p["name"]) for p in meta["packages"] if p["rust_version"])
if needs > version(ours):
    sys.exit(f"rust-version {ours} is too old: {name} needs {show(needs)}")
print(f"rust-version {ours}: every locked dependency builds with it (the newest needs {show(needs)}, {name})")
