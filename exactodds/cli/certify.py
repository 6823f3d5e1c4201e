"""Commands ``eor``, ``commission``, ``ride``, ``certify`` and ``verify``.

Registered on the main command line by :func:`register` (``cli_certify.register(app)``); each
command imports its library module when it runs, so start-up stays light.
Each command is a thin wrapper: it resolves the shoe (:func:`exactodds.game.shoespec.resolve_shoe`),
calls one library function and prints, or atomically writes, one rendered string. Bad
input is an :class:`~exactodds.errors.InputError` (one stderr line, exit 2, nothing
written). ``verify`` exits 0 when a report holds (and, for an HTML page, the page is its
rendering byte for byte), 1 when it does not (forged or tampered content included), 2 when
it cannot be read (not JSON, not a report, too large), 3 when the report holds but its page
could not be checked (:attr:`exactodds.games.certificate.Verdict.exit_code`). Long runs show a rich progress bar on stderr
(:func:`exactodds.io.progress.stderr_progress`), only when stderr is a terminal.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Final

import typer

from exactodds.cli.games import with_game_options
from exactodds.cli.options import (
    DecksOpt,
    Format,
    FormatOpt,
    OutputOpt,
    PaytableOpt,
    RemoveOpt,
    ShoeOpt,
    emit,
    parse_meters,
    wager_and_paytable,
)
from exactodds.cli.wagerfiles import with_wager_files
from exactodds.errors import InputError
from exactodds.extras import require
from exactodds.game.shoespec import DEFAULT_DECKS, resolve_shoe
from exactodds.io.progress import stderr_progress

COMMISSION_RULES = ("midibaccarat", "baccarat", "minibaccarat")
"""The keys of :data:`exactodds.figures.commission.RULES` (a test holds them equal), named here so
that building the command line loads no catalogue (start-up, issue 19 item 5)."""


class ReportFormat(str, Enum):
    """Formats of a certification report (``html``: one self-contained printable file;
    ``table``: the summary for a terminal, the whole report being Markdown/HTML)."""

    markdown = "markdown"
    json = "json"
    csv = "csv"
    html = "html"
    xlsx = "xlsx"
    pdf = "pdf"
    table = "table"


ReportFormatOpt = Annotated[ReportFormat | None, typer.Option(
    "--format", "-f", help="markdown (default), json (the report 'verify' checks), csv, html (one printable page "
    "with the JSON embedded), xlsx, pdf (the HTML page printed; needs the [pdf] extra), table (the summary only, "
    "for a terminal). Default: from the -o file's ending (.md .json .csv .html .xlsx .pdf .txt), else markdown; "
    "an ending naming no view, or another than -f, is refused.")]
OutputsOpt = Annotated[list[str] | None, typer.Option(
    "--output", "-o", metavar="FILE", help="Write to FILE ('-' is stdout); repeat it for several views of one run "
    "(each file's ending names its view), all written or none.")]
FormatsOpt = Annotated[str | None, typer.Option(
    "--formats", metavar="LIST", help="Several views of one run, e.g. json,html,xlsx: with -o STEM writes "
    "STEM.json, STEM.html, STEM.xlsx (all or none).")]
TEMPLATE_HELP = ("A folder with certificate.html.j2 and/or certificate.css replacing the shipped HTML template "
                 "(a lab's letterhead). A template is code: use only templates you trust; it runs in Jinja2's "
                 "sandbox, in a child process with bounded CPU time and memory.")
TemplateOpt = Annotated[Path | None, typer.Option("--template", metavar="DIR", help=TEMPLATE_HELP)]
CertifyTemplateOpt = Annotated[Path | None, typer.Option(
    "--template", metavar="DIR", help=TEMPLATE_HELP + " Its SHA-256 is recorded in the report, so that "
    "'verify PAGE --template DIR' can check the page.")]


class VerdictFormat(str, Enum):
    """How ``verify`` states its verdict: lines for people, or one JSON object for machines."""

    text = "text"
    json = "json"


VERIFY_EXIT: Final = {0: "holds", 1: "does not hold", 3: "report holds, page NOT verified"}
"""``verify``'s exit statuses and what they say (2: unreadable, one error line)."""
DocumentOpt = Annotated[Path | None, typer.Option(
    "--document", metavar="FILE", help="Document control (TOML: game, jurisdiction, submitter, lab, analyst, "
    "revision, approval); 'exactodds schema document' gives its schema.")]
