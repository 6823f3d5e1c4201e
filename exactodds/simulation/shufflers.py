"""Generated shufflers, correct and defective, for the power table of ``exactodds shufflecheck``.

Each writes whole shuffled orders of a shoe, the input of each order being what a lab
would feed the machine: the previous order (its discards, here taken in the order the
previous shuffle delivered them) or, for the shufflers that start from new decks,
factory order. Riffles, the strip cut, the naive swap and the 16-bit LCG are those of
:mod:`exactodds.simulation.faults`; the one-pass shuffler is new:

* ``onepass``: a one-pass (shelf) shuffler: each card of the input, in turn, goes onto one
  of :data:`SHELVES` shelves chosen at random, on top of or under the cards already there
  (at random); the shelves are then stacked in order. Neighbours in the input often share
  a shelf and stay close: a clumping model.

:func:`write_orders` writes them in the shuffle-file format (``docs/simulator.md``, "Shuffler
output"); ``scripts/power.py --shufflecheck`` measures what the check flags.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, TextIO

import numpy as np
import numpy.typing as npt

from exactodds.game.cards import FACES, Shoe
from exactodds.simulation.faults import factory_order, lcg_shuffles, lcg_states, naive_swaps, riffles, strip_cut

SHUFFLERS: Final = {
    "uniform": "a uniform shuffle of the previous order (numpy's permutation): correct",
    "riffle7": "7 GSR riffles of the previous order",
    "riffle3": "3 GSR riffles of the previous order",
    "riffle1strip": "1 GSR riffle of the previous order, then a strip cut",
    "naive": "the naive swap shuffle (swap(i, random(0..n-1))) of factory order",
    "lcg16": "a 16-bit LCG (x -> 25173x + 13849 mod 2^16) driving Fisher-Yates from factory order",
    "onepass": "a one-pass shuffler of the previous order: 19 shelves, each card on top or under at random",
}
"""The generated shufflers of :func:`shuffled_orders`, by name."""

FROM_FACTORY: Final = frozenset({"naive", "lcg16"})
"""Shufflers fed new decks (factory order) every time; the others are fed the previous order."""

SHELVES: Final = 19


def one_pass(deck: npt.NDArray[np.uint8], rng: np.random.Generator, shelves: int = SHELVES) -> npt.NDArray[np.uint8]:
    """The one-pass shelf shuffler: card by card onto a random shelf, on top or under, then the
    shelves stacked (shelf 0 first, each read from its top)."""
    stacks: list[list[int]] = [[] for _ in range(shelves)]
    shelf = rng.integers(0, shelves, size=deck.size)
    top = rng.random(deck.size) < 0.5
    for card, s, t in zip(deck.tolist(), shelf.tolist(), top.tolist()):
        if t:
            stacks[s].insert(0, card)
        else:
            stacks[s].append(card)
    return np.array([c for st in stacks for c in st], dtype=np.uint8)


def shuffled_orders(orders: int, shuffler: str, seed: int, shoe: Shoe | None = None,
                    batch: int = 1024) -> Iterator[tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]]:
    """``orders`` shuffled orders from ``shuffler`` (:data:`SHUFFLERS`), as ``(inputs, outputs)``
    batches of rows of face indices. Seeded: the same arguments give the same orders. The
    first input of a shuffler fed the previous order is a uniform shuffle."""
    if shuffler not in SHUFFLERS:
        raise ValueError(f"unknown shuffler {shuffler!r}; one of {', '.join(SHUFFLERS)}")
    shoe = shoe if shoe is not None else Shoe.standard(8)
    rng = np.random.default_rng(seed)
    base = factory_order(shoe)
    states = lcg_states(seed) if shuffler == "lcg16" else None
    prev = rng.permutation(base)
    done = 0
    while done < orders:
        m = min(batch, orders - done)
        if shuffler in FROM_FACTORY:
            ins = np.array(np.broadcast_to(base, (m, base.size)))
            if shuffler == "naive":
                outs = naive_swaps(ins, rng)
            else:
                assert states is not None
                outs = lcg_shuffles(base, states, done, m)
        else:
            ins = np.empty((m, base.size), dtype=np.uint8)
            outs = np.empty_like(ins)
            for j in range(m):
                ins[j] = prev
                if shuffler == "uniform":
                    row = rng.permutation(prev)
                elif shuffler in ("riffle7", "riffle3"):
                    row = riffles(prev[None, :], int(shuffler[-1]), rng)[0]
                elif shuffler == "riffle1strip":
                    row = strip_cut(riffles(prev[None, :], 1, rng)[0], rng)
                else:
                    row = one_pass(prev, rng)
                outs[j] = row
                prev = row
        yield ins, outs
        done += m


_TEXT: Final = np.array([str(f) for f in FACES])


def write_orders(fh: TextIO, orders: int, shuffler: str, seed: int, shoe: Shoe | None = None) -> None:
    """The orders of :func:`shuffled_orders` in the shuffle-file format: a header comment
    (``decks``, ``input=factory`` or ``input=previous``), then one order a line, the first
    order of a shuffler fed the previous order with its input given (``INPUT | OUTPUT``)."""
    shoe = shoe if shoe is not None else Shoe.standard(8)
    how = "factory" if shuffler in FROM_FACTORY else "previous"
    fh.write(f"# exactodds shuffles shuffler={shuffler} seed={seed} orders={orders} decks={shoe.decks} input={how}\n")
    first = how == "previous"
    for ins, outs in shuffled_orders(orders, shuffler, seed, shoe):
        lines = [" ".join(row) for row in _TEXT[outs].tolist()]
        if first:
            lines[0] = " ".join(_TEXT[ins[0]].tolist()) + " | " + lines[0]
            first = False
        fh.write("\n".join(lines) + "\n")


def write_stream(fh: TextIO, rounds: int, seed: int, shoe: Shoe | None = None, blocks: bool = False,
                 per_round: int = 5, rounds_between: int = 4) -> None:
    """A continuous shuffler's delivered stream in the continuous format: ``rounds`` rounds of
    ``per_round`` cards, one a line, and a ``>`` line (every card delivered since the last
    one goes back) after every ``rounds_between`` rounds. Correct: each card drawn uniformly
    from the machine. ``blocks``: a defective machine that delivers from the top of one stack
    and puts each reinserted batch back as one block at a random depth (its order kept)."""
    shoe = shoe if shoe is not None else Shoe.standard(8)
    rng = np.random.default_rng(seed)
    machine = rng.permutation(factory_order(shoe)).tolist()
    fh.write(f"# exactodds shuffles mode=continuous decks={shoe.decks} seed={seed} blocks={blocks}\n")
    out: list[int] = []
    for r in range(rounds):
        cards = []
        for _ in range(per_round):
            i = 0 if blocks else int(rng.integers(0, len(machine)))
            cards.append(machine.pop(i))
        out += cards
        fh.write(" ".join(str(FACES[c]) for c in cards) + "\n")
        if (r + 1) % rounds_between == 0:
            fh.write(">\n")
            at = int(rng.integers(0, len(machine) + 1))
            machine[at:at] = out
            out = []
