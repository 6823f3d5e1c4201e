"""The certification report as an Excel workbook (``certify -f xlsx``), written with XlsxWriter.

A view of the JSON report, like the others: nothing is recomputed. One ``Summary`` sheet
(a row per wager-paytable: the par-sheet figures, the player-advantage flag, the
fingerprint), one sheet per wager-paytable (outcomes, par sheet, confidence ranges,
effects of removal, sensitivity) and one per game section (Pai Gow). Every exact value
is two cells: a number a spreadsheet computes with (the decimal with 15 significant
digits, :func:`exactodds.exact.significant`, read as a double) and, beside it, the exact
``p/q`` as text. Text cells that a spreadsheet would take for a formula are written as
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
from exactodds.report.html import no_entries_line

SHEET_NAME: Final = re.compile(r"[\[\]:*?/\\]")


def _number(x: str | int | None) -> float | None:
    """A spreadsheet number from an exact value: its 15-significant-digit decimal, as a double."""
    if x is None or x == "":
        return None
    return float(significant(Fraction(x), 15))


class _Sheet:
    """Row-by-row writer: numbers as numbers, exact values as number + ``p/q`` text."""

    def __init__(self, ws: Any, bold: Any) -> None:
        self.ws, self.bold, self.row = ws, bold, 0

    def heading(self, text: str) -> None:
        if self.row:
            self.row += 1
        self.ws.write_string(self.row, 0, text, self.bold)
        self.row += 1

    def line(self, cells: list[Any], bold: bool = False) -> None:
        for c, v in enumerate(cells):
            fmt = self.bold if bold else None
            if isinstance(v, tuple) and v and v[0] == "exact":  # ("exact", "p/q")
                n = _number(v[1])
                if n is not None:
                    self.ws.write_number(self.row, c, n, fmt)
            elif isinstance(v, bool):
                self.ws.write_string(self.row, c, "yes" if v else "no", fmt)
            elif isinstance(v, int):
                if abs(v) < 2**53:
                    self.ws.write_number(self.row, c, v, fmt)
                else:  # beyond a double's exact integers: the integer as text
                    self.ws.write_string(self.row, c, str(v), fmt)
            elif v is None:
                continue
            else:
                self.ws.write_string(self.row, c, str(v), fmt)
        self.row += 1


def _ex(x: str | None) -> list[Any]:
    """An exact value's two cells: the number, then the exact ``p/q`` text."""
    return [("exact", x), x]


def _sheet_name(text: str, used: set[str]) -> str:
    base = SHEET_NAME.sub("-", text)[:28].strip("'") or "sheet"
    name, i = base, 1
    while name.lower() in used:
        i += 1
        name = f"{base[:28 - len(str(i))]}~{i}"
    used.add(name.lower())
    return name


