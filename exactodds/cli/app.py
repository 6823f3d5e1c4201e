"""The ``exactodds`` command line: a thin layer over the library.

Every command calls library functions and prints (or atomically writes) one rendered
string. Bad input -- an unknown wager or paytable, an impossible shoe, a malformed
option -- prints one line ``exactodds: error: ...`` on stderr and exits with status 2,
with nothing on stdout.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Annotated, Any, NoReturn

import click
import typer
from click import exceptions as _cx  # typer < 0.20 (pyproject.toml) is built on click
from typer.core import TyperGroup

from exactodds.cli.options import (
    DecksOpt,
    Format,
    FormatOpt,
    OutputOpt,
    RemoveOpt,
    ShoeOpt,
    emit,
    format_by_ending,
    parse_meters,
    wager_and_paytable,
)
from exactodds.cli.wagerfiles import with_wager_files
from exactodds.errors import InputError
from exactodds.extras import missing_extra_message
from exactodds.version import __version__

EXIT_INPUT = 2


MAX_ERROR_TOKEN = 400
"""A run of more characters than this without a space in an error message is shortened."""


def one_line(message: str) -> str:
    """``message`` on one line, each overlong unbroken run (usually echoed input) shortened.

    >>> one_line("bad\\nvalue " + "x" * 1000)[:20], one_line("x" * 1000)[-18:]
    ('bad value xxxxxxxxxx', '(1,000 characters)')
    """
    flat = " ".join(message.split())
    return re.sub(rf"\S{{{MAX_ERROR_TOKEN + 1},}}",
                  lambda m: f"{m.group(0)[:MAX_ERROR_TOKEN // 2]}… ({len(m.group(0)):,} characters)", flat)


def fail(message: str) -> NoReturn:
    """Print one error line on stderr and exit 2."""
    typer.echo(f"exactodds: error: {one_line(message)}", err=True)
    sys.exit(EXIT_INPUT)


COMPLETION_SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
"""Shells typer writes completion scripts for."""


def _check_completion_shell(argv: list[str]) -> None:
    """``--show-completion`` / ``--install-completion`` on a shell typer cannot serve: one
    error line and exit 2 (typer itself would print a bare message and exit 1)."""
    root = []
    for a in argv:
        if not a.startswith("-"):
            break
        root.append(a)
    if not {"--show-completion", "--install-completion"} & set(root):
        return
    shell = None
    if not os.getenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION"):
        import shellingham  # type: ignore[import-untyped]

        try:
            shell = shellingham.detect_shell()[0]
        except shellingham.ShellDetectionFailure:
            shell = None
    if shell not in COMPLETION_SHELLS:
        fail(f"shell completion is available for {', '.join(COMPLETION_SHELLS)}; "
             + ("the current shell could not be detected" if shell is None else f"not for {shell!r}"))


class _HelpFormatter(click.HelpFormatter):
    """click's help formatter without the ``\\[`` typer writes before ``[default: …]`` when
    rich is installed but rich markup is off (``rich_markup_mode=None``): help renders cleanly."""

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(term, text.replace("\\[", "[")) for term, text in rows], col_max, col_spacing)


class _Context(click.Context):
    """Every command's context: formats help with :class:`_HelpFormatter`."""

    formatter_class = _HelpFormatter


def _command_name(argv: list[str] | None) -> str:
    """The subcommand named on the command line (for messages), else ``exactodds``."""
    words = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    return words[0] if words else "exactodds"


class _OneLineErrors(TyperGroup):
    """Turn every usage or input error into a single stderr line and exit 2."""

    context_class = _Context

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        """Each subcommand also formats its help with :class:`_HelpFormatter`."""
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None:
            cmd.context_class = _Context
            format_by_ending(cmd)
        return name, cmd, rest

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        argv = kwargs.get("args", args[0] if args else None)
        _check_completion_shell(sys.argv[1:] if argv is None else list(argv))
        try:
            rv = super().main(*args, **kwargs)
        except InputError as exc:
            fail(str(exc))
        except ImportError as exc:  # an optional extra (exactodds/extras.py) not installed
            message = missing_extra_message(exc, _command_name(argv))
            if message is None:
                raise
            fail(message)
        except OSError as exc:  # e.g. --install-completion with an unwritable home folder
            fail(f"{exc.strerror or exc.__class__.__name__}: {exc.filename or ''}".rstrip(": "))
        except getattr(_cx, "NoArgsIsHelpError", ()) as exc:
            typer.echo(exc.ctx.get_help() if exc.ctx else "")
            sys.exit(0)
        except _cx.UsageError as exc:
            hint = f" (see 'exactodds {exc.ctx.command.name} --help')" if exc.ctx and exc.ctx.parent else \
                " (see 'exactodds --help')"
            fail(exc.format_message() + hint)
        except _cx.ClickException as exc:
            fail(exc.format_message())
        except typer.Abort:
            fail("aborted")
        except typer.Exit as exc:
            sys.exit(exc.exit_code)
        if isinstance(rv, int) and rv:
            sys.exit(rv)
        sys.exit(0)


