"""The one format dispatch (exactodds.report.views) and where rendering lives."""

from __future__ import annotations

import ast
import csv
import io
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.errors import InputError
from exactodds.report.views import Bullet, Choice, Heading, Pairs, Table, View, render_view

PACKAGE = Path(__file__).resolve().parent.parent / "exactodds"

cells = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=8)


def _view(headers: list[str], rows: list[list[str]]) -> View:
    return View(lambda: {"headers": headers, "rows": rows}, lambda: [Heading("T", 2), "", Table(headers, rows)],
                lambda: [headers, *rows])


@given(st.integers(1, 4).flatmap(lambda n: st.tuples(st.lists(cells, min_size=n, max_size=n),
                                                       st.lists(st.lists(cells, min_size=n, max_size=n), max_size=5))))
def test_csv_and_json_round_trip(table: tuple[list[str], list[list[str]]]) -> None:
    headers, rows = table
    v = _view(headers, rows)
    parsed = list(csv.reader(io.StringIO(render_view(v, "csv"), newline="")))
    assert len(parsed) == 1 + len(rows) and all(len(r) == len(parsed[0]) for r in parsed)
    # a column of exact p/q values gets a NAME_decimal column beside it; the others are as given
    added = [i for i, h in enumerate(parsed[0]) if i and h == parsed[0][i - 1] + "_decimal"
             and rows and all(re.fullmatch(r"-?\d+/\d+|", r[i - 1]) for r in parsed[1:])]
    kept = [[c for i, c in enumerate(r) if i not in added] for r in parsed]
    assert len(kept[0]) == len(headers)
    for got, cell in zip((c for r in kept for c in r), (c for r in [headers, *rows] for c in r)):
        # unchanged, or a formula-looking text cell shown as text (issue 18: formula injection)
        assert got == cell or (got == "'" + cell and cell[:1] in "=+-@"), (got, cell)
        # a plain signed number such as "+0" or "-1/8" is data, not a formula
        assert got[:1] not in ("=", "+", "@") or re.fullmatch(r"[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:/\d+)?", got)
    assert json.loads(render_view(v, "json")) == {"headers": headers, "rows": rows}


def test_text_blocks_by_format() -> None:
    blocks = [Heading("Title", 3), Choice(markdown=""), "line", Bullet("item"), Choice(table="only in table"),
              Pairs([("Return", "1/2")]), Table(["a"], [["1"]], plain=True)]
    v = View(lambda: {}, lambda: blocks)
    # a p/q is a decimal to a person (issue 25): 1/2 is 0.5
    assert render_view(v, "markdown") == "### Title\n\nline\n- item\n- **Return**: 0.5\n| a   |\n|-----|\n| 1   |\n"
    assert render_view(v, "table") == "Title\nline\nitem\nonly in table\nReturn  0.5\n1\n"


def test_no_csv_form_and_unknown_format_are_input_errors() -> None:
    v = View(lambda: {}, lambda: [])
    with pytest.raises(InputError):
        render_view(v, "csv")
    with pytest.raises(InputError):
        render_view(v, "xml")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted((PACKAGE / "figures").glob("*.py")), ids=lambda p: p.name)
def test_figures_hold_no_text_formatting(path: Path) -> None:
    """Rendering lives in report/: a figure neither tabulates nor calls a renderer (files are
    written through the io floor; an analysis converts to a frame lazily)."""
    bad = {m for m in _imports(path) if m == "tabulate" or m == "exactodds.report" or m.startswith("exactodds.report.")}
    assert not bad


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_dispatch_tabulates(path: Path) -> None:
    assert "tabulate" not in _imports(path) or path == PACKAGE / "report" / "views.py"


@given(st.fractions(max_denominator=10**30), st.text(alphabet="abc_", min_size=1, max_size=8))
def test_json_puts_a_decimal_beside_every_exact_value(x: Fraction, key: str) -> None:
    """Issue 16 item 4: every exact "p/q" member of JSON output has a KEY_decimal sibling,
    15 significant digits of the same number, the exact string itself unchanged."""
    from decimal import Decimal, localcontext

    from exactodds.exact import ratio
    from exactodds.report.views import json_with_decimals

    doc = json_with_decimals({"rows": [{key: ratio(x), "n": 3}]})
    row = doc["rows"][0]
    assert row[key] == ratio(x) and row["n"] == 3
    got = Decimal(row[f"{key}_decimal"])
    with localcontext() as ctx:
        ctx.prec = 60
        exact = Decimal(x.numerator) / Decimal(x.denominator)
        assert abs(got - exact) <= abs(exact) * Decimal(10) ** -14 + Decimal(10) ** -300


def test_analyze_json_has_decimals_and_validates() -> None:
    import jsonschema

    from exactodds.cli.app import app
    from exactodds.report.schemas import SCHEMAS

    res = CliRunner().invoke(app, ["analyze", "dragon-7", "-f", "json"])
    doc = json.loads(res.stdout)
    jsonschema.validate(doc, SCHEMAS["analysis"]())
    assert abs(Fraction(doc["house_edge_decimal"]) - Fraction(doc["house_edge"])) < Fraction(1, 10**15)
    assert all("probability_decimal" in o and "pays_decimal" in o for o in doc["outcomes"])


# The direction of imports (issue 19 item 6, issue 29 item 4): tests/test_imports.py.
