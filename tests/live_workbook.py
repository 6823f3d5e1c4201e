"""The live XLSX par sheet recalculated by LibreOffice (issue 26 item 5): a helper of the tests.

:func:`check_recalculation` has headless LibreOffice Calc convert, in one run whose own profile
recalculates every formula on load (:data:`RECALC_ALWAYS`; its default keeps the values stored
in the file), (1) the workbook as rendered with every stored formula result replaced by
:data:`SENTINEL` -- so a value read back is LibreOffice's own, never the renderer's -- and (2)
the same workbook with pays typed into their cells, as a designer would. Every formula cell of
every sheet must be one of the live tables' and equal, to 1e-12 relative, the exact figure of
the certified table in (1) and of the table at the new pays in (2), both computed exactly by
the engine (:class:`exactodds.game.protocol.OutcomeTable`). Without LibreOffice the test skips.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from fractions import Fraction
from math import isqrt
from pathlib import Path
from typing import Any, Final

import pytest

from exactodds.game.protocol import OutcomeTable

RECALC_ALWAYS: Final = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">\
<value>0</value></prop></item>
</oor:items>
"""
"""A LibreOffice user profile's setting: recalculate every formula of an XLSX file on load."""
SENTINEL: Final = "-7777777"
"""The value every formula's stored result is replaced by before LibreOffice reads the file."""


def office() -> str:
    """LibreOffice's command, or the test is skipped with the reason."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        pytest.skip("LibreOffice (soffice) is not installed (Debian: libreoffice-calc; .ci/run installs it): "
                    "the live XLSX par sheet is not recalculated")
    return found


def poisoned(data: bytes) -> bytes:
    """The workbook with every formula's stored result replaced by :data:`SENTINEL`."""
    out = io.BytesIO()
    n = 0
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info)
            if info.filename.startswith("xl/worksheets/sheet"):
                text, k = re.subn(r"(<f>[^<]*</f>)<v>[^<]*</v>", rf"\g<1><v>{SENTINEL}</v>", body.decode("utf-8"))
                body, n = text.encode("utf-8"), n + k
            dst.writestr(info, body)
    assert n > 0, "no stored formula result to replace"
    return out.getvalue()


