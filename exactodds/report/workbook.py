"""The certification report as an Excel workbook (``certify -f xlsx``), written with XlsxWriter.

A view of the JSON report, like the others: nothing is recomputed. One ``Summary`` sheet
(a row per table of every game entry -- a wager-paytable, a player strategy: the par-sheet
figures, the player-advantage flag -- and the fingerprint), then per game entry a sheet of its
rules record and schedules (:func:`_game_sheet`) followed by one sheet per table (outcomes, par
sheet, confidence ranges, and effects of removal and sensitivity where the table has them,
:func:`_table_sheet`), the same for every game. Every outcome table but a progressive's is live
(:func:`_live_table`): pays and counts are
cells, and probabilities, contributions, return, house edge, hit frequency, variance and σ
formulas over them, so a designer who changes a pay sees the edge move (a progressive's pays
depend on its meters: its figures are values at the priced meters). Every exact value
is two cells: a number a spreadsheet computes with (the decimal with 15 significant
digits, :func:`exactodds.exact.significant`, read as a double) and, beside it, the exact
``p/q`` as text. A count with more digits than Excel keeps (15; a shoe's combinations have
16) has its exact integer as text beside it too.

For a lab to hand on: each number has the format of its kind (:data:`NUMBER_FORMATS`:
percentages, thousands separators, fixed digits -- the cell keeps the full double), every
column is as wide as its contents, and the header rows (the summary table's, each sheet's
title) are frozen. Text cells that a spreadsheet would take for a formula are written as
strings, never formulas (XlsxWriter ``write_string``).

The bytes are reproducible: XlsxWriter dates every part of the file 1 January 1980 and the
document's creation time is the report's ``generated_utc``.
"""

from __future__ import annotations

import datetime as _dt
import io
import re
from fractions import Fraction
from typing import Any, Final

from exactodds.exact import significant
from exactodds.report.html import summary_rows, table_anchor

SHEET_NAME: Final = re.compile(r"[\[\]:*?/\\]")


def _number(x: str | int | None) -> float | None:
    """A spreadsheet number from an exact value: its 15-significant-digit decimal, as a double."""
    if x is None or x == "":
        return None
    return float(significant(Fraction(x), 15))


NUMBER_FORMATS: Final = {
    "pct": "0.000000%",       # returns, house edges, probabilities, effects: a percentage to 6 places
    "fixed": "0.000000",      # σ, volatility index, variance, 1 in N: fixed digits
    "pays": "0.00",           # pays per unit (19/20 reads 0.95)
    "count": "#,##0",         # combinations, deals, cycles, copies: thousands separators
    "units": "#,##0.00",      # confidence ranges and expected results, in units wagered
    "money": "$#,##0.00",     # dollars
}
"""The number format of each kind of figure: Excel shows it so, and keeps the full double."""

EXCEL_DIGITS: Final = 15
"""Digits Excel keeps of a number: an integer with more is also written as exact text beside it."""

MAX_WIDTH: Final = 60
"""The widest a column is made (characters); longer text wraps in a reader's own way."""


def _width(v: Any, kind: str | None) -> int:
    """About how many characters a cell shows (for the column width)."""
    if isinstance(v, float | int) and not isinstance(v, bool):
        if kind == "pct":
            return len(f"{v * 100:.6f}%")
        if kind in ("count", "units", "money"):
            return len(f"{v:,.2f}") + 1
        return len(f"{v:.6f}")
    return len(str(v))


