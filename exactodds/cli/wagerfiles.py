"""``--wager-file FILE`` for the commands that take wagers, and ``exactodds schema``.

:func:`with_wager_files` adds a repeatable ``--wager-file`` option to a command function
and runs the command with those files' wagers registered in the catalogue
(:func:`exactodds.catalogue.files.registered_files`), so the command itself is
unchanged: ``analyze``, ``eor``, ``certify`` and ``tables`` find a file's wager by its
id, and ``--all`` includes it. A bad file is one error line (exit 2) before any work.

``exactodds schema NAME`` prints a JSON Schema (draft 2020-12): ``wager`` (a wager or
paytable file), ``analysis`` (the JSON of ``analyze``) or ``certificate`` (the JSON of
``certify``); the same schemas are published in ``docs/schemas/``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any, TypeVar

import typer

WagerFileOpt = Annotated[
    list[str] | None,
    typer.Option("--wager-file", metavar="FILE",
                 help="A TOML wager or paytable file (repeatable); see docs/wager-files.md."),
]

F = TypeVar("F", bound=Callable[..., Any])


def with_wager_files(command: F) -> F:
    """``command`` with a ``--wager-file`` option whose wagers it sees while it runs.

    The wrapper's signature is the command's plus ``wager_file`` (typer reads it), and
    it loads and registers the files before calling the command.
    """

    @functools.wraps(command)
    def wrapper(*args: Any, wager_file: list[str] | None = None, **kwargs: Any) -> Any:
        if not wager_file:  # the cold start of a plain command reads no TOML machinery
            return command(*args, **kwargs)
        from exactodds.catalogue.files import registered_files

        with registered_files(wager_file):
            return command(*args, **kwargs)

    sig = inspect.signature(command, eval_str=True)
    extra = inspect.Parameter("wager_file", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=WagerFileOpt)
    params = list(sig.parameters.values())
    wrapper.__signature__ = sig.replace(parameters=[*params, extra])  # type: ignore[attr-defined]
    wrapper.__annotations__ = {**{p.name: p.annotation for p in params}, "wager_file": WagerFileOpt,
                               "return": sig.return_annotation}
    return wrapper  # type: ignore[return-value]


class SchemaName(str, Enum):
    """The published schemas."""

    wager = "wager"
    analysis = "analysis"
    certificate = "certificate"
    document = "document"


def schema_command(
    name: Annotated[SchemaName, typer.Argument(help="wager (a wager or paytable file), analysis (analyze's "
                                                    "JSON), certificate (certify's JSON) or document (certify --document).")],
) -> None:
    """Print a JSON Schema (draft 2020-12) of a wager file or of a JSON output."""
    from exactodds.report.schemas import schema_text

    typer.echo(schema_text(name.value), nl=False)


def register(app: typer.Typer) -> None:
    """Add ``schema`` to ``app``."""
    app.command("schema")(schema_command)
