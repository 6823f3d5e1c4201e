"""A certificate's game entry: one shape for every game (issue 26; certificate schema 7).

Every game a certificate holds -- baccarat's wager-paytables as much as Pai Gow's and Spanish
21's player strategies -- is one entry of the report's list ``games`` (:data:`ENTRY_KEYS`): its
id, title and citation, the deck (the shoe line), the rules record (each field's name, section,
option and value), the readings, the **tables**, the schedules, the player-advantage finding and
the entry's own checks. A *table* (:data:`TABLE_KEYS`) is one exact outcome table with its whole
par sheet (:func:`exactodds.figures.parsheet.par_sheet`) and its verification (the second method,
compared count by count, and the checks): a wager-paytable of baccarat, a player strategy of
another game. A table may carry more that its game computes -- baccarat's citations, effects of
removal, deck-count sensitivity and progressive figures (in its ``outcome_table``) -- and a view
renders what a table has, never asking which game it is (:mod:`exactodds.report.certify`,
:mod:`exactodds.report.html`, :mod:`exactodds.report.workbook`).

:func:`game_entry` makes the entry of a game of the seam from its hooks alone
(:class:`exactodds.game.protocol.Game`); :func:`entry` assembles any entry from its tables
(baccarat's comes from :func:`exactodds.games.certificate.build_report`, which prices every
wager-paytable of a shoe at once).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from exactodds.exact import ratio
from exactodds.figures.parsheet import par_sheet, player_advantage_check
from exactodds.game.protocol import Game, OutcomeTable, rules_record

ENTRY_KEYS: Final = frozenset({"game", "title", "citation", "deck", "rules", "readings", "tables", "schedules",
                               "player_advantage", "verification"})
"""The members of every game entry."""
TABLE_KEYS: Final = frozenset({"id", "title", "outcome_table", "par_sheet", "player_advantage", "verification"})
"""The members of every table of an entry (a game may add its own: :data:`TABLE_EXTRAS`)."""
TABLE_EXTRAS: Final = frozenset({"wager", "paytable", "level", "citations", "readings", "effects_of_removal",
                                 "sensitivity"})
"""Members a table may add (baccarat's wager-paytables: ids, citations, effects of removal, sensitivity)."""


def table(id_: str, title: str, outcome_table: dict[str, Any], sheet: dict[str, Any], advantage: bool,
          verification: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """One table of an entry (:data:`TABLE_KEYS` and any of :data:`TABLE_EXTRAS`): ``title`` is
    what every view heads it with and lists it as in its summary."""
    unknown = set(extra) - TABLE_EXTRAS
    if unknown:
        raise TypeError(f"not a member of a table: {sorted(unknown)}")
    return {"id": id_, "title": title, **extra, "outcome_table": outcome_table, "par_sheet": sheet,
            "player_advantage": advantage, "verification": verification}


def entry(game: type[Game] | Game, deck: dict[str, Any], rules: list[dict[str, Any]], readings: Sequence[str],
          tables: list[dict[str, Any]], schedules: Iterable[dict[str, Any]] = (),
          checks: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """A game entry from its tables: ``checks`` are the entry's own (identities across its
    tables); ``verification/all_hold`` says every check of the mathematics holds, the tables'
    and the entry's (a finding about the game, ``kind: game``, is not one)."""
    beats = [t["id"] for t in tables if t["player_advantage"]]
    math = [c for c in checks if c.get("kind") != "game"]
    return {
        "game": game.id, "title": game.title, "citation": game.citation, "deck": deck, "rules": rules,
        "readings": list(readings), "tables": tables, "schedules": list(schedules),
        "player_advantage": {
            "tables": beats,
            "statement": (f"PLAYER ADVANTAGE: {', '.join(beats)} -- the player's return is above 0, the game as "
                          "certified can be beaten" if beats else
                          "no table certified here has a return above 0")},
        "verification": {"checks": list(checks),
                         "all_hold": all(c["holds"] is not False for c in math)
                         and all(t["verification"]["all_hold"] for t in tables)},
    }


def _second(game: Game, rules: Any, strategy: str, first: OutcomeTable) -> dict[str, Any]:
    """The game's second method for one strategy, compared row by row, exactly."""
    found = game.second_method(rules, strategy)
    if found is None:
        return {"method": None, "statement": f"no second method for {game.title}", "agrees": None}
    method, second = found
    counts = {o.name: o.count for o in second.outcomes}
    rows = [{"outcome": o.name, "count": counts.get(o.name, 0), "agrees": counts.get(o.name, 0) == o.count}
            for o in first.outcomes]
    agrees = (all(r["agrees"] for r in rows) and set(counts) <= {o.name for o in first.outcomes}
              and second.total == first.total and second.return_ == first.return_)
    return {"method": method, "statement": "every outcome count and the return recomputed and compared exactly",
            "outcomes": rows, "universe": second.total, "return": ratio(second.return_), "agrees": agrees}


def game_entry(game: Game, rules: Any) -> dict[str, Any]:
    """The certificate entry of ``game`` under ``rules``: a table per player strategy (outcome
    table, par sheet, second method, checks), the schedules, readings and the game's identities
    (see the module docstring)."""
    tables = []
    made = {}
    for s in game.strategies:
        t = made[s] = game.outcome_table(rules, s)
        second = _second(game, rules, s, t)
        got = sum(o.count for o in t.outcomes)
        checks = [{"check": "outcome counts add up to the universe", "expected": t.total, "got": got,
                   "holds": got == t.total}]
        holds = got == t.total and second["agrees"] is not False
        checks.append(player_advantage_check(t, "a strategy"))  # about the game: not part of all_hold
        tables.append(table(s, f"{game.title} — {s}", t.to_json(), par_sheet(t), t.return_ > 0,
                            {"second_method": second, "checks": checks, "all_hold": holds}))
    checks_ = [{"check": text, "holds": holds} for text, holds in game.identities(rules, made)]
    return entry(game, game.deck.to_json(game.decks(rules)), rules_record(rules), game.readings(rules), tables,
                 (x.to_json() for x in game.schedules(rules)), checks_)


__all__ = ["ENTRY_KEYS", "TABLE_EXTRAS", "TABLE_KEYS", "entry", "game_entry", "table"]
