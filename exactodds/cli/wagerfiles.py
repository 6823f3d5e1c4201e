"""Wager files for every command that takes a wager, and ``exactodds schema``.

One mechanism: the wagers of the ``--wager-file FILE`` options (repeatable) and of the
folders named by the environment variable :data:`WAGERS_ENV` (``EXACTODDS_WAGERS``, a
path list like ``PATH``: each folder's ``*.toml`` files, by name) are loaded and checked
together, before any work, and registered in the catalogue while the command runs
(:func:`exactodds.catalogue.files.registered`), so the command finds a file's wager by
its id and ``--all`` includes it. A bad file, or a folder that cannot be read, is one
error line (exit 2).

API (for command modules and notebooks):

* :func:`wager_file_paths` -- the files, folders first, then ``--wager-file`` in order;
* :func:`resolve_wagers` -- the resolved :class:`~exactodds.catalogue.model.Wager` list;
* :func:`wagers_registered` -- a context manager that registers them;
* :func:`with_wager_files` -- a decorator adding ``--wager-file`` to a typer command.

Files later in the list may extend (add paytables to) wagers of earlier ones; an explicit
``--wager-file`` therefore overrides a folder's wager of the same id.

``exactodds schema NAME`` prints a JSON Schema (draft 2020-12): ``wager`` (a wager or
paytable file), ``analysis`` (the JSON of ``analyze``) or ``certificate`` (the JSON of
``certify``); the same schemas are published in ``docs/schemas/``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, TypeVar

import typer

from exactodds.errors import InputError

if TYPE_CHECKING:
    from exactodds.catalogue.model import Wager

WAGERS_ENV: Final = "EXACTODDS_WAGERS"
"""Environment variable: folders of TOML wager files (separated by ``os.pathsep``)."""

MAX_FOLDER_ENTRIES: Final = 10_000
"""Most entries read from one wager folder (its ``*.toml`` files are further bounded by
:data:`exactodds.catalogue.files.MAX_FILES`)."""

WagerFileOpt = Annotated[
    list[str] | None,
    typer.Option("--wager-file", metavar="FILE",
                 help=f"A TOML wager or paytable file (repeatable); folders of them in ${WAGERS_ENV} are "
                      "read too. See docs/wager-files.md."),
]

F = TypeVar("F", bound=Callable[..., Any])


def wager_folders(env: Mapping[str, str] | None = None) -> list[str]:
    """The folders named by :data:`WAGERS_ENV` in ``env`` (default ``os.environ``); empty
    entries are skipped.

    >>> wager_folders({"EXACTODDS_WAGERS": "a" + os.pathsep + os.pathsep + "b"})
    ['a', 'b']
    """
    env = os.environ if env is None else env
    return [p for p in env.get(WAGERS_ENV, "").split(os.pathsep) if p.strip()]


def _folder_files(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as it:
            names = []
            for i, entry in enumerate(it):
                if i >= MAX_FOLDER_ENTRIES:
                    raise InputError(f"{WAGERS_ENV}: folder {folder[:200]!r} has more than "
                                     f"{MAX_FOLDER_ENTRIES:,} entries")
                if entry.name.endswith(".toml") and not entry.name.startswith("."):
                    names.append(entry.name)
    except InputError:
        raise
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc.__class__.__name__
        raise InputError(f"{WAGERS_ENV}: cannot read the wager folder {folder[:200]!r} ({reason})") from None
    return [str(Path(folder) / n) for n in sorted(names)]


def wager_file_paths(files: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> list[str]:
    """Every wager file to load: each :data:`WAGERS_ENV` folder's ``*.toml`` files (by
    name, folders in order), then ``files`` (the ``--wager-file`` options) in order."""
    out = [p for folder in wager_folders(env) for p in _folder_files(folder)]
    return out + list(files or [])


def resolve_wagers(files: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> list[Wager[Any]]:
    """The wagers of ``files`` (``--wager-file``) and of the :data:`WAGERS_ENV` folders in
    ``env`` (default ``os.environ``), loaded and checked (one-line input errors), in order
    of first appearance. Nothing is registered: see :func:`wagers_registered`."""
    paths = wager_file_paths(files, env)
    if not paths:
        return []
    from exactodds.catalogue.files import load_wager_files

    return list(load_wager_files(paths))


@contextlib.contextmanager
def wagers_registered(files: Sequence[str] | None = None,
                      env: Mapping[str, str] | None = None) -> Iterator[list[Wager[Any]]]:
    """:func:`resolve_wagers`, registered in the catalogue inside the ``with`` block."""
    wagers = resolve_wagers(files, env)
    if not wagers:
        yield []
        return
    from exactodds.catalogue.files import registered

    with registered(wagers) as out:
        yield out


def with_wager_files(command: F) -> F:
    """``command`` with a ``--wager-file`` option; it runs with the wagers of those files and
    of the :data:`WAGERS_ENV` folders registered (:func:`wagers_registered`).

    The wrapper's signature is the command's plus ``wager_file`` (typer reads it).
    """

    @functools.wraps(command)
    def wrapper(*args: Any, wager_file: list[str] | None = None, **kwargs: Any) -> Any:
        if not wager_file and not wager_folders():  # a plain command reads no TOML machinery
            return command(*args, **kwargs)
        with wagers_registered(wager_file):
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