class _Sheet:
    """Row-by-row writer: numbers as numbers (each in the number format of its kind, :data:`NUMBER_FORMATS`),
    exact values as number + ``p/q`` text; tracks each column's width (set by :meth:`finish`)."""

    def __init__(self, wb: Any, ws: Any, formats: dict[tuple[str | None, bool], Any]) -> None:
        self.wb, self.ws, self.formats, self.row = wb, ws, formats, 0
        self.widths: dict[int, int] = {}

    def _format(self, kind: str | None, bold: bool) -> Any:
        key = (kind, bold)
        if key not in self.formats:
            spec: dict[str, Any] = {"bold": True} if bold else {}
            if kind is not None:
                spec["num_format"] = NUMBER_FORMATS[kind]
            self.formats[key] = self.wb.add_format(spec) if spec else None
        return self.formats[key]

    def heading(self, text: str) -> None:
        if self.row:
            self.row += 1
        self.ws.write_string(self.row, 0, text, self._format(None, True))
        self.row += 1

    def freeze(self, columns: int = 1) -> None:
        """Freeze the rows written so far (a header) and the first ``columns`` columns."""
        self.ws.freeze_panes(self.row, columns)

    def line(self, cells: list[Any], bold: bool = False) -> None:
        """One row. A cell is ``("exact", "p/q", kind)`` (a number of that kind), ``("n", x, kind)``
        (a Python number), ``("formula", "=...", kind, "p/q")`` (a live formula, its value when
        written the exact value's decimal), a bool (yes/no), an int (a count), None (empty) or text."""
        for c, v in enumerate(cells):
            kind: str | None = None
            if isinstance(v, tuple) and v and v[0] == "formula":  # ("formula", "=...", kind, "p/q")
                kind = v[2]
                self.ws.write_formula(self.row, c, v[1], self._format(kind, bold), _number(v[3]))
                v = _number(v[3])
            elif isinstance(v, tuple) and v and v[0] in ("exact", "n"):  # ("exact", "p/q", kind)
                kind = v[2] if len(v) > 2 else "fixed"
                n = _number(v[1]) if v[0] == "exact" else v[1]
                if n is None:
                    continue
                self.ws.write_number(self.row, c, n, self._format(kind, bold))
                v = n
            elif isinstance(v, bool):
                v = "yes" if v else "no"
                self.ws.write_string(self.row, c, v, self._format(None, bold))
            elif isinstance(v, int):
                kind = "count"
                if abs(v) < 2**53:
                    self.ws.write_number(self.row, c, v, self._format(kind, bold))
                else:  # beyond a double's exact integers: the integer as text
                    self.ws.write_string(self.row, c, str(v), self._format(None, bold))
            elif v is None:
                continue
            else:
                self.ws.write_string(self.row, c, str(v), self._format(None, bold))
            if len(cells) > 1:  # a lone cell is a title or a sentence: it may run across the row
                self.widths[c] = max(self.widths.get(c, 0), _width(v, kind))
        self.row += 1

    def finish(self) -> None:
        """Set each column as wide as its widest cell (bounded by :data:`MAX_WIDTH`)."""
        for c, w in sorted(self.widths.items()):
            self.ws.set_column(c, c, min(w + 2, MAX_WIDTH))


def _ex(x: str | None, kind: str = "pct") -> list[Any]:
    """An exact value's two cells: the number (in the format of ``kind``), then the exact ``p/q`` text."""
    return [("exact", x, kind), x]


def _count(n: int) -> list[Any]:
    """A count's two cells: the number, then -- when it has more digits than Excel keeps
    (:data:`EXCEL_DIGITS`) -- the exact integer as text (else empty)."""
    return [n, str(n) if len(str(abs(n))) > EXCEL_DIGITS else None]


def _sheet_name(text: str, used: set[str]) -> str:
    base = SHEET_NAME.sub("-", text)[:28].strip("'") or "sheet"
    name, i = base, 1
    while name.lower() in used:
        i += 1
        name = f"{base[:28 - len(str(i))]}~{i}"
    used.add(name.lower())
    return name


