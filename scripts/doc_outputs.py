#!/usr/bin/env python3
"""The outputs shown in ``docs/wager-files.md``, regenerated or checked.

A fenced block whose first line is ``$ exactodds ...`` shows that command and, below it, what
it prints; text between ``<!-- output of: exactodds ... -->`` and ``<!-- end of output -->``
is a command's output shown as rendered Markdown. This script runs each command from the
repository root (the examples are ``docs/examples/``) with the ``exactodds`` of this
interpreter and writes what it prints into the document; ``--check`` writes nothing and exits 1
naming each output that is stale (``tests/test_docs.py`` runs it so). Run:
``python scripts/doc_outputs.py [--check]``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "docs" / "wager-files.md"]
DOLLAR_BLOCK = re.compile(r"^(```\n\$ (exactodds [^\n]*)\n)(.*?)(^```)", re.M | re.S)
MARKED = re.compile(r"^(<!-- output of: (exactodds [^\n]*?) -->\n)(.*?)(^<!-- end of output -->)", re.M | re.S)


def output_of(command: str) -> str:
    """What ``command`` prints, run by the shell from the repository root."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    p = subprocess.run(command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                       check=False)
    if p.returncode != 0 or p.stderr:
        raise SystemExit(f"{command!r} failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    return p.stdout.rstrip("\n") + "\n"


def refreshed(text: str, stale: list[str]) -> str:
    """``text`` with every shown output replaced by the command's current one (names of the
    outputs that changed appended to ``stale``)."""
    def put(m: re.Match[str]) -> str:
        new = output_of(m.group(2))
        if new.strip("\n") != m.group(3).strip("\n"):
            stale.append(m.group(2))
        return m.group(1) + new + m.group(4)

    return MARKED.sub(put, DOLLAR_BLOCK.sub(put, text))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if an output is stale")
    args = parser.parse_args()
    stale: list[str] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        new = refreshed(text, stale)
        if not args.check and new != text:
            doc.write_text(new, encoding="utf-8")
    for command in stale:
        print(f"{'stale' if args.check else 'updated'}: {command}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
