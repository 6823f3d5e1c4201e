"""Mid-hand odds: any wager conditioned on cards already seen in the round, and the table
of every two-card and three-card state (Wizard of Odds' baccarat Appendix 3, for any shoe).

**Universe.** Seen cards are the first cards of each hand (Player's cards 1, 3, 5 and the
Banker's 2, 4, 6 of the round, § 629a.8(c) and § 629a.10). The rest of the round is dealt
from the shoe less the seen cards, card by card in the regulated order; a seen card takes
its position when its hand's turn comes. The universe is every ordered sequence of the
``D = min(N′, depth − seen)`` unseen positions of the round drawn from the ``N′`` remaining
cards (the engine's convention, :mod:`exactodds.engine.level`): a round that ends after
drawing ``j`` cards stands for ``(N′−j)·…·(N′−D+1)`` sequences. Sequences in which a seen
card never gets its position (e.g. a seen third Player card when the Player stands on the
cards drawn) are not in the event seen, so they are left out; a shoe that runs out makes
the round void (§ 629a.13(e)).

The enumeration runs over the wager's level classes (point values for the Coup) where its
results read no suit (``suits == "blind"``), else over the 52 faces; each class weighs as
many cards as remain in it. The counts are exact integers; their sum is the stated universe.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.catalogue import get_wager
from exactodds.catalogue.model import Pay, Wager
from exactodds.engine.level import Level
from exactodds.engine.levels import COUP
from exactodds.errors import InputError
from exactodds.figures.analysis import VOID, Analysis, OutcomeRow
from exactodds.figures.settlement import settlement
from exactodds.game.cards import FACES, Card, Shoe, falling_factorial, parse_card
from exactodds.game.rules import Coup, next_hand

MAX_LEAVES = 3_000_000
"""Most card sequences one conditioned count may visit (classes ** cards to draw)."""


@dataclass(frozen=True)
class Seen:
    """Cards seen so far: the first cards of each hand, in the order dealt to that hand."""

    player: tuple[Card, ...] = ()
    banker: tuple[Card, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.player + self.banker

    def describe(self) -> str:
        parts = [f"{h}={','.join(map(str, cs))}" for h, cs in (("player", self.player), ("banker", self.banker)) if cs]
        return " ".join(parts) or "nothing"


def parse_seen(items: Iterable[str]) -> Seen:
    """``--seen player=9H,5C --seen banker=KD`` (a hand may be given once).

    >>> parse_seen(["player=9H,5C", "banker=KD"]).describe()
    'player=9H,5C banker=KD'
    """
    from exactodds.inputs import shown

    hands: dict[str, tuple[Card, ...]] = {}
    for item in items:
        hand, sep, cards = item.partition("=")
        hand = hand.strip().lower()
        if not sep or hand not in ("player", "banker"):
            raise InputError(f"--seen must be player=CARDS or banker=CARDS (e.g. player=9H,5C), got {shown(item)}")
        if hand in hands:
            raise InputError(f"--seen {hand} given twice; list its cards once, comma-separated")
        texts = [t for t in cards.replace(" ", ",").split(",") if t]
        if not texts or len(texts) > 3:
            raise InputError(f"--seen {hand} takes 1 to 3 cards, got {shown(cards)}")
        hands[hand] = tuple(parse_card(t) for t in texts)
    return Seen(hands.get("player", ()), hands.get("banker", ()))


def _classes(level: Level) -> tuple[list[int], list[Card]]:
    """The class of each face and one representative face per class: the level's own classes
    (refined by point value, which the drawing rules read) where its results read no suit or
    are read from class labels (the opening levels), else one class per face."""
    labels: dict[tuple[int, int], int] = {}
    if level.suits == "blind" or level.kind == "sequence":
        cls = [labels.setdefault((c, f.value), len(labels)) for f, c in zip(FACES, level.face_class)]
    else:
        cls = list(range(len(FACES)))
    reps: dict[int, Card] = {}
    for face, c in zip(FACES, cls):
        reps.setdefault(c, face)
    return cls, [reps[c] for c in range(max(cls) + 1)]


def conditioned_counts(level: Level, shoe: Shoe, seen: Seen) -> tuple[dict[Hashable, int], int, int]:
    """``(counts per result, void, universe)`` of the rest of the round given ``seen``."""
    if not level.baccarat:
        raise InputError("--seen conditions baccarat rounds; this wager's level is not a baccarat round")
    if len(seen.player) > 3 or len(seen.banker) > 3:
        raise InputError("a hand has at most three cards")
    rest = shoe.remove(seen.cards)  # an input error if a seen card is not in the shoe
    face_class, reps = _classes(level)
    counts = [0] * len(reps)
    for n, c in zip(rest.counts, face_class):
        counts[c] += n
    n_rest = rest.size
    depth = level.depth
    positions = min(n_rest, max(depth - len(seen.cards), 0))
    live = sum(1 for n in counts if n)
    to_draw = positions if level.kind != "sequence" else max(0, min(positions, 4 - len(seen.cards)))
    if live ** to_draw > MAX_LEAVES:
        raise InputError(f"conditioning this wager on {len(seen.cards)} seen card(s) needs {live}^{to_draw} "
                         "card sequences; name more seen cards (its results read suits, so every face counts)")
    out: Counter[Hashable] = Counter()
    void = 0
    need_p, need_b = len(seen.player), len(seen.banker)
    opening = level.kind == "sequence" and n_rest >= depth - len(seen.cards)  # not short: no void round

    def walk(player: list[Card], banker: list[Card], drawn: int, weight: int) -> None:
        nonlocal void
        hand = next_hand([c.value for c in player], [c.value for c in banker])
        if opening and len(player) >= 2 and len(banker) >= 2 and len(player) >= need_p and len(banker) >= need_b:
            hand = None  # the result is read from the four initial cards; the rest are free positions
        if hand is None or len(player) + len(banker) >= depth:
            if len(player) >= need_p and len(banker) >= need_b:
                out[level.from_deal(player, banker)] += weight * falling_factorial(n_rest - drawn, positions - drawn)
            return
        cards, need, seen_hand = (player, need_p, seen.player) if hand == "player" else (banker, need_b, seen.banker)
        if len(cards) < need:
            cards.append(seen_hand[len(cards)])
            walk(player, banker, drawn, weight)
            cards.pop()
            return
        if drawn >= positions:  # the shoe has run out: void (§ 629a.13(e))
            void += weight
            return
        for c, n in enumerate(counts):
            if n:
                counts[c] -= 1
                cards.append(reps[c])
                walk(player, banker, drawn + 1, weight * n)
                cards.pop()
                counts[c] += 1

    walk([], [], 0, 1)
    universe = sum(out.values()) + void
    if universe == 0:
        raise InputError(f"the cards seen ({seen.describe()}) cannot occur in a round: the hands would not "
                         "draw them (§ 629a.10)")
    return dict(out), void, universe


def analyze_seen(wager: str | Wager[Any], paytable: str | None, shoe: Shoe, seen: Seen) -> Analysis:
    """The exact outcome table of ``wager`` given the cards seen (module docstring: universe).

    Each result is settled by the wager's one rule; meter pays are priced at the regulated
    resets as in :func:`~exactodds.figures.analysis.analyze`.
    """
    from exactodds.figures.settlement import meter_amounts, priced_pay

    w = get_wager(wager) if isinstance(wager, str) else wager
    table = w.paytable(paytable)
    results, void, universe = conditioned_counts(w.level, shoe, seen)
    s = settlement(w, table)
    by_name = dict.fromkeys(s.names, 0)
    for result, n in results.items():
        by_name[w.settle(table, result)] += n
    pays = dict(zip(s.names, s.pays))
    if table.meters:
        amounts = meter_amounts(table, None)
        pays = {name: priced_pay(p, table, amounts) for name, p in pays.items()}
    if void:
        by_name[VOID] = void
        pays[VOID] = Pay.push()
    rows = tuple(OutcomeRow(name, pays[name], n, universe) for name, n in by_name.items())
    return Analysis.of_rows(w, table, shoe, rows)


# -- the Appendix 3 table ---------------------------------------------------------------------

WINNERS = ("Player wins", "Banker wins", "Tie")


def _winner(c: Coup) -> str:
    return {"player": "Player wins", "banker": "Banker wins", "tie": "Tie"}[c.winner]


@dataclass(frozen=True)
class MidhandRow:
    """One state: who has what so far, and the counts of each final winner among the
    universe's sequences in which that state occurs."""

    stage: str
    """``two cards`` (the Player's two cards) or ``three cards`` (and the Banker's first)."""
    player_total: int
    banker_card: int | None
    counts: tuple[int, int, int]
    """Player wins, Banker wins, Tie (void rounds of a short shoe are counted apart)."""
    void: int

    @property
    def total(self) -> int:
        return sum(self.counts) + self.void

    def probability(self, i: int) -> Fraction:
        return Fraction(self.counts[i], self.total) if self.total else Fraction(0)