def _par_sheet_lines(sh: _Sheet, ps: dict[str, Any], advantage: bool, cycle: str) -> None:
    """The par sheet (:func:`exactodds.figures.parsheet.par_sheet`), the same for a wager-paytable
    and for each strategy of a game entry: hit frequency, 1 in N, σ, volatility index, the cycle
    (the universe: ``cycle`` names its elements), maximum payout, player advantage, the definition
    and the confidence ranges."""
    sh.heading("Par sheet")
    sh.line(["Figure", "Value", "Exact"], bold=True)
    sh.line(["Hit frequency", *_ex(ps["hit_frequency"])])
    sh.line(["Hit: 1 in N", ("exact", ps["hit_one_in"], "fixed")])
    sh.line(["Standard deviation (per unit)", ("exact", ps["standard_deviation"], "fixed")])
    sh.line(["Volatility index 90 % (z·σ)", ("exact", ps["volatility_index"]["90"], "fixed")])
    sh.line(["Volatility index 95 % (z·σ)", ("exact", ps["volatility_index"]["95"], "fixed")])
    sh.line(["Volatility index 99 % (z·σ)", ("exact", ps["volatility_index"]["99"], "fixed")])
    sh.line([f"Cycle ({cycle})", *_count(ps["cycle"])])
    mp = ps["maximum_payout"]
    if mp is not None:
        sh.line(["Maximum win per unit", *_ex(mp["win_per_unit"], "pays"), mp["outcome"]])
        sh.line(["Maximum paid per round per unit", *_ex(mp["paid_per_round_per_unit"], "pays")])
    sh.line(["Player advantage", advantage])
    sh.line([ps["definition"]])
    sh.heading("Confidence ranges of the player's result (units)")
    sh.line(["Rounds", "Expected", "Expected (exact)", "90 % low", "90 % high", "95 % low", "95 % high"], bold=True)
    for c in ps["confidence_ranges"]:
        sh.line([c["rounds"], *_ex(c["expected_result"], "units"),
                 *(("exact", v, "units") for v in (*c["result_90"], *c["result_95"]))])


def _table_sheet(sh: _Sheet, g: dict[str, Any], x: dict[str, Any]) -> None:
    """One table of a game entry -- a wager-paytable, a player strategy -- whatever the game: the
    outcome table (live, :func:`_live_table`, unless a progressive's pays hang on its meters), the
    par sheet, and where the table has them its effects of removal and deck-count sensitivity."""
    a, ps = x["outcome_table"], x["par_sheet"]
    sh.line([x["title"]], bold=True)
    sh.freeze()  # the table's title stays in view, and the labels of column A
    sh.line(["Game", g["title"]])
    for k, text in x.get("citations", {}).items():  # what a wager-paytable cites
        sh.line([f"{k.capitalize()} citation", text])
    if x["player_advantage"]:
        sh.line(["PLAYER ADVANTAGE", "this table's return is above 0: it favours the player"], bold=True)
    sh.heading("Outcomes")
    if "meters" not in a:  # the outcome table live
        _live_table(sh, a)
    else:  # a progressive: pays and return depend on the meters; the figures at the priced meters, as values
        sh.line(["Outcome", "Pays", "Pays (exact)", "Count", "Count (exact, text)", "Probability",
                 "Probability (exact)", "Return", "Return (exact)"], bold=True)
        for o in a["outcomes"]:
            sh.line([o["outcome"], *_ex(o["pays"], "pays"), *_count(o["count"]), *_ex(o["probability"]),
                     *_ex(o["return"])])
        sh.line(["Total", None, None, *_count(a["total"])], bold=True)
        sh.heading("Figures")
        sh.line(["Figure", "Value", "Exact"], bold=True)
        for key, label in (("return", "Return"), ("house_edge", "House edge"), ("variance", "Variance"),
                           ("element_of_risk", "Element of risk")):
            v = a.get(key)
            if isinstance(v, str) and "/" in v and "*" not in v and "M_" not in v:
                sh.line([label, *_ex(v, "fixed" if key == "variance" else "pct")])
    _par_sheet_lines(sh, ps, x["player_advantage"], "the universe's equally likely elements")
    e = x.get("effects_of_removal", {})
    if "ranks" in e:
        sh.heading("Effects of removal")
        sh.line(["Card removed", "Copies", "Effect", "Effect (exact)", "Return after", "Return after (exact)"], bold=True)
        for r in [*e["ranks"], *e["faces"]]:
            sh.line([r["card"], r["copies"], *_ex(r["effect"]), *_ex(r["return_after"])])
    if "sensitivity" in x:
        sh.heading("Deck-count sensitivity")
        sh.line(["Decks", "House edge", "House edge (exact)", "Hit frequency", "Hit frequency (exact)"], bold=True)
        for d in x["sensitivity"]:
            sh.line([d["decks"], *_ex(d["house_edge"]), *_ex(d["hit_frequency"])])
    v = x["verification"]
    sh.heading("Verification")
    sh.line(["Second method agrees", "n/a" if v["second_method"]["agrees"] is None else v["second_method"]["agrees"]])
    sh.line(["Every check of the mathematics holds", v["all_hold"]])


