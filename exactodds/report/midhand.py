"""The view of the mid-hand table (:func:`exactodds.figures.midhand.midhand_table`) through
the one format dispatch: a readable table per stage, one tidy CSV, and JSON with exact counts."""

from __future__ import annotations

from typing import Any

from exactodds.exact import decimal, ratio
from exactodds.figures.midhand import WINNERS, MidhandRow
from exactodds.game.cards import Shoe
from exactodds.report.design import dec15
from exactodds.report.views import Block, Heading, Table, View
from exactodds.version import __version__

UNIVERSE = ("Counts are ordered sequences of the round's six card positions (fewer for a shorter shoe) "
            "from the shoe, by the state the first cards show: Player's two cards (positions 1 and 3), "
            "then the Banker's first (position 2); § 629a.8(c), § 629a.10. A state's probabilities are "
            "its counts over its own total.")
SOURCE = "cf. Wizard of Odds, baccarat Appendix 3 (8 decks): https://wizardofodds.com/games/baccarat/appendix/3/"


def midhand_view(rows: list[MidhandRow], universe: int, shoe: Shoe) -> View:
    """Two-card and three-card states with P(Player), P(Banker), P(Tie)."""
    keys = ("player", "banker", "tie")

    def doc() -> dict[str, Any]:
        return {"shoe": shoe.to_json(), "universe": universe, "universe_reading": UNIVERSE,
                "states": [{"stage": r.stage, "player_total": r.player_total, "banker_card": r.banker_card,
                            "total": r.total, "void": r.void,
                            **{f"{k}_count": r.counts[i] for i, k in enumerate(keys)},
                            **{f"{k}_probability": ratio(r.probability(i)) for i, k in enumerate(keys)},
                            **{f"{k}_probability_decimal": dec15(r.probability(i)) for i, k in enumerate(keys)}}
                           for r in rows],
                "version": __version__}

    def text() -> list[Block]:
        two = [r for r in rows if r.stage == "two cards"]
        out: list[Block] = [Heading(f"Mid-hand odds, {shoe.describe()}", 1), "",
                            Heading("After the Player's two cards", 2), "",
                            Table(["Player total", *WINNERS],
                                  [[str(r.player_total), *(decimal(r.probability(i), 6) for i in range(3))]
                                   for r in two])]
        for i, name in enumerate(WINNERS):
            body = []
            for b in range(10):
                by_t = {r.player_total: r for r in rows if r.stage == "three cards" and r.banker_card == b}
                body.append([str(b), *(decimal(by_t[t].probability(i), 6) if by_t[t].total else "-"
                                       for t in range(10))])
            out += ["", Heading(f"{name} after three cards (rows: Banker's first card, columns: Player total)", 2),
                    "", Table(["Banker card", *map(str, range(10))], body)]
        return [*out, "", UNIVERSE, SOURCE]

    def csv() -> list[list[Any]]:
        head = ["stage", "player_total", "banker_card", "total", "void"]
        for k in keys:
            head += [f"{k}_count", f"{k}_probability", f"{k}_probability_decimal"]
        body: list[list[Any]] = []
        for r in rows:
            line: list[Any] = [r.stage, r.player_total, "" if r.banker_card is None else r.banker_card, r.total, r.void]
            for i in range(3):
                line += [r.counts[i], ratio(r.probability(i)), dec15(r.probability(i))]
            body.append(line)
        return [head, *body]

    return View(doc, text, csv)


def seen_reading(seen_text: str, universe: int) -> str:
    """What a conditioned analysis counts."""
    return (f"Given the cards seen ({seen_text}): counts are the ordered sequences of the round's unseen "
            f"positions from the shoe less those cards that complete the round with them in place "
            f"({universe:,} in all; § 629a.8(c), § 629a.10).")


def render_seen(a: Any, seen_text: str, fmt: str) -> str:
    """A conditioned analysis in any format, with the cards seen and the universe stated:
    extra ``seen`` and ``universe_reading`` keys in JSON, a first line in table/Markdown."""
    from exactodds.figures.analysis import analysis_json
    from exactodds.report.formats import render_analysis
    from exactodds.report.views import render_json

    reading = seen_reading(seen_text, a.total)
    if fmt == "json":
        return render_json({**analysis_json(a), "seen": seen_text, "universe_reading": reading})
    text = render_analysis(a, fmt)
    return text if fmt == "csv" else f"{reading}\n\n{text}"