DigitsOpt = Annotated[int, typer.Option(
    "--digits", min=1, max=15, help="Significant digits of the decimals a person reads in the HTML page and the "
    "PDF (σ, volatility index, 1 in N, confidence ranges); the exact values stay in the JSON.")]
SensitivityOpt = Annotated[str | None, typer.Option(
    "--sensitivity-decks", metavar="LIST", help="Deck counts of the sensitivity table, e.g. 1,2,4,6,8 "
    "(default 6,7,8).")]


def output_plan(fmt: ReportFormat | None, formats: str | None, outputs: list[str] | None,
                command: str = "certify") -> list[tuple[str, str]]:
    """``(path, format)`` of every view to write (``-`` is standard output): one ``-o`` takes
    ``-f`` or its file's ending; several take their endings; ``--formats`` with one ``-o STEM``
    names ``STEM.<ending>`` per format. Endings follow the one rule of every command
    (:func:`exactodds.report.views.output_format`); anything ambiguous is an input error."""
    from exactodds.report.certify import REPORT_FORMATS
    from exactodds.report.views import ENDINGS, FORMAT_OF_ENDING, output_format

    outs = list(outputs or [])
    if formats is not None:
        if fmt is not None:
            raise InputError("give --format or --formats, not both")
        names = [x.strip() for x in formats.split(",")]
        if not all(names) or len(set(names)) != len(names) or any(n not in REPORT_FORMATS for n in names):
            raise InputError(f"--formats takes different names from {', '.join(REPORT_FORMATS)}, "
                             f"e.g. json,html,xlsx; got {formats[:80]!r}")
        if len(outs) != 1 or outs[0] == "-":
            raise InputError("--formats needs one -o STEM (the files are STEM.json, STEM.html, ...)")
        stem = outs[0]
        ending = Path(stem).suffix.lower()
        if ending in FORMAT_OF_ENDING:
            stem = stem[: -len(ending)]
        return _needs_nothing_missing([(stem + ENDINGS[n], n) for n in names])
    if len(outs) > 1:
        if fmt is not None:
            raise InputError("with several -o, each file's ending names its view (.md .json .csv .html .xlsx .pdf "
                             ".txt); leave out --format")
        plan = []
        for o in outs:
            if o == "-" or Path(o).suffix.lower() not in FORMAT_OF_ENDING:
                raise InputError(f"-o {o!r}: with several outputs each must end in "
                                 f"{', '.join(ENDINGS[f] for f in REPORT_FORMATS)}")
            plan.append((o, output_format(None, o, REPORT_FORMATS, "markdown", command)))
        return _needs_nothing_missing(plan)
    out = outs[0] if outs else "-"
    chosen = output_format(None if fmt is None else fmt.value, out, REPORT_FORMATS, "markdown", command)
    if chosen in ("xlsx", "pdf") and out == "-":
        what = "an xlsx workbook" if chosen == "xlsx" else "a PDF"
        raise InputError(f"{what} is a binary file: name it with -o FILE.{chosen}")
    return _needs_nothing_missing([(out, chosen)])


