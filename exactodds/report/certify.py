"""The certification report's views: Markdown and CSV of the JSON document built by
:func:`exactodds.games.certificate.certify` (the HTML view is :mod:`exactodds.report.html`).

Nothing is recomputed: every figure is read from the document, so each view shows the
figures :func:`exactodds.games.certificate.verify_report` checks.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from exactodds.errors import InputError
from exactodds.exact import decimal, parse_ratio, percent, ratio, significant
from exactodds.figures.progressive import Linear
from exactodds.games.certificate import Verdict
from exactodds.report.figure_views import EOR_HEADERS
from exactodds.report.html import DEFAULT_DIGITS, ordered, shoe_line, summary_rows
from exactodds.report.views import Block, Pairs, Table, View, render_view


# -- Markdown --------------------------------------------------------------------------------------
def _pct(x: str | None, places: int = 6) -> str:
    return "n/a" if x is None else percent(parse_ratio(x), places)


def _yes(x: bool | None) -> str:
    return "n/a" if x is None else ("yes" if x else "no")


def _document_lines(doc: dict[str, Any]) -> list[Block]:
    from exactodds.report.html import DOCUMENT_LABELS

    d = doc.get("document") or {}
    out: list[Block] = [f"- {label}: {d[k]}" for k, label in DOCUMENT_LABELS if d.get(k) is not None]
    out += [f"- Approval {i + 1}: {a.get('name', '')}, {a.get('role', '')}" + (f", {a['date']}" if a.get("date") else "")
            for i, a in enumerate(d.get("approval", []))]
    p = doc["program"]
    out.append(f"- Program: exactodds {p['version']}, package SHA-256 `{p['sha256']}` ({p['covers']})")
    return out


def _summary(doc: dict[str, Any], short: bool = False) -> Table:
    """The summary of every entry; ``short``: decimals to 6 significant digits and short
    headers, wrapped to fit 100 columns (the terminal summary, ``certify -f table``)."""
    def num(x: str | None) -> str:
        return "n/a" if x is None else significant(Fraction(x), 6) if short else x

    rows = []
    for r in summary_rows(doc):  # every table of every game entry: one row shape
        ps = r.par_sheet
        mp = ps["maximum_payout"]
        rows.append([r.title, _pct(r.house_edge, 4), _pct(ps["hit_frequency"], 4),
                     num(ps["hit_one_in"]), num(ps["standard_deviation"]), num(ps["volatility_index"]["90"]),
                     num(ps["volatility_index"]["95"]), "n/a" if mp is None else mp["pays_text"],
                     "YES" if r.player_advantage else "no", "yes" if r.all_hold else "NO"])
    if short:  # VI 90 % left out and the two flags made one, so that the table fits 100 columns
        rows = [[*r[:5], r[6], r[7], "FAIL" if r[9] == "NO" else "ADV." if r[8] == "YES" else "ok"] for r in rows]
        return Table(["Table", "House edge", "Hit freq.", "1 in N", "SD", "VI 95%", "Max. win", "Status"],
                     rows, wrap=SUMMARY_WRAP, whole_words=True)
    return Table(["Table", "House edge", "Hit frequency", "1 in N", "SD", "VI 90 %", "VI 95 %",
                  "Max. win per unit", "Player advantage", "Every check holds"], rows)


def _outcome_table(t: dict[str, Any]) -> Table:
    """An outcome table, the same for every table of every game entry (a wager-paytable's
    analysis, a player strategy's outcome table): every outcome with its pays, count, probability
    and return, and the total (the return summed over the
    rows: a progressive's analysis states its return as a form in the meters)."""
    rows = [[o["outcome"], o["pays_text"], f"{o['count']:,}", o["probability"], o["return"]] for o in t["outcomes"]]
    summed = sum((parse_ratio(o["return"]) for o in t["outcomes"]), Fraction(0))
    rows.append(["Total", "", f"{t['total']:,}", "1/1", ratio(summed)])
    return Table(["Outcome", "Pays", "Count", "Probability", "Return"], rows)


def _figure_lines(t: dict[str, Any]) -> list[Block]:
    """The figures of an outcome table (:func:`_outcome_table`): return, house edge, hit frequency,
    variance, element of risk, each exact with its decimal, and σ."""
    out: list[Block] = []
    for key, label in (("return", "Return"), ("house_edge", "House edge"), ("hit_frequency", "Hit frequency"),
                       ("variance", "Variance"), ("element_of_risk", "Element of risk")):
        v = t.get(key)
        if key == "return" and "return_expression" in t:
            text = f"{v} (linear in the meters M_..., in dollars)"
        else:
            text = "n/a" if v is None else (f"{v} ({decimal(parse_ratio(v), 10)})" if key == "variance"
                                            else f"{v} ({_pct(v)})")
        out.append(f"- {label}: {text}")
    out.append(f"- Standard deviation: {t['std_dev']}")
    return out


def _par_sheet_blocks(ps: dict[str, Any], advantage: bool) -> list[Block]:
    mp = ps["maximum_payout"]
    out: list[Block] = ["", "#### Par sheet", ""]
    if advantage:
        out += ["**PLAYER ADVANTAGE: this paytable returns more than the amount wagered to the player in the long "
                "run (return above 0).** The mathematics may hold; the game favours the player.", ""]
    out += [f"- Standard deviation σ per unit wagered: {ps['standard_deviation']}",
            f"- Volatility index (z·σ): {ps['volatility_index']['90']} at 90 %, {ps['volatility_index']['95']} at 95 %, "
            f"{ps['volatility_index']['99']} at 99 %",
            f"- Hit frequency: {_pct(ps['hit_frequency'])}" + (f" (1 in {ps['hit_one_in']})" if ps["hit_one_in"] else ""),
            f"- Cycle: {ps['cycle']:,} (the universe's equally likely elements)"]
    if mp is not None:
        out += [f"- Maximum win per unit wagered: {mp['pays_text']} ({mp['outcome']}, 1 in {mp['one_in']})",
                f"- Maximum paid per round per unit wagered (win + wager returned): {mp['paid_per_round_per_unit']}"]
    rows = [[f"{c['rounds']:,}", decimal(parse_ratio(c["expected_result"]), 4),
             f"{c['result_90'][0]} to {c['result_90'][1]}", f"{c['result_95'][0]} to {c['result_95'][1]}",
             f"{c['return_95'][0]} to {c['return_95'][1]}"] for c in ps["confidence_ranges"]]
    out += ["", "Confidence ranges of the player's result:", "",
            Table(["Rounds", "Expected (units)", "90 % range (units)", "95 % range (units)", "95 % range (% of wagers)"],
                  rows), "", ps["definition"]]
    return out


def _report_blocks(doc: dict[str, Any]) -> list[Block]:
    """The report for people: Markdown, every figure exact with a rounded decimal beside it."""
    s = doc["summary"]
    inputs = json.dumps({k: v for k, v in doc["inputs"].items() if k != "definitions"}, sort_keys=True,
                        ensure_ascii=False)
    title = (doc.get("document") or {}).get("game")
    out: list[Block] = [f"# Certification report{' -- ' + title if title else ''} -- exactodds {doc.get('version')}",
                        "", *_document_lines(doc),
           f"- Generated (UTC): {doc.get('generated_utc')}",
           f"- Dealt from: {shoe_line(doc)}; inputs: `{inputs}`"
           + (" + embedded wager files" if doc["inputs"].get("definitions") else ""),
           f"- Fingerprint (SHA-256 of the canonical JSON): `{doc['fingerprint']['value']}`",
           (f"- Tables certified: {s['tables']}; second method agrees on {s['second_method_agrees']}, "
            f"not available for {s['no_second_method']}"),
           (f"- Every check of the mathematics holds: {'yes' if s['all_checks_hold'] else 'NO'} "
            f"(the checks cover {s['checks_cover']})"),
           ("- Player advantage: " + (", ".join(s["player_advantage"]) + " FAVOUR THE PLAYER"
                                      if s["player_advantage"] else "none (every certified return is at most 0)")),
           "", "Verify this report: `exactodds verify REPORT.json` (or the HTML page, which embeds it) recomputes every "
           "figure from the inputs above.",
           ("It checks the JSON report (`exactodds certify --format json`) only: this Markdown is a view for "
            "reading, and no tool can verify it -- keep the JSON report beside it and verify that."),
           "", "## Summary", "", _summary(doc)]
    for g in doc["games"]:
        out += _game_blocks(g)
    return out


def _table_blocks(x: dict[str, Any]) -> list[Block]:
    """One table of a game entry -- a wager-paytable, a player strategy -- whatever the game: its
    outcome table, figures and par sheet, and whatever else it carries (citations, a progressive's
    figures, effects of removal, deck-count sensitivity), then its verification."""
    t = x["outcome_table"]
    out: list[Block] = ["", f"### {x['title']}", ""]
    if "citations" in x:
        out += [f"- Wager: {x['citations']['wager']}", f"- Paytable: {x['citations']['paytable']}"]
        out += [f"- {label}: {x['readings'][k]}" for k, label in (("wager", "Reading"), ("paytable", "Paytable note"))
                if x["readings"][k]]
        out.append("")
    if "universe" in t:
        out += [f"Universe: {t['universe']} ({t['basis']}).", ""]
    out += ["#### Outcomes", "", _outcome_table(t), "", "#### Figures", "", *_figure_lines(t)]
    out += _par_sheet_blocks(x["par_sheet"], x["player_advantage"])
    if "return_expression" in t:
        out += _progressive_lines(t)
    if "effects_of_removal" in x:
        out += _effects_blocks(x["effects_of_removal"])
    if "sensitivity" in x:
        srows = [[d["decks"], d["house_edge"], _pct(d["house_edge"]), _pct(d["hit_frequency"])]
                 for d in x["sensitivity"]]
        out += ["", "#### Deck-count sensitivity", "",
                Table(["Decks", "House edge", "House edge (%)", "Hit frequency"], srows)]
    return out + ["", "#### Verification", "", *_verification_blocks(x["verification"])]


def _progressive_lines(a: dict[str, Any]) -> list[Block]:
    """A progressive paytable's figures in its meters: return at reset, break-even, long run."""
    priced = ", ".join(f"{k} ${v}" for k, v in a["priced_at"].items())
    at_reset = a["return_at_reset"]
    out: list[Block] = [f"- Return at reset: {'n/a (reset not regulated)' if at_reset is None else at_reset}"
                        + ("" if at_reset is None else f" ({_pct(at_reset)})") + f"; figures above priced at {priced}"]
    for name, be in a["break_even"].items():
        out.append(f"- Break-even {name} meter: " + ("n/a" if be is None else f"${be} (${decimal(parse_ratio(be), 2)})"))
    lr = a["long_run_return"]
    out.append(f"- Long-run return: {lr} ({_pct(lr)})" if "*" not in lr else
               f"- Long-run return: {Linear.parse(lr).readable()} (linear in the unregulated increment "
               "rates; decimals, exact form in the JSON)")
    return out


def _effects_blocks(e: dict[str, Any]) -> list[Block]:
    """The effects of removal of a table, with the identity and the suggested count."""
    out: list[Block] = ["", "#### Effects of removal", ""]
    if "skipped" in e:
        return [*out, f"Not computed: {e['skipped']}."]
    erows = [[r["card"], f"{r['copies']:,}", r["effect"], r["effect_percent"],
              "" if r.get("tag") is None else f"{r['tag']:+d}"] for r in [*e["ranks"], *e["faces"]]]
    tag_of = e["count"]["tags"]  # in the ranks' order, whatever order the object's keys come in
    tags = ", ".join(f"{r['card']} {tag_of[r['card']]:+d}" for r in e["ranks"] if r["card"] in tag_of)
    holds = e["identity"]["holds"]
    return [*out, Table(EOR_HEADERS, erows), "",
            (f"Identity Σ n·Return(shoe − card) = N·Return(shoe): "
             f"{'n/a' if holds is None else ('holds' if holds else 'FAILS')}. "
             f"Suggested count {tags} ({'balanced' if e['count']['balanced'] else 'not balanced'}), "
             f"correlation {e['count']['correlation'] or 'n/a'}.")]


def _verification_blocks(v: dict[str, Any]) -> list[Block]:
    sm = v["second_method"]
    if sm["agrees"] is None:
        out: list[Block] = [f"- Second method: {sm['statement']}."]
    else:
        out = [f"- Second method ({sm['method']}): {sm['statement']}: "
               f"{'AGREES exactly' if sm['agrees'] else 'DISAGREES'} (return {sm['return']})."]
    return out + _check_lines(v)


def _check_lines(v: dict[str, Any]) -> list[Block]:
    out: list[Block] = []
    for c in v["checks"]:
        state = "n/a" if c.get("applies") is False else ("holds" if c["holds"] else "FAILS")
        kind = " (about the game, not the mathematics)" if c.get("kind") == "game" else ""
        out.append(f"- {c['check']}{kind}: {state}.")
    out.append(f"- Every check of the mathematics: {'all hold' if v['all_hold'] else 'NOT ALL HOLD'}.")
    return out


def _game_blocks(g: dict[str, Any]) -> list[Block]:
    """A game entry (:mod:`exactodds.figures.entry`), whatever the game: its deck and rules record,
    readings and schedules, each of its tables (:func:`_table_blocks`), the entry's own checks."""
    pa = g["player_advantage"]
    out: list[Block] = ["", f"## {g['title']}", "", f"- Citation: {g['citation']}",
                        f"- Deck: {g['deck']['description']} ({g['deck']['title']})", "",
                        f"**{pa['statement']}.**" if pa["tables"] else f"{pa['statement']}.", "",
                        "### Rules certified", "",
                        Table(["Rule", "Section", "Option", "Value"],
                              [[r["name"], r["section"], r["flag"], str(r["value"])] for r in g["rules"]]), ""]
    out += ["### Readings", "", *(f"- {r}" for r in g["readings"])]
    for sc in g["schedules"]:
        out += ["", f"### {sc['title']} ({sc['cite']})", "", Table(sc["columns"], sc["rows"])]
    for x in g["tables"]:
        out += _table_blocks(x)
    return out + ["", f"### Checks of {g['title']}", "", *_check_lines(g["verification"])]


CSV_COLUMNS: Final = (
    "table", "game", "id", "item",
    "pays", "pays_decimal", "count", "probability", "probability_decimal", "probability_one_in",
    "return", "return_decimal",
    "copies", "effect_of_removal", "effect_of_removal_decimal", "return_after_removal", "return_after_removal_decimal",
    "decks", "house_edge", "house_edge_decimal", "hit_frequency", "hit_frequency_decimal", "hit_frequency_one_in",
    "standard_deviation", "volatility_index_90", "volatility_index_95", "volatility_index_99", "maximum_win_per_unit",
    "maximum_win_per_unit_decimal", "cycle", "player_advantage",
    "rounds", "expected_result", "expected_result_decimal", "result_90_low", "result_90_high",
    "result_95_low", "result_95_high", "fingerprint")
"""The certificate CSV's columns: one concept each (a row fills the columns its table has);
``fingerprint``, on every row, is the report's (the SHA-256 of its canonical JSON), so any row
cut out of the file still names the report it comes from."""


def _csv_row(**cells: Any) -> list[Any]:
    unknown = set(cells) - set(CSV_COLUMNS)
    assert not unknown, unknown
    return [cells.get(c, "") for c in CSV_COLUMNS]


def _exact(name: str, x: str | None, probability: bool = False) -> dict[str, Any]:
    """The cells of an exact value: ``name`` (``p/q``) and ``name_decimal``. A progressive's
    return is a linear form in the meters (``p/q*M_mega + ... - p/q``), not one number: it
    stays the exact text in ``name`` with its terms in decimals beside it."""
    from exactodds.report.spreadsheet import text_cells

    if x is not None and "*" in x:
        return {name: x, f"{name}_decimal": Linear.parse(x).readable()}
    cells = text_cells(x, probability)
    out = {name: cells[0], f"{name}_decimal": cells[1]}
    if probability:
        out[f"{name}_one_in"] = cells[2]
    return out


def _table_csv(key: dict[str, str], x: dict[str, Any]) -> list[list[Any]]:
    """One table of a game entry, whatever the game (``key``: its game and id): a ``summary`` row
    (par-sheet figures), the ``outcome`` rows and the ``confidence_range`` rows, and where the
    table has them its ``effect_of_removal`` and ``sensitivity`` rows."""
    t, ps, advantage = x["outcome_table"], x["par_sheet"], x["player_advantage"]
    mp = ps["maximum_payout"]
    rows = [_csv_row(table="summary", **key, item=x["title"], count=t["total"],
                     **_exact("return", t["return"]), **_exact("house_edge", t["house_edge"]),
                     **_exact("hit_frequency", ps["hit_frequency"]), hit_frequency_one_in=ps["hit_one_in"] or "",
                     standard_deviation=ps["standard_deviation"], volatility_index_90=ps["volatility_index"]["90"],
                     volatility_index_95=ps["volatility_index"]["95"], volatility_index_99=ps["volatility_index"]["99"],
                     **_exact("maximum_win_per_unit", None if mp is None else mp["win_per_unit"]),
                     cycle=ps["cycle"], player_advantage="yes" if advantage else "no")]
    rows += [_csv_row(table="outcome", **key, item=o["outcome"], **_exact("pays", o["pays"]), count=o["count"],
                      **_exact("probability", o["probability"], True), **_exact("return", o["return"]))
             for o in t["outcomes"]]
    rows += [_csv_row(table="confidence_range", **key, item=f"{c['rounds']} rounds", rounds=c["rounds"],
                      **_exact("expected_result", c["expected_result"]),
                      result_90_low=c["result_90"][0], result_90_high=c["result_90"][1],
                      result_95_low=c["result_95"][0], result_95_high=c["result_95"][1])
             for c in ps["confidence_ranges"]]
    e = x.get("effects_of_removal", {})
    rows += [_csv_row(table="effect_of_removal", **key, item=r["card"], copies=r["copies"],
                      **_exact("effect_of_removal", r["effect"]), **_exact("return_after_removal", r["return_after"]))
             for r in [*e.get("ranks", []), *e.get("faces", [])]]
    rows += [_csv_row(table="sensitivity", **key, item=f"{d['decks']} decks", decks=d["decks"],
                      **_exact("house_edge", d["house_edge"]), **_exact("hit_frequency", d["hit_frequency"]))
             for d in x.get("sensitivity", [])]
    return rows


def _report_csv(doc: dict[str, Any]) -> list[list[Any]]:
    """The report's tables as one CSV with one column per concept (:data:`CSV_COLUMNS`): for
    every table of every game entry (:func:`_table_csv`) a ``summary`` row (par-sheet figures),
    its outcome rows, its confidence ranges, and its effects of removal and sensitivity where it
    has them; ``game`` and ``id`` say whose rows they are."""
    rows: list[list[Any]] = [list(CSV_COLUMNS)]
    for g in doc["games"]:  # every table of every game entry alike
        for x in g["tables"]:
            rows += _table_csv({"game": g["game"], "id": x["id"]}, x)
    fp = doc["fingerprint"]["value"]
    return [rows[0], *([*r[:-1], fp] for r in rows[1:])]


REPORT_FORMATS: Final = ("markdown", "json", "csv", "html", "xlsx", "pdf", "table")
"""``table`` is the summary for a terminal (:func:`summary_view`); the other views are the whole report
(``pdf``: the HTML page printed by WeasyPrint, the ``[pdf]`` extra)."""


def report_view(doc: dict[str, Any]) -> View:
    """The report document itself (JSON), its Markdown and its CSV."""
    return View(lambda: doc, lambda: _report_blocks(doc), lambda: _report_csv(doc), json_decimals=False)


SUMMARY_WRAP: Final = (18, 8, 8, 9, 9, 9, 8, 6)
"""Widest each column of the terminal summary may be, so that it fits 100 columns (Status:
``ok``, ``ADV.`` for a player advantage, ``FAIL`` when a check fails); a number is never broken
across lines (``whole_words``: its column widens instead)."""


def _summary_blocks(doc: dict[str, Any]) -> list[Block]:
    s = doc["summary"]
    advantage = ", ".join(s["player_advantage"]) + " FAVOUR THE PLAYER" if s["player_advantage"] else "none"
    pairs = [("Fingerprint (SHA-256)", doc["fingerprint"]["value"]),
             ("Tables certified", f"{s['tables']} (second method agrees on {s['second_method_agrees']}, "
                                  f"not available for {s['no_second_method']})"),
             ("Every check holds", "yes" if s["all_checks_hold"] else "NO"),
             ("Player advantage", advantage)]
    return [f"Certification report summary -- exactodds {doc.get('version')} -- {shoe_line(doc)}", "",
            Pairs(pairs), "",
            _summary(doc, short=True), "",
            "Status: ok; ADV. = the table favours the player; FAIL = a check of the mathematics fails.",
            "The whole report: -f markdown or -f html; the report 'exactodds verify' checks: -f json."]


def summary_view(doc: dict[str, Any]) -> View:
    """The report's summary for a terminal (``certify -f table``): fingerprint, verdict and the
    summary table of every wager and paytable; its JSON is the whole report."""
    return View(lambda: doc, lambda: _summary_blocks(doc), lambda: _report_csv(doc), json_decimals=False)


def render_markdown(doc: dict[str, Any]) -> str:
    """The report for people: Markdown, every figure exact with a rounded decimal beside it."""
    return render_view(report_view(doc), "markdown")


def render_csv(doc: dict[str, Any]) -> str:
    """The report's tables as one CSV, one column per concept (:data:`CSV_COLUMNS`)."""
    return render_view(report_view(doc), "csv")


def render_report(doc: dict[str, Any], fmt: str, template: str | Path | None = None,
                  digits: int = DEFAULT_DIGITS) -> str | bytes:
    """The report in ``markdown``, ``json``, ``csv``, ``html`` (``template``: a lab's template
    folder), ``pdf`` or ``xlsx`` (bytes); any other format is an InputError. Every view is rendered
    from the one document, so each quotes its fingerprint. ``digits``: the significant digits of
    the decimals of the HTML page and the PDF (:func:`exactodds.report.html.render_html`)."""
    if fmt == "html":  # one self-contained printable file (exactodds.report.html)
        from exactodds.report.html import render_html

        return render_html(doc, template, digits)
    if fmt == "pdf":  # the HTML page printed (exactodds.report.pdf, the [pdf] extra)
        from exactodds.report.html import render_html
        from exactodds.report.pdf import render_pdf

        return render_pdf(render_html(doc, template, digits))
    if fmt == "xlsx":
        try:
            from exactodds.report.workbook import render_xlsx

            return render_xlsx(ordered(doc))
        except ModuleNotFoundError as exc:
            raise InputError(f"-f xlsx needs XlsxWriter ({exc.name} is not installed): "
                             "pip install 'exactodds[xlsx]'") from None
    if fmt not in REPORT_FORMATS:
        raise InputError(f"a certification report is written as {', '.join(REPORT_FORMATS)}, not {fmt!r}")
    if fmt == "json":  # the report as built (readable member order); every other view reads it in key order
        return render_view(report_view(doc), fmt)
    doc = ordered(doc)
    return render_view(summary_view(doc) if fmt == "table" else report_view(doc), fmt)


def render_reports(doc: dict[str, Any], targets: Sequence[tuple[str, str]],
                   template: str | Path | None = None, digits: int = DEFAULT_DIGITS) -> list[tuple[str, str | bytes]]:
    """``(path, content)`` for each ``(path, format)`` of ``targets``: every view of one report."""
    return [(path, render_report(doc, fmt, template, digits)) for path, fmt in targets]


def _page_report(page: str) -> tuple[dict[str, Any], list[str]] | Verdict:
    """The report a page embeds and the keys it repeats (:func:`parse_report`), or the
    failing verdict when the page embeds two reports or one that cannot be read. A page
    embedding none, or a report of the wrong schema, is no report (:class:`ReportError`, exit 2)."""
    from exactodds.games.certificate import ReportError, SchemaError, parse_report
    from exactodds.report.html import embedded_report

    try:
        text = embedded_report(page)
    except ValueError as exc:
        return Verdict(False, False, None, [str(exc)], page_verified=False, page="the page embeds two reports")
    if text is None:
        raise ReportError("an HTML page without an embedded report (not made by 'exactodds certify -f html')")
    try:
        return parse_report(text)
    except SchemaError:
        raise
    except ReportError as exc:
        return Verdict(False, False, None, [f"the embedded report cannot be read: {exc}"], page_verified=False)


def verify_page(data: str | bytes, progress: Any = None, template: str | Path | None = None) -> Verdict:
    """Verify an HTML page of a report: the JSON report it embeds (:func:`verify_report`), then
    that the page is that report's rendering, byte for byte -- what a person reads is checked,
    not only what the page embeds.

    The page is rendered again from its embedded report with the shipped template; equal
    bytes: the page is verified. Otherwise, with ``template`` (a lab's folder) whose SHA-256 is
    the one the report records (member ``template``, written by ``certify --template``), it is
    rendered with that and compared. Nothing the page itself says (its ``exactodds-template``
    meta tag, comments, scripts) is trusted. Verdicts (:attr:`Verdict.exit_code`):

    * 0 -- the report holds and the page is its rendering;
    * 1 -- the report does not hold, or the page is not its rendering by this program (an
      edited page, another report's page, anything added or removed);
    * 3 -- the report holds, but the page could not be checked: a custom template the report
      records was not given (or another one was), or another program made the report and
      this one renders it differently. Never "holds".

    A page that is not UTF-8 or embeds no report is no report (:class:`ReportError`, exit 2)."""
    from exactodds.games.certificate import ReportError, program_identity, verify_report
    from exactodds.report.html import page_digits
    from exactodds.report.template import load_template

    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ReportError("an HTML page that is not UTF-8 text") from None
    chosen = load_template(template) if template is not None else None  # a bad folder: one line, exit 2
    read = _page_report(data)
    if isinstance(read, Verdict):
        return read
    doc, repeated = read
    verdict = verify_report(doc, progress, repeated)
    if not verdict.holds:
        return verdict
    notes = list(verdict.notes)

    def done(holds: bool, page_verified: bool, page: str, problem: str | None = None) -> Verdict:
        return Verdict(holds, verdict.fingerprint_ok, verdict.recomputed_ok, [problem] if problem else [],
                       notes, page_verified, page)

    def rendering(folder: str | Path | None) -> str | None:
        """The page again; a lab's template that fails (unsafe, too slow, too big) is an
        InputError (one line, exit 2), the shipped one a note."""
        try:
            return str(render_report(doc, "html", folder, page_digits(data)))
        except InputError as exc:
            if folder is not None:
                raise
            notes.append(f"the page cannot be rendered again: {exc}")
            return None

    if rendering(None) == data:
        return done(True, True, "the page is this program's rendering of its report with the shipped template, "
                                "byte for byte")
    recorded = doc["template"]["sha256"] if isinstance(doc.get("template"), dict) else None
    ours = isinstance(doc.get("program"), dict) and doc["program"].get("sha256") == program_identity()["sha256"]
    if chosen is not None and chosen.sha256 is not None:
        if recorded is None:
            return done(False, False, f"the report records no custom template, so --template (sha256 "
                                      f"{chosen.sha256[:16]}…) cannot vouch for the page")
        if chosen.sha256 != recorded:
            return done(False, False, f"the template given (sha256 {chosen.sha256[:16]}…) is not the one the "
                                      f"report records (sha256 {recorded[:16]}…)")
        if rendering(template) == data:
            return done(True, True, f"the page is this program's rendering of its report with the template the "
                                    f"report records (sha256 {recorded[:16]}…), byte for byte")
    elif recorded is not None:
        return done(False, False, f"the report records a custom template (sha256 {recorded[:16]}…): give it with "
                                  "--template to check the page")
    if not ours:
        return done(False, False, "another program made the report (its program SHA-256 is not this one's) and this "
                                  "program renders it differently: only the embedded report was verified")
    return done(False, False, "the page is not the rendering of its embedded report",
                "the page is not the rendering of its embedded report: what it shows was changed, added or removed")


__all__ = ["CSV_COLUMNS", "REPORT_FORMATS", "SUMMARY_WRAP", "summary_view", "render_csv", "render_markdown", "render_report",
           "render_reports", "report_view", "verify_page"]