def _game_sheet(sh: _Sheet, g: dict[str, Any]) -> None:
    """The head of a game entry (:mod:`exactodds.figures.entry`), whatever the game: citation,
    deck, rules record, schedules and the entry's checks (each table has its own sheet)."""
    sh.line([g["title"]], bold=True)
    sh.freeze()
    sh.line(["Citation", g["citation"]])
    sh.line(["Deck", g["deck"]["description"]])
    sh.line([g["player_advantage"]["statement"]])
    sh.heading("Rules certified")
    sh.line(["Rule", "Section", "Option", "Value"], bold=True)
    for r in g["rules"]:
        sh.line([r["name"], r["section"], r["flag"], str(r["value"])])
    for sc in g["schedules"]:
        sh.heading(f"{sc['title']} ({sc['cite']})")
        sh.line(list(sc["columns"]), bold=True)
        for row in sc["rows"]:
            sh.line(list(row))
    sh.line(["Every check of the mathematics holds", g["verification"]["all_hold"]])


def _live_count(n: int) -> list[Any]:
    """A count a formula reads: always a number (beyond a double's exact integers, 2**53, a double,
    relative error below 1e-15), with the exact integer as text beside it where Excel would not keep it."""
    return [n if abs(n) < 2**53 else ("n", float(n), "count"), str(n) if len(str(abs(n))) > EXCEL_DIGITS else None]


def _live_table(sh: _Sheet, t: dict[str, Any]) -> None:
    """An outcome table whose figures are live: the pays (column B) and counts (D) are cells, and
    the probabilities, contributions, total, return, house edge, hit frequency, variance and σ are
    formulas over them, so a designer who changes a pay or a count sees the edge move; the exact
    ``p/q`` of the report stays beside each as text (it does not move: it is what was certified).
    ``t`` is a table's outcome table: a player strategy's, or a (non-progressive) wager's analysis,
    which have the same members."""
    sh.line(["Outcome", "Pays", "Pays (exact)", "Count", "Count (exact, text)", "Probability",
             "Probability (exact)", "Return", "Return (exact)"], bold=True)
    first = sh.row + 1                                  # A1 row numbers: the outcomes' first and last rows
    last = first + len(t["outcomes"]) - 1
    total = last + 1
    for o in t["outcomes"]:
        r = sh.row + 1
        sh.line([o["outcome"], *_ex(o["pays"], "pays"), *_live_count(o["count"]),
                 ("formula", f"=D{r}/D{total}", "pct", o["probability"]), o["probability"],
                 ("formula", f"=B{r}*F{r}", "pct", o["return"]), o["return"]])
    sh.line(["Total", None, None, ("formula", f"=SUM(D{first}:D{last})", "count", str(t["total"])),
             str(t["total"]) if len(str(t["total"])) > EXCEL_DIGITS else None,
             ("formula", f"=SUM(F{first}:F{last})", "pct", "1"), None,
             ("formula", f"=SUM(H{first}:H{last})", "pct", t["return"]), t["return"]], bold=True)
    sh.line(["Figure (live formula)", "Value", "Exact (certified)"], bold=True)
    ret = f"H{total}"
    sh.line(["Return", ("formula", f"={ret}", "pct", t["return"]), t["return"]])
    sh.line(["House edge", ("formula", f"=-{ret}", "pct", t["house_edge"]), t["house_edge"]])
    sh.line(["Hit frequency", ("formula", f'=SUMIF(B{first}:B{last},">0",F{first}:F{last})', "pct",
                               t["hit_frequency"]), t["hit_frequency"]])
    var_row = sh.row + 1
    sh.line(["Variance", ("formula", f"=SUMPRODUCT(B{first}:B{last},B{first}:B{last},F{first}:F{last})-{ret}^2",
                          "fixed", t["variance"]), t["variance"]])
    sh.line(["Standard deviation (√variance)", ("formula", f"=SQRT(B{var_row})", "fixed", t["std_dev"]),
             f"√({t['variance']})"])
    if t["element_of_risk"] is not None:
        sh.line(["Element of risk", *_ex(t["element_of_risk"])])


