"""Brute-force oracle: deals every ordered card-by-card sequence of a small shoe.

Written independently of ``exactodds.game.rules`` and ``exactodds.game.walk``: the
drawing rules below are transcribed a second time, in the classic if/else form of
58 Pa. Code § 629a.10, and every physical card is a distinct object, so nothing is
grouped into classes. A round that completes after ``m`` cards stands for every way
the remaining ``U − m`` positions of the ``U = min(N, 6)``-card universe can be
filled, ``(N−m)·…·(N−U+1)`` -- those cards are dealt to no hand. A round that needs
a card the shoe does not have is void (§ 629a.13(e)).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from exactodds.game.cards import Card, Shoe

VOID = object()


def _points(cards: list[Card]) -> int:
    total = 0
    for c in cards:
        if c.rank in ("10", "J", "Q", "K"):
            continue
        total += 1 if c.rank == "A" else int(c.rank)
    return total % 10


def _banker_hits(b: int, third: Card | None) -> bool:
    """§ 629a.10(c) written out as the regulation states it."""
    if third is None:
        return b <= 5
    t = _points([third])
    if b <= 2:
        return True
    if b == 3:
        return t != 8
    if b == 4:
        return 2 <= t <= 7
    if b == 5:
        return 4 <= t <= 7
    if b == 6:
        return t in (6, 7)
    return False


def rounds(shoe: Shoe) -> Iterator[tuple[Any, Any, int]]:
    """Yield ``(player cards, banker cards, ways)`` or ``(VOID, VOID, ways)``.

    Sums of ``ways`` equal N·(N−1)·…·(N−U+1).
    """
    deck = shoe.cards()
    n = len(deck)
    depth = min(n, 6)

    def rest(m: int) -> int:
        out = 1
        for i in range(m, depth):
            out *= n - i
        return out

    used = [False] * n

    def draw() -> Iterator[int]:
        for i in range(n):
            if not used[i]:
                used[i] = True
                yield i
                used[i] = False

    def finish(player: list[Card], banker: list[Card]) -> Iterator[tuple[Any, Any, int]]:
        m = len(player) + len(banker)
        yield tuple(player), tuple(banker), rest(m)

    def third_cards(player: list[Card], banker: list[Card]) -> Iterator[tuple[Any, Any, int]]:
        p, b = _points(player), _points(banker)
        if p >= 8 or b >= 8:
            yield from finish(player, banker)
            return
        if p <= 5:
            if len(player) + len(banker) >= depth:
                yield VOID, VOID, 1
                return
            for i in draw():
                player.append(deck[i])
                if _banker_hits(b, deck[i]):
                    if len(player) + len(banker) >= depth:
                        yield VOID, VOID, 1
                    else:
                        for j in draw():
                            banker.append(deck[j])
                            yield from finish(player, banker)
                            banker.pop()
                else:
                    yield from finish(player, banker)
                player.pop()
        elif _banker_hits(b, None):
            if len(player) + len(banker) >= depth:
                yield VOID, VOID, 1
                return
            for j in draw():
                banker.append(deck[j])
                yield from finish(player, banker)
                banker.pop()
        else:
            yield from finish(player, banker)

    if depth < 4:
        yield VOID, VOID, rest(0)
        return
    for a in draw():
        for b in draw():
            for c in draw():
                for d in draw():
                    yield from third_cards([deck[a], deck[c]], [deck[b], deck[d]])


def tally(shoe: Shoe, result: Callable[[Any, Any], Any]) -> tuple[Counter[Any], int]:
    """Counts of ``result(player, banker)`` over all rounds, and the void count."""
    counts: Counter[Any] = Counter()
    void = 0
    for player, banker, ways in rounds(shoe):
        if player is VOID:
            void += ways
        else:
            counts[result(player, banker)] += ways
    return counts, void