def _entry_sheet(sh: _Sheet, x: dict[str, Any]) -> None:
    a, ps = x["analysis"], x["par_sheet"]
    sh.line([f"{a['name']} -- paytable {x['paytable']}"], bold=True)
    sh.line(["Wager citation", x["citations"]["wager"]])
    sh.line(["Paytable citation", x["citations"]["paytable"]])
    if x["player_advantage"]:
        sh.line(["PLAYER ADVANTAGE", "this paytable's return is above 0: it favours the player"], bold=True)
    sh.heading("Outcomes")
    sh.line(["Outcome", "Pays", "Pays (exact)", "Combinations", "Probability", "Probability (exact)", "Return",
             "Return (exact)"], bold=True)
    for o in a["outcomes"]:
        sh.line([o["outcome"], *_ex(o["pays"]), o["count"], *_ex(o["probability"]), *_ex(o["return"])])
    sh.line(["Total", None, None, a["total"]], bold=True)
    sh.heading("Figures")
    sh.line(["Figure", "Value", "Exact"], bold=True)
    for key, label in (("return", "Return"), ("house_edge", "House edge"), ("variance", "Variance"),
                       ("element_of_risk", "Element of risk")):
        v = a.get(key)
        if isinstance(v, str) and "/" in v and "*" not in v and "M_" not in v:
            sh.line([label, *_ex(v)])
    sh.heading("Par sheet")
    sh.line(["Figure", "Value", "Exact"], bold=True)
    sh.line(["Hit frequency", *_ex(ps["hit_frequency"])])
    sh.line(["Hit: 1 in N", ("exact", ps["hit_one_in"])])
    sh.line(["Standard deviation (per unit)", ("exact", ps["standard_deviation"])])
    sh.line(["Volatility index 90 % (z·σ)", ("exact", ps["volatility_index"]["90"])])
    sh.line(["Volatility index 95 % (z·σ)", ("exact", ps["volatility_index"]["95"])])
    sh.line(["Cycle (card sequences)", ps["cycle"]])
    mp = ps["maximum_payout"]
    if mp is not None:
        sh.line(["Maximum win per unit", *_ex(mp["win_per_unit"]), mp["outcome"]])
        sh.line(["Maximum paid per round per unit", *_ex(mp["paid_per_round_per_unit"])])
    sh.line(["Player advantage", x["player_advantage"]])
    sh.line([ps["definition"]])
    sh.heading("Confidence ranges of the player's result (units)")
    sh.line(["Rounds", "Expected", "Expected (exact)", "90 % low", "90 % high", "95 % low", "95 % high"], bold=True)
    for c in ps["confidence_ranges"]:
        sh.line([c["rounds"], *_ex(c["expected_result"]), *(("exact", v) for v in (*c["result_90"], *c["result_95"]))])
    e = x["effects_of_removal"]
    if "skipped" not in e:
        sh.heading("Effects of removal")
        sh.line(["Card removed", "Copies", "Effect", "Effect (exact)", "Return after", "Return after (exact)"], bold=True)
        for r in [*e["ranks"], *e["faces"]]:
            sh.line([r["card"], r["copies"], *_ex(r["effect"]), *_ex(r["return_after"])])
    sh.heading("Deck-count sensitivity")
    sh.line(["Decks", "House edge", "House edge (exact)", "Hit frequency", "Hit frequency (exact)"], bold=True)
    for d in x["sensitivity"]:
        sh.line([d["decks"], *_ex(d["house_edge"]), *_ex(d["hit_frequency"])])
    v = x["verification"]
    sh.heading("Verification")
    sh.line(["Second method agrees", "n/a" if v["second_method"]["agrees"] is None else v["second_method"]["agrees"]])
    sh.line(["Every check of the mathematics holds", v["all_hold"]])


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
    bold = wb.add_format({"bold": True})
    used = {"summary"}
    summary = _Sheet(wb.add_worksheet("Summary"), bold)
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
    summary.heading("Every certified wager-paytable")
    if not doc["entries"]:
        summary.line([no_entries_line(doc)])
    else:
        summary.line(["Wager", "Paytable", "Sheet", "House edge", "House edge (exact)", "Hit frequency",
                      "Hit frequency (exact)", "Hit 1 in N", "Standard deviation", "VI 90 %", "VI 95 %",
                      "Max. win per unit", "Max. win (exact)", "Player advantage", "Every check holds"], bold=True)
    sheets = []
    for x in doc["entries"]:
        name = _sheet_name(f"{x['wager']} {x['paytable']}", used)
        sheets.append((name, x))
        ps = x["par_sheet"]
        mp = ps["maximum_payout"]
        summary.line([x["wager"], x["paytable"], name, *_ex(x["analysis"]["house_edge"]), *_ex(ps["hit_frequency"]),
                      ("exact", ps["hit_one_in"]), ("exact", ps["standard_deviation"]),
                      ("exact", ps["volatility_index"]["90"]), ("exact", ps["volatility_index"]["95"]),
                      *_ex(None if mp is None else mp["win_per_unit"]), x["player_advantage"],
                      x["verification"]["all_hold"]])
    for name, x in sheets:
        _entry_sheet(_Sheet(wb.add_worksheet(name), bold), x)
    if "paigow" in doc:
        pg = _Sheet(wb.add_worksheet(_sheet_name("Pai Gow", used)), bold)
        pg.line(["Pai Gow (tiles), 58 Pa. Code ch. 535"], bold=True)
        pg.line([doc["paigow"]["player_advantage"]["statement"]])
        pg.line(["Strategy", "Deals", "Wins", "Ties", "Losses", "Return", "Return (exact)", "House edge",
                 "House edge (exact)"], bold=True)
        for st in doc["paigow"]["strategies"]:
            pg.line([st["strategy"], st["universe"], st["wins"], st["ties"], st["losses"], *_ex(st["return_vigorish"]),
                     *_ex(st["house_edge"])])
    if "spanish21" in doc:
        sp = doc["spanish21"]
        ws = _Sheet(wb.add_worksheet(_sheet_name("Spanish 21", used)), bold)
        ws.line(["Spanish 21 main wager, 58 Pa. Code ch. 551"], bold=True)
        ws.line([sp["player_advantage"]["statement"]])
        from exactodds.report.spanish21 import RULE_HEADERS, rule_rows

        ws.line(["Rules certified (58 Pa. Code ch. 551)"], bold=True)
        ws.line(list(RULE_HEADERS), bold=True)
        for row in rule_rows(sp["rule_set"]):
            ws.line(list(row))
        ws.line(["Figure", "Value", "Exact"], bold=True)
        for label, key in (("House edge, composition-dependent play", "house_edge"),
                           ("Return, composition-dependent play", "expected_return"),
                           ("Return, basic (total-dependent) strategy", "expected_return_basic_strategy"),
                           ("Insurance return (§ 551.10)", "insurance_return")):
            if sp.get(key) is not None:
                ws.line([label, *_ex(sp[key]["exact"])])
        ws.line(["Every check of the mathematics holds", sp["verification"]["all_hold"]])
    wb.close()
    return out.getvalue()


__all__ = ["render_xlsx"]