def render_xlsx(doc: dict[str, Any]) -> bytes:
    """The workbook's bytes (see the module docstring)."""
    import xlsxwriter  # type: ignore[import-untyped]

    out = io.BytesIO()
    wb = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
                                   "strings_to_numbers": False})
    created = _dt.datetime.strptime(str(doc.get("generated_utc")), "%Y-%m-%dT%H:%M:%SZ")
    d = doc.get("document") or {}
    wb.set_properties({"title": "exactodds certification report", "created": created,
                       "comments": f"fingerprint {doc['fingerprint']['value']}",
                       "company": str(d.get("lab", "")), "author": str(d.get("analyst", ""))})
    formats: dict[tuple[str | None, bool], Any] = {}
    used = {"summary"}
    sheets: list[_Sheet] = []

    def sheet(name: str) -> _Sheet:
        sheets.append(_Sheet(wb, wb.add_worksheet(name), formats))
        return sheets[-1]

    summary = sheet("Summary")
    summary.line(["exactodds certification report", f"exactodds {doc.get('version')}",
                  f"generated {doc.get('generated_utc')} UTC"], bold=True)
    summary.line(["Fingerprint (SHA-256 of the canonical JSON)", doc["fingerprint"]["value"]])
    summary.line(["Program SHA-256", doc["program"]["sha256"]])
    for k, v in d.items():
        if k != "approval":
            summary.line([k, str(v)])
    s = doc["summary"]
    summary.line(["Every check of the mathematics holds", s["all_checks_hold"]])
    summary.line(["Player advantage", ", ".join(s["player_advantage"]) or "none"])
    summary.heading("Every certified table (a wager-paytable, a player strategy) of every game")
    found = summary_rows(doc)
    summary.line(["Game", "Table", "Sheet", "House edge", "House edge (exact)", "Hit frequency",
                  "Hit frequency (exact)", "Hit 1 in N", "Standard deviation", "VI 90 %", "VI 95 %",
                  "Max. win per unit", "Max. win (exact)", "Player advantage", "Every check holds"], bold=True)
    summary.freeze()  # the table's header row (and the game column) stay in view
    game_sheets = [(_sheet_name(g["title"], used), g) for g in doc["games"]]
    table_sheets = [(_sheet_name(f"{g['game']} {x['id']}", used), g, x) for g in doc["games"] for x in g["tables"]]
    sheet_of = {table_anchor(g, x): name for name, g, x in table_sheets}
    for r in found:  # one row shape: every table of every game entry
        ps = r.par_sheet
        mp = ps["maximum_payout"]
        summary.line([r.game, r.id, sheet_of[r.anchor], *_ex(r.house_edge), *_ex(ps["hit_frequency"]),
                      ("exact", ps["hit_one_in"], "fixed"), ("exact", ps["standard_deviation"], "fixed"),
                      ("exact", ps["volatility_index"]["90"], "fixed"), ("exact", ps["volatility_index"]["95"], "fixed"),
                      *_ex(None if mp is None else mp["win_per_unit"], "pays"), r.player_advantage, r.all_hold])
    for name, g in game_sheets:
        _game_sheet(sheet(name), g)
        for tname, tg, x in table_sheets:
            if tg is g:
                _table_sheet(sheet(tname), g, x)
    for sh in sheets:
        sh.finish()
    wb.close()
    return out.getvalue()


__all__ = ["render_xlsx"]
