"""Deliberately faulty dealers, to measure what the cross-check can detect.

A sound simulator shuffles every shoe uniformly at random. These deal fresh-shoe rounds
(each round the top of its own shuffled shoe) from shuffles that are not uniform:

* :func:`riffles` -- the shoe in factory order (each deck A-K of spades, hearts,
  diamonds, clubs), then ``times`` riffle shuffles (Gilbert-Shannon-Reeds model: a
  binomial cut, then cards dropped from each packet in proportion to its size);
* :func:`naive_swaps` -- factory order, then the classic mistake ``for i: swap(i,
  random(0..n-1))``, which does not give every order the same chance;

and :func:`deal_fresh` deals rounds from such shoes with any drawing rules, so rule
faults (:class:`~exactodds.simulation.simulate.DrawRules`) and shuffle faults go
through the same dealer. ``scripts/power.py`` measures the rounds needed to detect each.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from exactodds.game.cards import FACES, Shoe
from exactodds.simulation.simulate import (
    FACE_VALUE,
    STANDARD_RULES,
    DrawRules,
    HandLog,
    code_table,
    play_values,
)


def factory_order(shoe: Shoe) -> npt.NDArray[np.uint8]:
    """Face indices of ``shoe`` in factory order: deck after deck, each suit A to K.

    >>> [str(FACES[i]) for i in factory_order(Shoe.standard(1))[:3]]
    ['AS', '2S', '3S']
    """
    per_deck = [i for s in range(4) for i in range(s, len(FACES), 4)]  # suit-major, rank order
    copies = max(shoe.counts)
    out = [i for k in range(copies) for i in per_deck if shoe.counts[i] > k]
    return np.array(out, dtype=np.uint8)


def riffles(decks: npt.NDArray[np.uint8], times: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """``times`` Gilbert-Shannon-Reeds riffle shuffles of every row of ``decks``."""
    rows, n = decks.shape
    out = decks.copy()
    r = np.arange(rows)[:, None]
    for _ in range(times):
        cut = np.asarray(rng.binomial(n, 0.5, size=rows), dtype=np.int64)
        # which packet each position of the result comes from: a uniform arrangement of
        # ``cut`` top-packet and ``n - cut`` bottom-packet cards (the GSR interleaving)
        keys = rng.random((rows, n)).argsort(axis=1).argsort(axis=1)
        from_bottom = keys >= cut[:, None]
        top_index = np.cumsum(~from_bottom, axis=1) - 1
        bottom_index = cut[:, None] + np.cumsum(from_bottom, axis=1) - 1
        out = out[r, np.where(from_bottom, bottom_index, top_index)]
    return out


def naive_swaps(decks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """The biased shuffle ``for i in range(n): swap(deck[i], deck[random(0, n)])`` on every row."""
    rows, n = decks.shape
    out = decks.copy()
    r = np.arange(rows)
    for i in range(n):
        j = rng.integers(0, n, size=rows)
        a = out[r, i].copy()
        out[r, i] = out[r, j]
        out[r, j] = a
    return out


def deal_fresh(decks: npt.NDArray[np.uint8], draw_rules: DrawRules = STANDARD_RULES, first: int = 0) -> HandLog:
    """One round off the top of each row of ``decks`` (shuffled shoes of face indices)."""
    top = np.ascontiguousarray(decks[:, :6])
    codes = play_values(FACE_VALUE[top].T, code_table(draw_rules))
    return HandLog(top, codes, first=first)


def faulty_rounds(rounds: int, fault: str, seed: int, shoe: Shoe | None = None, batch: int = 4096,
                  draw_rules: DrawRules = STANDARD_RULES) -> list[HandLog]:
    """``rounds`` fresh-shoe rounds dealt with a shuffle fault: ``"riffle7"`` (seven riffles
    from factory order), ``"naive"`` (naive swaps from factory order) or ``"none"``
    (a uniform shuffle: numpy's permutation)."""
    shoe = shoe if shoe is not None else Shoe.standard(8)
    rng = np.random.default_rng(seed)
    base = factory_order(shoe)
    out = []
    done = 0
    while done < rounds:
        m = min(batch, rounds - done)
        decks = np.broadcast_to(base, (m, base.size))
        if fault == "riffle7":
            shuffled = riffles(np.ascontiguousarray(decks), 7, rng)
        elif fault == "naive":
            shuffled = naive_swaps(np.ascontiguousarray(decks), rng)
        elif fault == "none":
            shuffled = rng.permuted(decks, axis=1)
        else:
            raise ValueError(f"unknown fault {fault!r}")
        out.append(deal_fresh(shuffled, draw_rules, done))
        done += m
    return out
