"""A game's certificate entry, from the game seam alone (issue 26).

:func:`game_entry` asks a game (:class:`exactodds.game.protocol.Game`) for its outcome table
under each player strategy, and writes for each the whole par sheet
(:func:`exactodds.figures.parsheet.par_sheet`: hit frequency, house edge, variance ``p/q``,
σ, volatility index, confidence ranges, maximum payout), the second method where the game
has one (every count compared exactly), the game's schedules (e.g. Pai Gow's hold by wager
amount) and the checks. It names no game: every game of the registry gets the same entry,
and every view renders that one shape (:mod:`exactodds.report.certify`,
:mod:`exactodds.report.html`, :mod:`exactodds.report.workbook`).
"""

from __future__ import annotations

from typing import Any, Final

from exactodds.exact import ratio
from exactodds.figures.parsheet import par_sheet, player_advantage_check
from exactodds.game.protocol import Game, OutcomeTable, rules_record

ENTRY_KEYS: Final = frozenset({"game", "title", "citation", "deck", "rules", "readings", "strategies", "schedules",
                               "player_advantage", "verification"})
"""The members of every game entry."""


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
    """The certificate entry of ``game`` under ``rules``: a par sheet per strategy, the
    second method, schedules, readings and checks (see the module docstring)."""
    strategies = []
    checks: list[dict[str, Any]] = []
    seconds = []
    beats = []
    for s in game.strategies:
        t = game.outcome_table(rules, s)
        second = _second(game, rules, s, t)
        seconds.append({"strategy": s, **second})
        got = sum(o.count for o in t.outcomes)
        checks.append({"check": f"{s}: outcome counts add up to the universe", "expected": t.total, "got": got,
                       "holds": got == t.total})
        advantage = player_advantage_check(t, "a strategy")
        checks.append({**advantage, "check": f"{s}: {advantage['check']}"})
        if t.return_ > 0:
            beats.append(s)
        strategies.append({"strategy": s, "outcome_table": t.to_json(), "par_sheet": par_sheet(t),
                           "player_advantage": t.return_ > 0})
    checks += [{"check": text, "holds": holds} for text, holds in game.identities(
        rules, {s: game.outcome_table(rules, s) for s in game.strategies})]
    agree = [x["agrees"] for x in seconds]
    math_hold = all(c["holds"] for c in checks if c.get("kind") != "game") and False not in agree
    return {
        "game": game.id, "title": game.title, "citation": game.citation, "deck": game.deck.to_json(game.decks(rules)),
        "rules": rules_record(rules), "readings": list(game.readings(rules)), "strategies": strategies,
        "schedules": [x.to_json() for x in game.schedules(rules)],
        "player_advantage": {
            "strategies": beats,
            "statement": (f"PLAYER ADVANTAGE: played by {' and '.join(beats)}, the player's return is above 0 -- "
                          "the game as certified can be beaten" if beats else
                          "no player strategy certified here has a return above 0")},
        "verification": {
            "second_method": {"agrees": None if None in agree else all(agree), "strategies": seconds,
                              "statement": ("every strategy's outcome counts recomputed by a second method and "
                                            "compared exactly")},
            "checks": checks, "all_hold": math_hold},
    }


__all__ = ["ENTRY_KEYS", "game_entry"]