def recalculated(books: dict[str, bytes], tmp: Path) -> dict[str, Any]:
    """Each workbook (file name -> bytes) converted by one headless LibreOffice run that
    recalculates on load, read back with its values (openpyxl, ``data_only``)."""
    import openpyxl

    profile = tmp / "profile"
    (profile / "user").mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(RECALC_ALWAYS)
    (tmp / "in").mkdir()
    for name, data in books.items():
        (tmp / "in" / name).write_bytes(data)
    r = subprocess.run([office(), f"-env:UserInstallation={profile.as_uri()}", "--headless", "--calc",
                        "--convert-to", "xlsx", "--outdir", str(tmp / "out"),
                        *(str(tmp / "in" / name) for name in books)], capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    return {name: openpyxl.load_workbook(tmp / "out" / name, data_only=True) for name in books}


def sqrt(x: Fraction) -> Fraction:
    """√x to 30 decimal places (integer square root: no float)."""
    scale = 10 ** 30
    return Fraction(isqrt(x.numerator * scale * scale // x.denominator), scale)


def sections(ws: Any) -> list[int]:
    """The header rows of the live tables of a sheet (read with its formulas)."""
    return [r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "Outcome" and ws.cell(r, 2).value == "Pays"
            and isinstance(ws.cell(r + 1, 6).value, str) and ws.cell(r + 1, 6).value.startswith("=")]


def expected_cells(ws: Any, tables: list[OutcomeTable]) -> dict[tuple[int, int], Fraction]:
    """Every live cell of a sheet with the exact value it must compute, from the outcome table of
    each live table (``tables``, in the sheet's order): probability and contribution of each
    outcome, the totals, return, house edge, hit frequency, variance and √variance
    (:func:`exactodds.report.workbook._live_table`)."""
    starts = sections(ws)
    assert len(starts) == len(tables), (ws.title, starts)
    out: dict[tuple[int, int], Fraction] = {}
    for start, t in zip(starts, tables):
        for i, o in enumerate(t.outcomes, start + 1):
            assert ws.cell(i, 1).value == o.name
            out[(i, 6)], out[(i, 8)] = t.probability(o), o.net * t.probability(o)
        total = start + len(t.outcomes) + 1
        assert ws.cell(total, 1).value == "Total"
        out[(total, 4)], out[(total, 6)], out[(total, 8)] = Fraction(t.total), Fraction(1), t.return_
        figures = {"Return": t.return_, "House edge": t.house_edge, "Hit frequency": t.hit_frequency,
                   "Variance": t.variance, "Standard deviation (√variance)": sqrt(t.variance)}
        rows = {ws.cell(r, 1).value: r for r in range(total + 2, total + 2 + len(figures))}
        assert set(figures) <= set(rows), rows
        out.update({(rows[label], 2): x for label, x in figures.items()})
    return out


def formula_cells(book: Any) -> dict[str, set[tuple[int, int]]]:
    """Every formula cell of a workbook (read with its formulas), by sheet."""
    return {ws.title: {(c.row, c.column) for row in ws.iter_rows() for c in row
                       if isinstance(c.value, str) and c.value.startswith("=")} for ws in book.worksheets}


def close(got: Any, want: Fraction) -> bool:
    """``got`` (a spreadsheet's double) within 1e-12 of ``want``, relatively (absolutely near 0)."""
    if not isinstance(got, int | float) or isinstance(got, bool):
        return False
    return abs(Fraction(got) - want) <= Fraction(1, 10**12) * max(abs(want), Fraction(1, 1000))


def check_recalculation(data: bytes, live: dict[str, tuple[list[OutcomeTable], list[OutcomeTable]]],
                        tmp: Path) -> int:
    """LibreOffice's recalculation of the workbook ``data`` checked cell by cell (see the module
    docstring). ``live``: the title in A1 of each sheet with live tables -> (the certified
    tables, the same tables at new pays) in the sheet's order; each new pay is typed into its
    cell. Returns how many formula cells were checked (in both workbooks)."""
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data))
    by_title = {ws.cell(1, 1).value: ws for ws in book.worksheets}
    want: dict[str, dict[tuple[int, int], Fraction]] = {}
    want_changed: dict[str, dict[tuple[int, int], Fraction]] = {}
    for title, (tables, changed) in live.items():
        ws = by_title[title]
        want[ws.title], want_changed[ws.title] = expected_cells(ws, tables), expected_cells(ws, changed)
        assert any(c.house_edge != t.house_edge for c, t in zip(changed, tables)), "no pay changed"
        for start, t, c in zip(sections(ws), tables, changed):
            for i, (o, n) in enumerate(zip(t.outcomes, c.outcomes), start + 1):
                if o.net != n.net:
                    ws.cell(i, 2).value = float(n.net)  # what a designer types
    formulas = formula_cells(book)
    assert formulas == {name: set(want.get(name, {})) for name in formulas}, "a formula cell is not checked"
    edited = io.BytesIO()
    book.save(edited)
    got = recalculated({"certified.xlsx": poisoned(data), "pays.xlsx": edited.getvalue()}, tmp)
    checked = 0
    for name, expected in (("certified.xlsx", want), ("pays.xlsx", want_changed)):
        for sheet, cells in expected.items():
            values = got[name][sheet]
            bad = {values.cell(r, c).coordinate: (values.cell(r, c).value, float(x))
                   for (r, c), x in cells.items() if not close(values.cell(r, c).value, x)}
            assert not bad, f"{name}, sheet {sheet}: recalculated value, exact figure: {bad}"
            checked += len(cells)
    return checked
