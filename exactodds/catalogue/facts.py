"""The documented facts of each level's result, read from the levels: what a wager file's
``when`` may test.

Each :class:`~exactodds.engine.level.Level` carries its facts (``Level.facts``, the
:class:`~exactodds.engine.facts.Fact` tables with their citations) and its note
(``Level.notes``), declared in :mod:`exactodds.engine.levels`; this module indexes them by
level name for the readers that name a level by its string: :mod:`exactodds.catalogue.files`
checks ``when`` against them, :mod:`exactodds.report.schemas` writes them into the JSON
Schema of a wager file, and :func:`facts_markdown` writes the tables of
``docs/wager-files.md`` (a test keeps the document in sync).

>>> from exactodds.engine.levels import COUP
>>> nearest_fact(COUP.name, "banker_totl")
'banker_total'
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Final

from exactodds.engine.facts import Fact
from exactodds.engine.levels import LEVELS

FACTS: Final[dict[str, tuple[Fact, ...]]] = {name: lv.facts for name, lv in LEVELS.items() if lv.facts}
"""Level name -> its facts, in documentation order (the order of :data:`LEVELS`)."""

LEVEL_NOTES: Final[dict[str, str]] = {name: LEVELS[name].notes for name in FACTS}
"""Level name -> its note (one line, for the documentation and the schema)."""


def facts_of(level: str) -> dict[str, Fact]:
    """The facts of ``level`` by name (``KeyError`` for a level without facts)."""
    return {f.name: f for f in FACTS[level]}


def nearest_fact(level: str, name: str) -> str | None:
    """The fact of ``level`` whose name is closest to ``name`` (for "did you mean")."""
    near = difflib.get_close_matches(name, [f.name for f in FACTS[level]], n=1, cutoff=0.5)
    return near[0] if near else None


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def facts_markdown(levels: Sequence[str] | None = None) -> str:
    """The facts tables of ``docs/wager-files.md``: one table per level."""
    out: list[str] = []
    for level in levels or list(FACTS):
        out += [f"### `{level}`", "", LEVEL_NOTES[level], "",
                "| fact | type | allowed values | meaning | citation |", "|---|---|---|---|---|"]
        out += [f"| `{f.name}` | {f.kind} | {_cell(f.allowed())} | {_cell(f.meaning)} | {_cell(f.cite)} |"
                for f in FACTS[level]]
        out.append("")
    return "\n".join(out)


__all__ = ["FACTS", "LEVEL_NOTES", "Fact", "facts_markdown", "facts_of", "nearest_fact"]