def _needs_nothing_missing(plan: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``plan``, once the extras its views need are known to be installed: a missing one is
    refused in one line before any figure is computed (a whole-catalogue run takes minutes)."""
    if any(f == "pdf" for _, f in plan):
        from exactodds.report.pdf import WHAT

        require("weasyprint", WHAT)
    return plan


def write_views(doc: dict[str, object], plan: list[tuple[str, str]], template: Path | None,
                digits: int = 6) -> None:
    """Render every view of ``plan`` from the one report and write them all or none
    (:func:`exactodds.io.files.write_all`); a lone ``-`` goes to standard output."""
    from exactodds.io.files import write_all
    from exactodds.report.certify import render_reports

    items = render_reports(doc, plan, template, digits)
    if len(items) == 1 and items[0][0] == "-":
        content = items[0][1]
        if isinstance(content, bytes):
            sys.stdout.buffer.write(content)
        else:
            sys.stdout.write(content)
        return
    write_all(items)


def parse_decks_list(text: str | None) -> tuple[int, ...]:
    """``--sensitivity-decks 1,2,4``: different whole deck counts, 1 to 1000."""
    from exactodds.games.certificate import MAX_SENSITIVITY, SENSITIVITY_DECKS

    if text is None:
        return SENSITIVITY_DECKS
    parts = [p.strip() for p in text.split(",")]
    if len(parts) > MAX_SENSITIVITY or not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts):
        raise InputError(f"--sensitivity-decks takes up to {MAX_SENSITIVITY} deck counts 1 to 1000, e.g. 1,2,4,6,8; "
                         f"got {text[:80]!r}")
    return tuple(int(p) for p in parts)


def eor_command(
    wager: Annotated[str | None, typer.Argument(help="Wager id (see 'exactodds list').")] = None,
    paytable: PaytableOpt = None, decks: DecksOpt = DEFAULT_DECKS, shoe: ShoeOpt = None, remove: RemoveOpt = None,
    fmt: FormatOpt = Format.table, all_wagers: Annotated[bool, typer.Option("--all", help="Every wager and paytable.")] = False,
    output: OutputOpt = None,
    meter: Annotated[list[str] | None, typer.Option(
        "--meter", help="Progressive meter amount in dollars, NAME=AMOUNT (repeatable), as in analyze; "
                        "default: the regulated resets.")] = None,
    *, games: list[tuple[str, dict[str, object]]], by_wager: bool,
) -> None:
    """Exact effect of removing one card of each rank (and face, where suits matter) on the return;
    with --game GAME, that game's (under its rule options, from --decks of its deck)."""
    from exactodds.figures.eor import effects_of_removal, eor_catalogue
    from exactodds.report.figure_views import render_eor, render_eor_catalogue

    if games:
        _game_eor(games, bool(wager or paytable or all_wagers or meter or shoe or remove or by_wager), fmt, output)
        return
    wager, paytable = wager_and_paytable(wager, paytable)
    meters = parse_meters(meter or [])
    s = resolve_shoe(decks, shoe, remove)
    if all_wagers:
        if wager is not None or paytable is not None or meters:
            raise InputError("--all covers every wager at its meters' resets; give no WAGER, --paytable or --meter "
                             "with it")
        with stderr_progress("effects of removal") as progress:
            results, skipped = eor_catalogue(s, progress)
        emit(render_eor_catalogue(results, skipped, fmt.value), output)
        return
    if wager is None:
        raise InputError("missing WAGER (or --all); 'exactodds list' shows the wager ids")
    with stderr_progress("effects of removal") as progress:
        result = effects_of_removal(wager, paytable, s, progress, meters or None)
    emit(render_eor(result, fmt.value), output)


def _game_eor(games: list[tuple[str, dict[str, object]]], baccarat_options: bool, fmt: Format,
              output: str | None) -> None:
    """``eor --game GAME``: the game's :meth:`~exactodds.game.protocol.Game.effects_of_removal`."""
    from exactodds.games.registry import get_game
    from exactodds.report.figure_views import game_eor_view
    from exactodds.report.views import render_view

    if len(games) != 1 or baccarat_options:
        raise InputError("eor --game takes one game, and no WAGER, --paytable, --all, --meter, --shoe or --remove "
                         "(those are baccarat's)")
    gid, values = games[0]
    game = get_game(gid)
    rules = game.rules(values)
    with stderr_progress("effects of removal") as progress:
        doc = game.effects_of_removal(rules, progress)
    if doc is None:
        raise InputError(f"{game.title} has no effects of removal")
    emit(render_view(game_eor_view(doc), fmt.value), output)


def commission_command(
    wager: Annotated[str, typer.Argument(help="A wager with a commission (default banker).")] = "banker",
    paytable: PaytableOpt = None, decks: DecksOpt = DEFAULT_DECKS, shoe: ShoeOpt = None, remove: RemoveOpt = None,
    wager_amount: Annotated[str | None, typer.Option("--wager-amount", help="One wager amount in dollars, e.g. 7.50.")] = None,
    rounding: Annotated[str | None, typer.Option(
        "--commission-rounding", help="Round the commission up to a multiple of this many dollars (e.g. 0.25), "
        "or 'none'; default: the --rule's increment.")] = None,
    rule: Annotated[str, typer.Option("--rule", help=f"Table rule for the default rounding: {', '.join(COMMISSION_RULES)}.")] = "baccarat",
    amounts: Annotated[str | None, typer.Option("--amounts", help="Edge table amounts: '5,7.5,10' or '2.5:50:2.5'.")] = None,
    fmt: FormatOpt = Format.table, output: OutputOpt = None,
) -> None:
    """Exact return per unit of a wager amount with the commission rounded up (§ 629a.12(c))."""
    s = resolve_shoe(decks, shoe, remove)
    from exactodds.catalogue import get_wager
    from exactodds.figures.commission import (
        DEFAULT_AMOUNTS,
        commission_rate,
        edge_table,
        parse_amounts,
        parse_increment,
        parse_money,
    )

    w = get_wager(wager)
    rate = commission_rate(w.paytable(paytable))
    inc = parse_increment(rounding, rate, rule)
    if wager_amount is not None and amounts is not None:
        raise InputError("give --wager-amount or --amounts, not both")
    points = [parse_money(wager_amount, "--wager-amount")] if wager_amount is not None else (
        parse_amounts(amounts) if amounts is not None else list(DEFAULT_AMOUNTS))
    rows = edge_table(w, paytable, s, points, inc)
    if wager_amount is not None and fmt in (Format.table, Format.markdown):
        from exactodds.report.formats import render_analysis

        emit(render_analysis(rows[0].analysis, fmt.value), output)
        return
    from exactodds.report.figure_views import render_commission

    emit(render_commission(rows, fmt.value), output)


def ride_command(
    main: Annotated[str, typer.Argument(help="The wager the payout rides on: banker or player, § 629a.8(c)(3) "
                                            "(any paytable of theirs, a paytable file's too).")] = "banker",
    paytable: PaytableOpt = None, decks: DecksOpt = DEFAULT_DECKS, shoe: ShoeOpt = None, remove: RemoveOpt = None,
    fraction: Annotated[str, typer.Option("--fraction", help="Part of a winning payout ridden, 0 to 1 (e.g. 1/2).")] = "1",
    main_stake: Annotated[str, typer.Option("--main-stake", help="Main wager per unit of House Money wager.")] = "1",
    fmt: FormatOpt = Format.table, output: OutputOpt = None,
) -> None:
    """House Money with its payout added to the Banker or Player wager (§ 629a.8(c)(3))."""
    from exactodds.figures.ride import ride_analysis
    from exactodds.report.figure_views import render_ride

    s = resolve_shoe(decks, shoe, remove)
    emit(render_ride(ride_analysis(main, paytable, s, fraction, main_stake), fmt.value), output)


def certify_command(
    wager: Annotated[str | None, typer.Argument(help="Wager id; or --all for the whole catalogue.")] = None,
    paytable: PaytableOpt = None, decks: DecksOpt = DEFAULT_DECKS, shoe: ShoeOpt = None, remove: RemoveOpt = None,
    all_wagers: Annotated[bool, typer.Option("--all", help="Certify every wager and paytable.")] = False,
    no_eor: Annotated[bool, typer.Option("--no-eor", help="Leave out the effects of removal.")] = False,
    fmt: ReportFormatOpt = None, output: OutputsOpt = None, formats: FormatsOpt = None,
    template: CertifyTemplateOpt = None, document: DocumentOpt = None, sensitivity_decks: SensitivityOpt = None,
    digits: DigitsOpt = 6, *, games: list[tuple[str, dict[str, object]]], by_wager: bool,
) -> None:
    """A certification report (a par sheet): citations, readings, exact tables, par-sheet figures,
    EOR, sensitivity, verification. One run: every view quotes one fingerprint. Each --game adds
    that game's entry, under its own rule options (e.g. --reading, --h17), recorded in the report."""
    from exactodds.games.certificate import certify
    from exactodds.report.document import read_document

    wager, paytable = wager_and_paytable(wager, paytable)
    s = resolve_shoe(decks, shoe, remove)
    if all_wagers and wager is not None or not (all_wagers or wager is not None or games):
        raise InputError("give one WAGER, --all or --game GAME"
                         + (" (--game baccarat certifies a WAGER or --all)" if by_wager else ""))
    plan = output_plan(fmt, formats, output)
    from exactodds.report.template import load_template

    chosen = load_template(template) if template is not None else None
    control = read_document(document) if document is not None else None
    wagers: list[str] | None = None if all_wagers else ([wager] if wager is not None else [])
    with stderr_progress("certify") as progress:
        doc = certify(wagers, paytable, s, parse_decks_list(sensitivity_decks), effects_of_removal=not no_eor,
                      progress=progress, games=games, document=control,
                      template=chosen.record() if chosen else None)
    write_views(doc, plan, template, digits)


def _is_page(data: bytes) -> bool:
    head = data[:512].lstrip().lower()
    return head.startswith(b"<!doctype html") or head.startswith(b"<html")


def verdict_of(report: str, template: Path | None = None) -> tuple[object, dict[str, object] | None]:
    """Read and verify ``report`` (the JSON, or an HTML page embedding it): the verdict and
    the report document (None when it is unreadable as one). Unreadable: an input error."""
    from exactodds.games.certificate import ReportError, parse_report, verify_text
    from exactodds.inputs import MAX_FILE_BYTES, read_capped
    from exactodds.report.certify import verify_page
    from exactodds.report.html import embedded_report

    data = read_capped(report, "report", MAX_FILE_BYTES)
    try:
        with stderr_progress("verify") as progress:
            if _is_page(data):
                verdict = verify_page(data, progress, template)
                try:
                    text = embedded_report(data.decode("utf-8", "replace")) or ""
                except ValueError:  # two embedded reports: the verdict says so
                    text = ""
            else:
                if template is not None:
                    raise InputError(f"{report}: --template checks an HTML page; this is not one")
                verdict = verify_text(data, progress)
                text = data.decode("utf-8", "replace")
        try:
            doc: dict[str, object] | None = parse_report(text)[0]
        except (ReportError, ValueError):
            doc = None
    except ReportError as exc:
        raise InputError(f"{report}: {exc}") from None
    return verdict, doc


def verify_command(
    report: Annotated[str, typer.Argument(help="A JSON report written by 'exactodds certify --format json', or "
                                               "its HTML page (which embeds it). Markdown, CSV and xlsx views "
                                               "cannot be verified.")],
    template: TemplateOpt = None,
    fmt: Annotated[VerdictFormat, typer.Option(
        "--format", "-f", help="text (default), or json: one JSON object (verdict, exit_code, problems, notes, "
                               "...) for machines.")] = VerdictFormat.text,
) -> None:
    """Recompute a report; exit 0 if it holds, 1 if it does not, 2 if it cannot be read,
    3 if the report holds but its HTML page could not be checked.

    Structure, repeated keys, fingerprint and inputs are checked first; the figures are
    recomputed only when those hold. An HTML page must also be the rendering of the report
    it embeds, byte for byte: with the shipped template, or with --template DIR when the
    report records that template's SHA-256 (certify --template). A page made with a custom
    template that is not given, or not the one recorded, is "report holds, page NOT
    verified" (exit 3), never HOLDS. Files larger than 64 MiB are refused unread; a report
    embedding more wager files than verify takes on is refused in one line (exit 2).
    """
    import json

    from exactodds.games.certificate import Verdict

    verdict, doc = verdict_of(report, template)
    assert isinstance(verdict, Verdict)
    code = verdict.exit_code
    if fmt is VerdictFormat.json:
        fp = doc.get("fingerprint") if doc else None
        typer.echo(json.dumps({
            "file": report, "verdict": VERIFY_EXIT[code], "exit_code": code, "holds": verdict.holds,
            "report_holds": verdict.report_holds, "page_verified": verdict.page_verified, "page": verdict.page or None,
            "fingerprint_ok": verdict.fingerprint_ok, "recomputed_ok": verdict.recomputed_ok,
            "fingerprint": fp.get("value") if isinstance(fp, dict) else None,
            "problems": verdict.problems, "notes": verdict.notes}, indent=2, ensure_ascii=False))
    else:
        for note in verdict.notes:
            typer.echo(f"note: {note}")
        if code == 0:
            typer.echo("HOLDS: fingerprint matches and every figure recomputes exactly"
                       + (f"; {verdict.page}" if verdict.page else "") + f" ({report})")
        elif code == 3:
            typer.echo(f"REPORT HOLDS, PAGE NOT VERIFIED ({report}): {verdict.page}")
        else:
            typer.echo(f"DOES NOT HOLD ({report}):")
            for p in verdict.problems:
                typer.echo(f"  - {p}")
    if code:
        raise typer.Exit(code=code)


def render_command(
    report: Annotated[str, typer.Argument(help="A JSON report (or its HTML page) to render again.")],
    fmt: ReportFormatOpt = None, output: OutputsOpt = None, formats: FormatsOpt = None, template: TemplateOpt = None,
    digits: DigitsOpt = 6,
) -> None:
    """Render views of an existing report: it is verified first (every figure recomputed), and a
    report that does not hold is refused (exit 1, nothing written). An HTML page with --template
    needs a report that records that template (certify --template), else it is refused."""
    from exactodds.games.certificate import Verdict

    plan = output_plan(fmt, formats, output, "render")
    from exactodds.report.template import load_template

    chosen = load_template(template) if template is not None else None
    verdict, doc = verdict_of(report)
    assert isinstance(verdict, Verdict)
    if not verdict.report_holds or doc is None:
        typer.echo(f"DOES NOT HOLD ({report}); nothing rendered:", err=True)
        for p in verdict.problems:
            typer.echo(f"  - {p}", err=True)
        raise typer.Exit(code=1)
    recorded = doc.get("template")
    if chosen is not None and (not isinstance(recorded, dict) or recorded.get("sha256") != chosen.sha256) \
            and any(f in ("html", "pdf") for _, f in plan):
        raise InputError("render --template: the report does not record this template (its SHA-256), so no page "
                         "rendered with it could be verified; certify with --template DIR to record it")
    write_views(doc, plan, template, digits)


def register(app: typer.Typer) -> None:
    """Add ``eor``, ``commission``, ``ride``, ``certify`` and ``verify`` to ``app``."""
    app.command("eor")(with_wager_files(with_game_options(eor_command)))
    app.command("commission")(commission_command)
    app.command("ride")(with_wager_files(ride_command))
    app.command("certify")(with_wager_files(with_game_options(certify_command)))
    app.command("verify")(verify_command)
    app.command("render")(render_command)
