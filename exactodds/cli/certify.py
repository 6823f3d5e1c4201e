"""Commands ``eor``, ``commission``, ``ride``, ``certify`` and ``verify``.

Registered on the main command line by :func:`register` (``cli_certify.register(app)``); each
command imports its library module when it runs, so start-up stays light.
Each command is a thin wrapper: it resolves the shoe (:func:`exactodds.game.shoespec.resolve_shoe`),
calls one library function and prints, or atomically writes, one rendered string. Bad
input is an :class:`~exactodds.errors.InputError` (one stderr line, exit 2, nothing
written). ``verify`` exits 0 when a report holds, 1 when it does not (forged or
tampered content included), 2 when it cannot be read (not JSON, not a report, too
large). Long runs show a rich progress bar on stderr
(:func:`exactodds.report.progress.stderr_progress`), only when stderr is a terminal.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from exactodds.cli.options import DecksOpt, Format, FormatOpt, OutputOpt, PaytableOpt, emit, wager_and_paytable
from exactodds.cli.wagerfiles import with_wager_files
from exactodds.errors import InputError
from exactodds.game.shoespec import DEFAULT_DECKS, RemoveOpt, ShoeOpt, resolve_shoe
from exactodds.report.progress import stderr_progress

COMMISSION_RULES = ("midibaccarat", "baccarat", "minibaccarat")
"""The keys of :data:`exactodds.figures.commission.RULES` (a test holds them equal), named here so
that building the command line loads no catalogue (start-up, issue 19 item 5)."""


class ReportFormat(str, Enum):
    """Formats of a certification report (``html``: one self-contained printable file). No
    plain-table view (its many tables read best as Markdown): ``-f table`` is refused."""

    markdown = "markdown"
    json = "json"
    csv = "csv"
    html = "html"


def eor_command(
    wager: Annotated[str | None, typer.Argument(help="Wager id (see 'exactodds list').")] = None,
    paytable: PaytableOpt = None, decks: DecksOpt = DEFAULT_DECKS, shoe: ShoeOpt = None, remove: RemoveOpt = None,
    fmt: FormatOpt = Format.table, all_wagers: Annotated[bool, typer.Option("--all", help="Every wager and paytable.")] = False,
    output: OutputOpt = None,
) -> None:
    """Exact effect of removing one card of each rank (and face, where suits matter) on the return."""
    from exactodds.figures.eor import effects_of_removal, eor_catalogue
    from exactodds.report.figure_views import render_eor, render_eor_catalogue

    wager, paytable = wager_and_paytable(wager, paytable)
    s = resolve_shoe(decks, shoe, remove)
    if all_wagers:
        if wager is not None or paytable is not None:
            raise InputError("--all covers every wager; give no WAGER or --paytable with it")
        with stderr_progress("effects of removal") as progress:
            results, skipped = eor_catalogue(s, progress)
        emit(render_eor_catalogue(results, skipped, fmt.value), output)
        return
    if wager is None:
        raise InputError("missing WAGER (or --all); 'exactodds list' shows the wager ids")
    with stderr_progress("effects of removal") as progress:
        result = effects_of_removal(wager, paytable, s, progress)
    emit(render_eor(result, fmt.value), output)


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
    main: Annotated[str, typer.Argument(help="The wager the payout rides on: banker or player.")] = "banker",
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
    paigow: Annotated[bool, typer.Option("--paigow", help="Add Pai Gow (ch. 535); alone, certify Pai Gow only.")] = False,
    fmt: Annotated[ReportFormat, typer.Option(
        "--format", "-f", help="markdown (default), json (the report 'verify' checks), csv, html (one printable "
        "file with charts). No plain-table view.")] = ReportFormat.markdown,
    output: OutputOpt = None,
) -> None:
    """A certification report: citations, readings, exact tables, EOR, sensitivity, verification."""
    from exactodds.figures.certify import certify
    from exactodds.report.certify import render_report

    wager, paytable = wager_and_paytable(wager, paytable)
    s = resolve_shoe(decks, shoe, remove)
    if all_wagers and wager is not None or not (all_wagers or wager is not None or paigow):
        raise InputError("give one WAGER, --all or --paigow")
    wagers: list[str] | None = None if all_wagers else ([wager] if wager is not None else [])
    with stderr_progress("certify") as progress:
        doc = certify(wagers, paytable, s, effects_of_removal=not no_eor, progress=progress, paigow=paigow)
    emit(render_report(doc, fmt.value), output)


def verify_command(
    report: Annotated[str, typer.Argument(help="A JSON report written by 'exactodds certify --format json' "
                                               "(the Markdown and CSV views cannot be verified).")],
) -> None:
    """Recompute a JSON report; exit 0 if it holds, 1 if it does not, 2 if it cannot be read.

    Structure, repeated keys, fingerprint and inputs are checked first; the figures are
    recomputed only when those hold. Files larger than 64 MiB are refused unread.
    """
    from exactodds.figures.certify import ReportError, verify_text
    from exactodds.inputs import MAX_FILE_BYTES, read_capped

    data = read_capped(report, "report", MAX_FILE_BYTES)
    try:
        with stderr_progress("verify") as progress:
            verdict = verify_text(data, progress)
    except ReportError as exc:
        raise InputError(f"{report}: {exc}") from None
    for note in verdict.notes:
        typer.echo(f"note: {note}")
    if verdict.holds:
        typer.echo(f"HOLDS: fingerprint matches and every figure recomputes exactly ({report})")
        return
    typer.echo(f"DOES NOT HOLD ({report}):")
    for p in verdict.problems:
        typer.echo(f"  - {p}")
    raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add ``eor``, ``commission``, ``ride``, ``certify`` and ``verify`` to ``app``."""
    app.command("eor")(with_wager_files(eor_command))
    app.command("commission")(commission_command)
    app.command("ride")(ride_command)
    app.command("certify")(with_wager_files(certify_command))
    app.command("verify")(verify_command)
