"""The shape of the code (issue 29): no module of the package over 800 lines, no function over 80.

A long file mixes jobs and a long function hides its steps; both limits are checked on the source
with :mod:`ast` (a function's lines run from its ``def`` to its last statement, decorators and
docstring included), so a new offender fails here rather than in a reviewer's reading.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "exactodds"
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_over_800_lines() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES}
    assert long == {}


def test_no_function_over_80_lines() -> None:
    long: dict[str, int] = {}
    for p in _modules():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long[f"{p.relative_to(PACKAGE)}:{node.name}"] = n
    assert long == {}


def test_the_limits_see_a_long_function(tmp_path: Path) -> None:
    """The measure is not blind: an 81-line function is counted as 81 lines."""
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    tree = ast.parse(f"def f():\n{body}\n")
    f = tree.body[0]
    assert isinstance(f, ast.FunctionDef) and f.end_lineno is not None
    assert f.end_lineno - f.lineno + 1 == MAX_FUNCTION_LINES + 1
