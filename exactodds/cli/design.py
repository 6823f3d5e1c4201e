"""The ``design`` command: a paytable's return as an exact expression in its pays, a solver
for a target house edge, and a sweep (:mod:`exactodds.figures.design`).

Register with ``cli_design.register(app)``. No ``from __future__ import annotations`` here:
typer reads the option annotations of the nested command.
"""

from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from fractions import Fraction

    from exactodds.catalogue.model import Paytable, Wager
    from exactodds.game.cards import Shoe

NO_SOLUTION = 1
"""Exit status of ``design --solve`` when no value of the unknown gives the target house edge
(the report, written as usual, says so); 2 stays bad input, 0 a solution."""


def register(app: typer.Typer) -> None:
    """Add the ``design`` command to ``app``."""
    from exactodds.cli.options import DecksOpt, Format, FormatOpt, OutputOpt, PaytableOpt, RemoveOpt, ShoeOpt, emit
    from exactodds.cli.wagerfiles import with_wager_files

    @app.command("design")
    @with_wager_files
    def design_command(
        wager: Annotated[str, typer.Argument(help="Wager id (see 'exactodds list').")],
        paytable: PaytableOpt = None,
        decks: DecksOpt = 8,
        shoe_spec: ShoeOpt = None,
        remove: RemoveOpt = None,
        solve: Annotated[str | None, typer.Option(
            "--solve", metavar="NAME",
            help="Solve for this outcome's pay, 'commission', or a meter's amount, given --target-edge.")] = None,
        target_edge: Annotated[str | None, typer.Option(
            "--target-edge", metavar="EDGE", help="Target house edge, e.g. 5% or 0.05.")] = None,
        step: Annotated[str | None, typer.Option(
            "--step", help="Allowed pays are multiples of this (default 1 for an 'N to 1' pay): "
                           "the nearest on both sides are priced.")] = None,
        sweep_spec: Annotated[str | None, typer.Option(
            "--sweep", metavar="NAME=LO..HI[:STEP]", help="House edge for each value, e.g. 'Dragon 7=30..50'.")] = None,
        plot: Annotated[str | None, typer.Option(
            "--plot", metavar="FILE", help="With --sweep: also write a chart, PNG, SVG or PDF as its suffix says (matplotlib).")] = None,
        meter: Annotated[list[str] | None, typer.Option(
            "--meter", help="Progressive meter amount in dollars, NAME=AMOUNT (repeatable).")] = None,
        fmt: FormatOpt = Format.table,
        output: OutputOpt = None,
    ) -> None:
        """Pays as symbols: the exact return, the pay for a target edge, or a sweep of pays.
        Exit 0; 1 when --solve finds no value giving the target edge; 2 bad input."""
        from exactodds.catalogue import get_wager
        from exactodds.cli.options import parse_meters
        from exactodds.errors import InputError
        from exactodds.figures.analysis import analyze
        from exactodds.game.shoespec import resolve_shoe
        from exactodds.report import design as views

        meters = parse_meters(meter or [])
        shoe = resolve_shoe(decks, shoe_spec, remove)
        w = get_wager(wager)
        table = w.paytable(paytable)
        if solve is not None and sweep_spec is not None:
            raise InputError("give --solve or --sweep, not both")
        if plot is not None and sweep_spec is None:
            raise InputError("--plot draws a sweep; give --sweep with it")
        if solve is not None:
            _solve(w, table, shoe, meters, solve, target_edge, step, fmt.value, output)
            return
        if target_edge is not None or step is not None:
            raise InputError("--target-edge and --step go with --solve")
        if sweep_spec is not None:
            _sweep(w, table, shoe, meters, sweep_spec, plot, fmt.value, output)
            return
        emit(views.render(views.expression_view(analyze(w, table.id, shoe, meters or None)), fmt.value), output)


def _solve(w: "Wager[Any]", table: "Paytable", shoe: "Shoe", meters: "dict[str, Fraction]", solve: str, target_edge: str | None, step: str | None,
           fmt: str, output: str | None) -> None:
    """``design --solve``: the pay (or commission, or meter) giving the target edge; exit
    :data:`NO_SOLUTION` when none does (the report, written as usual, says so)."""
    from fractions import Fraction

    from exactodds.cli.options import emit
    from exactodds.errors import InputError
    from exactodds.figures import design as d
    from exactodds.inputs import parse_number
    from exactodds.report import design as views

    if target_edge is None:
        raise InputError("--solve needs --target-edge (e.g. --target-edge 5%)")
    unknown = d.find_unknown(w, table, solve)
    step_v = parse_number(step, "--step") if step is not None else (
        Fraction(1) if unknown.kind == "pay" else None)
    sol = d.solve_edge(w, table, shoe, unknown, d.parse_edge(target_edge), step_v, meters)
    emit(views.render(views.solution_view(sol), fmt), output)
    if sol.value is None:
        raise typer.Exit(NO_SOLUTION)


def _sweep(w: "Wager[Any]", table: "Paytable", shoe: "Shoe", meters: "dict[str, Fraction]", sweep_spec: str, plot: str | None, fmt: str,
           output: str | None) -> None:
    """``design --sweep``: the house edge for each value of one unknown, and its chart with ``--plot``."""
    from fractions import Fraction

    from exactodds.cli.options import emit
    from exactodds.extras import plot_format
    from exactodds.figures import design as d
    from exactodds.io.files import check_writable, write_all
    from exactodds.report import design as views

    name, lo, hi, sweep_step = d.parse_range(sweep_spec, "--sweep")
    unknown = d.find_unknown(w, table, name)
    plot_fmt = None
    if plot is not None:  # before the work: a chart is the file its suffix names
        check_writable(plot)
        plot_fmt = plot_format(plot)
    rows = d.sweep(w, table, shoe, unknown, lo, hi, Fraction(1) if sweep_step is None else sweep_step, meters)
    text = views.render(views.sweep_view(unknown, rows), fmt)
    if plot is None or plot_fmt is None:
        emit(text, output)
        return
    image = views.sweep_plot(unknown, rows, plot_fmt)
    write_all([(plot, image), (output or "-", text)])