app = typer.Typer(
    cls=_OneLineErrors,
    help="Exact odds of every regulated baccarat wager (58 Pa. Code).",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"exactodds {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Exact odds of every regulated baccarat wager (58 Pa. Code)."""


@app.command("list")
def list_wagers(fmt: FormatOpt = Format.table, output: OutputOpt = None) -> None:
    """Every wager id with its paytables (default first) and citation."""
    from exactodds.catalogue import CATALOGUE
    from exactodds.report.formats import render_wager_list

    emit(render_wager_list(CATALOGUE.values(), fmt.value), output)


@app.command("analyze")
@with_wager_files
def analyze_command(
    wager: Annotated[str | None, typer.Argument(help="Wager id, or WAGER:PAYTABLE (see 'exactodds list').")] = None,
    paytable: Annotated[str | None, typer.Option("--paytable", "-p", help="Paytable id (default: the catalogue's).")] = None,
    decks: DecksOpt = 8,
    shoe_spec: ShoeOpt = None,
    remove: RemoveOpt = None,
    fmt: FormatOpt = Format.table,
    all_wagers: Annotated[bool, typer.Option("--all", help="Every wager and paytable, sorted by house edge.")] = False,
    output: OutputOpt = None,
    meter: Annotated[list[str] | None, typer.Option(
        "--meter", help="Progressive meter amount in dollars, NAME=AMOUNT (repeatable), e.g. mega=62500.")] = None,
    seen: Annotated[list[str] | None, typer.Option(
        "--seen", metavar="HAND=CARDS",
        help="Cards already seen this round, e.g. --seen player=9H,5C --seen banker=KD (mid-hand odds).")] = None,
) -> None:
    """Exact outcome table, return, house edge, variance and more for one wager."""
    from exactodds.catalogue import CATALOGUE, get_wager
    from exactodds.figures.analysis import analyze, analyze_pairs
    from exactodds.game.shoespec import resolve_shoe
    from exactodds.report.formats import render_analysis, render_catalogue

    wager, paytable = wager_and_paytable(wager, paytable)
    meters = parse_meters(meter or [])
    shoe = resolve_shoe(decks, shoe_spec, remove)
    if seen:
        from exactodds.figures.midhand import analyze_seen, parse_seen
        from exactodds.report.midhand import render_seen

        if all_wagers or wager is None or meters:
            raise InputError("--seen conditions one WAGER (no --all, no --meter)")
        cards = parse_seen(seen)
        emit(render_seen(analyze_seen(wager, paytable, shoe, cards), cards.describe(), fmt.value), output)
        return
    if all_wagers:
        if wager is not None or paytable is not None or meters:
            raise InputError("--all analyses every wager; give no WAGER or --paytable with it")
        analyses = analyze_pairs([(w, p) for w in CATALOGUE.values() for p in w.paytables], shoe)
        emit(render_catalogue(analyses, fmt.value), output)
        return
    if wager is None:
        raise InputError("missing WAGER (or --all); 'exactodds list' shows the wager ids")
    w = get_wager(wager)
    emit(render_analysis(analyze(w, paytable, shoe, meters or None), fmt.value), output)


def _register_commands() -> None:
    """Commands that live in their own modules (each a thin layer over its library module); a
    game of the registry brings its own command module (:attr:`exactodds.game.protocol.Game.cli`)."""
    import importlib

    from exactodds.cli import blackjack as cli_blackjack
    from exactodds.cli import certify as cli_certify
    from exactodds.cli import design as cli_design
    from exactodds.cli import midhand as cli_midhand
    from exactodds.cli import progressive as cli_progressive
    from exactodds.cli import shufflecheck as cli_shufflecheck
    from exactodds.cli import simulate as cli_simulate
    from exactodds.cli import study as cli_study
    from exactodds.cli import tables as cli_tables
    from exactodds.cli import wagerfiles as cli_wagerfiles
    from exactodds.games.registry import GAMES

    games = [importlib.import_module(g.cli) for g in GAMES if g.cli]
    for module in (cli_tables, cli_progressive, cli_certify, cli_simulate, cli_study, *games, cli_wagerfiles,
                   cli_design, cli_midhand, cli_shufflecheck, cli_blackjack):
        module.register(app)


_register_commands()


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