def _value_cards() -> list[Card]:
    """One card of each point value 0..9 (K for 0, A for 1)."""
    return [parse_card(t) for t in ("KS", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S")]


def midhand_table(shoe: Shoe) -> tuple[list[MidhandRow], int]:
    """Every two-card state (Player's two-card total) and three-card state (that total and the
    Banker's first card), with exact counts over the full round's universe of ``shoe``:
    summed over the states of a stage they are the unconditional counts. Returns the rows and
    that universe.
    """
    values = list(shoe.value_counts())
    cards = _value_cards()
    value_shoe = Shoe.from_counts(dict(zip(cards, values)))
    n = sum(values)
    universe = falling_factorial(n, min(n, 6))
    two: dict[int, list[int]] = {t: [0, 0, 0, 0] for t in range(10)}
    three: dict[tuple[int, int], list[int]] = {(t, b): [0, 0, 0, 0] for t in range(10) for b in range(10)}

    def ways(taken: Sequence[int]) -> int:
        left, w = list(values), 1
        for v in taken:
            w *= left[v]
            left[v] -= 1
        return w

    def add(into: list[int], taken: Sequence[int], seen: Seen) -> None:
        w = ways(taken)
        if w == 0:
            return
        if n == len(taken):  # the shoe holds only the seen cards: the round cannot finish
            into[3] += w
            return
        results, void, _ = conditioned_counts(COUP, value_shoe, seen)
        for coup, k in results.items():
            assert isinstance(coup, Coup)
            into[WINNERS.index(_winner(coup))] += w * k
        into[3] += w * void

    for p1 in range(10):
        for p2 in range(p1, 10):
            mult = 1 if p1 == p2 else 2  # the Player's two cards in either order: same state, same counts
            seen = Seen((cards[p1], cards[p2]), ())
            part = [0, 0, 0, 0]
            add(part, (p1, p2), seen)
            for i in range(4):
                two[(p1 + p2) % 10][i] += mult * part[i]
            for b1 in range(10):
                part = [0, 0, 0, 0]
                add(part, (p1, p2, b1), Seen((cards[p1], cards[p2]), (cards[b1],)))
                for i in range(4):
                    three[((p1 + p2) % 10, b1)][i] += mult * part[i]
    rows = [MidhandRow("two cards", t, None, (c[0], c[1], c[2]), c[3]) for t, c in two.items()]
    rows += [MidhandRow("three cards", t, b, (c[0], c[1], c[2]), c[3]) for (t, b), c in three.items()]
    return rows, universe


__all__ = ["MidhandRow", "Seen", "WINNERS", "analyze_seen", "conditioned_counts", "midhand_table", "parse_seen"]
