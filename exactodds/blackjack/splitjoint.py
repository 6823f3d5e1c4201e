"""The exact joint of split hands at full size: counts of orders by the cards drawn, in numpy, the
dealer and the weights in residues (issue 26).

Why: the par sheet of Spanish 21 needs the exact distribution of a round's net result, and a split
(§ 551.12) makes its hands share the shoe and the dealer, so their joint must be enumerated. Doing so
state by state in Python dicts (cards left, the finished hands' nets for every dealer outcome) needed
some 5.9 million states for a pair of 8s against a 10 from six decks, more than 8 GB. This module
computes the same joint from four observations:

1. *Counts, not weights.* A path of the split hands draws a multiset ``X`` of cards (``k`` of them)
   from the cards left ``S`` (``n`` of them); whatever the order, its probability is
   ``Π_v ff(S_v, X_v) / ff(n, k)``, and each post-split decision reads only the hand's own cards
   (``cdz``, ``cdp1``). So the joint is carried as *numbers of orders* ``G(X, s)`` -- small
   integers, held in int64 where the sum of all of them (an exact bound, checked in Python
   integers before each step) stays below 2⁶³ -- and ``Π ff(S_v, X_v)`` is applied once per final ``X``.
2. *One dealer outcome at a time.* For a dealer ending on ``o`` (17..21, bust) only the scalar sum of
   the hands' nets against ``o`` matters: six passes whose state is ``(X, s)`` hold far fewer states
   than one pass carrying the six-vector. ``X`` (value counts) and ``s`` are packed into one int64
   in mixed radix, so a hand's step is an outer sum of keys and an outer product of counts, merged
   by sorting (:func:`_merge`).
3. *Suits at the end.* Only a split hand standing on a three-card 6-7-8 / 7-7-7 reads suits
   (§ 551.6(g)(1)-(4); the super bonus is not paid on split hands, § 551.6(h)), and, under
   composition-dependent play, a split 6, 7 or 8's first decision when its two cards can complete
   one (the engine's suit-aware choice: such a hand's paths follow every open action, tagged). By
   exchangeability, given the values of every card drawn, the suits of any set of
   drawn 6s, 7s or 8s are a draw without replacement from the suits the shoe holds, whatever else was
   drawn. So the joint is over values; such a hand is carried as a descriptor (which pair card it
   started from, the values it drew, its doublings, the action tagged) and after the joint its pay
   is drawn by suit and only the suits that take the tagged action are weighed (:func:`bonus_pays`).
4. *The dealer last, in residues.* For each final ``X`` the dealer's outcome numerators over
   ``ff(n − k, K)`` come from :meth:`~exactodds.blackjack.dealer.DealerTable.residues` modulo primes
   below 2²⁹; ``G · Π ff(S_v, X_v) · dealer`` is summed by (outcome, net, descriptors, ``k``) modulo
   the same primes, whose product exceeds ``ff(n, k + K)`` (a probability times it is at most it),
   and only those sums are reconstructed (Chinese remainder theorem), each over ``ff(n, k + K)``.

Nothing is approximated; the old state-by-state enumeration is kept as the second method
(:meth:`exactodds.blackjack.distribution._Walker.split_enumerated`) and a test holds the two equal
on shoes with resplits to three and four hands and suited bonuses. Measured figures: docs/spanish21.md,
"Speed".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from exactodds.blackjack.dealer import OUTCOMES, DealerTable, hand_total
from exactodds.blackjack.hands import completes
from exactodds.blackjack.shoe import SPADES, SUITED, CardType, SpanishShoe, Values
from exactodds.errors import InputError, OutOfReach
from exactodds.game.cards import falling_factorial

if TYPE_CHECKING:
    from exactodds.blackjack.engine import Game

IntArray = npt.NDArray[np.int64]
Tick = Callable[[int, str], None]
"""Told ``(stage, label)`` as a split joint advances (:attr:`SplitJoint.tick`)."""

INT64_BOUND: Final = 1 << 63
"""Counts of orders are int64 while the sum of all of them stays below this (checked exactly)."""

KEY_BOUND: Final = 1 << 62
"""Mixed-radix keys (cards drawn by value, the net) must stay below this."""

CHUNK: Final = 1 << 22
"""Most transitions (state × path) formed at once: bounds the memory of a step (a few hundred MB)."""

X_CHUNK: Final = 1 << 15
"""Distinct final multisets whose dealer residues are computed at once."""

MAX_TRANSITIONS: Final = 40_000_000
"""Most transitions (state × path) one step of a pass may form before the joint is refused: time
(about a second per ten million, six passes) and memory (the merged states)."""

RESPLIT_CARDS_LIMIT: Final = 47
"""Most cards a shoe may hold for an exact joint of three or more split hands (resplits): measured
(docs, split joint speed), from one 48-card deck up the joints of split aces and 2s against most
up cards need more than :data:`MAX_TRANSITIONS` transitions in a step (three hands' paths multiply),
so such a shoe is refused before any solve (:func:`check_feasible`); two hands are feasible at any size."""


def check_feasible(cards: int, max_hands: int) -> None:
    """Refuse, in one line and before any work, an exact split joint measured to be out of reach:
    three or more hands (§ 551.12(c) resplits) from a shoe of more than :data:`RESPLIT_CARDS_LIMIT` cards."""
    if max_hands >= 3 and cards > RESPLIT_CARDS_LIMIT:
        raise OutOfReach(f"the exact distribution with resplits ({max_hands} hands) is out of reach for a {cards}-card "
                         f"shoe (measured out of reach from one 48-card deck up; docs, split joint speed): use "
                         "--max-hands 2 (splits without resplits, exact at any size) or a smaller shoe")


Desc = tuple[str, int, int, int, str]
"""A split hand whose net or path reads suits: the pair card it started from (``F`` the first, ``P``
the second, ``R`` a resplit card of unknown suit), its second card's value, the third card's value
when it stands on a three-card 6-7-8 / 7-7-7 with the bonus (else 0), its doublings, and the action
it took at its first decision when that decision reads suits (the engine's suit-aware choice under
composition-dependent play, else "")."""


@dataclass(frozen=True)
class _Paths:
    """A split hand's paths by the values they draw (:func:`hand_paths`), grouped by what they do to
    the joint: the pair cards they resplit and their bonus descriptor."""

    groups: dict[tuple[int, Desc | None], tuple[IntArray, IntArray, IntArray]]
    """``(resplits, descriptor) → (x by value (rows), nets in half units by dealer outcome, orders)``."""


def hand_paths(game: Game, up: int, r: int, first: str, allowance: int, branch: bool = False) -> _Paths:
    """Every path of a split hand of pair value ``r`` against ``up`` by the values it draws
    (§ 551.12(b): a pair card dealt as its second card starts a new hand while ``allowance`` lasts,
    § 551.12(c)); decisions the engine's (:func:`~exactodds.blackjack.distribution.engine_choice`),
    reading the hand's values only. A path's nets are in half units for each dealer outcome; a hand
    standing on a suited-bonus 6-7-8 / 7-7-7 has nets 0 and a descriptor (its pay is drawn by suit later).
    ``branch``: the first decision of a hand that can complete a 6-7-8 / 7-7-7 reads suits (the
    engine's composition-dependent split hands): every open action is followed, each tagged in the
    descriptor, and the suits that take it are weighed after the joint (:func:`bonus_pays`)."""
    from exactodds.blackjack.settlement import engine_choice, settle_vector

    rules = game.rules
    solver = game.solver(up, r, 0)
    out: dict[tuple[Values, tuple[int, ...], int, Desc | None], int] = {}

    def bump(x: Values, v: int) -> Values:
        return x[:v - 1] + (x[v - 1] + 1,) + x[v:]

    def finish(x: Values, nets: tuple[Fraction, ...], new: int, desc: Desc | None, m: int) -> None:
        halves = tuple(_halves(n) for n in nets)
        key = (x, halves, new, desc)
        out[key] = out.get(key, 0) + m

    Node = tuple[Values, Values, tuple[int, ...], int, int, int, int, str]
    # (x drawn, the hand's cards, its first three values, doublings, resplits, -1 before its second card, allowance,
    #  the action taken at a first decision that reads suits)
    level: dict[Node, int] = {((0,) * 10, bump((0,) * 10, r), (r,), 0, 0, -1, allowance, ""): 1}
    while level:
        nxt: dict[Node, int] = {}
        for (x, cards, seen, doublings, new, phase, left, tag), m in level.items():
            children: list[Node] = []
            if phase < 0:  # the second card (§ 551.12(b)); a pair card is resplit while allowed
                for v in range(1, 11):
                    if v == r and left > 0:
                        children.append((bump(x, v), cards, seen, 0, new + 1, -1, left - 1, ""))
                    else:
                        children.append((bump(x, v), bump(cards, v), seen + (v,), 0, new, 0, left, ""))
            elif not any(c > b for c, b in zip(cards, solver.base)):  # else: more cards than the shoe holds
                acts = [(engine_choice(solver, cards, doublings), tag)]
                if branch and doublings == 0 and sum(cards) == 2 and completes(r, seen[1]) is not None:
                    names = solver.open_actions(cards, 0, sum((i + 1) * c for i, c in enumerate(cards)))
                    if len(names) > 1:
                        acts = [(a, a) for a in names]
                for act, took in acts:
                    def mark(bonus: int, d: int = doublings, took: str = took, second: int = seen[1]) -> Desc | None:
                        return (first, second, bonus, d, took) if (took or bonus) else None

                    if act == "bust":
                        finish(x, (Fraction(-(1 << doublings)),) * OUTCOMES, new, mark(0), m)
                    elif act == "rescue":
                        loss = rules.rescue_loss(doublings)
                        assert loss is not None
                        finish(x, (Fraction(-loss),) * OUTCOMES, new, mark(0), m)
                    elif act == "stand":
                        total, _ = hand_total(sum((i + 1) * c for i, c in enumerate(cards)), cards[0] > 0)
                        ncards = sum(cards)
                        if (ncards == 3 and total == 21 and rules.bonus_678_777
                                and sorted(seen) in ([6, 7, 8], [7, 7, 7]) and (doublings == 0 or rules.bonus_on_doubled)):
                            finish(x, (Fraction(0),) * OUTCOMES, new, mark(seen[2]), m)
                        else:
                            finish(x, settle_vector(rules, total, ncards, doublings), new, mark(0), m)
                    else:
                        after = doublings if act == "hit" else doublings + 1
                        for v in range(1, 11):
                            children.append((bump(x, v), bump(cards, v), seen + (v,) if len(seen) < 3 else seen, after,
                                             new, 0, left, took))
            for child in children:
                nxt[child] = nxt.get(child, 0) + m
        level = nxt
    grouped: dict[tuple[int, Desc | None], list[tuple[Values, tuple[int, ...], int]]] = {}
    for (x, halves, new, bonus), m in out.items():
        grouped.setdefault((new, bonus), []).append((x, halves, m))
    return _Paths({key: (np.array([x for x, _, _ in rows], dtype=np.int64).reshape(-1, 10),
                         np.array([h for _, h, _ in rows], dtype=np.int64).reshape(-1, OUTCOMES),
                         np.array([m for _, _, m in rows], dtype=np.int64)) for key, rows in grouped.items()})


def _halves(net: Fraction) -> int:
    """A split hand's net in half units (its pays are 1, 3/2, 2, 3 times a whole bet)."""
    twice = 2 * net
    if twice.denominator != 1:
        raise AssertionError("internal: a split hand's net is not a multiple of 1/2")
    return twice.numerator


@dataclass
class _Packing:
    """The mixed radix of a state key: the cards drawn by value (``X_v`` in ``0..radix_v − 1``), then
    the net ``s`` (half units, offset so the digit is non-negative), the most significant."""

    radix: tuple[int, ...]
    offset: int
    weights: tuple[int, ...]
    net_weight: int
    cap: Values
    """The cards of each value the shoe holds: a state drawing more has weight 0 and is dropped."""

    def pack(self, x: IntArray) -> IntArray:
        return x @ np.array(self.weights, dtype=np.int64)

    def unpack(self, keys: IntArray) -> tuple[IntArray, IntArray]:
        """``(X by value (rows), net)`` of ``keys``."""
        rest = keys % self.net_weight
        cols = [rest // w % r for w, r in zip(self.weights, self.radix)]
        return np.stack(cols, axis=1), keys // self.net_weight - self.offset

    @property
    def capped(self) -> bool:
        """Whether a sum of paths can draw more cards of a value than the shoe holds."""
        return any(r - 1 > c for r, c in zip(self.radix, self.cap))

    def over_cap(self, keys: IntArray) -> npt.NDArray[np.bool_]:
        """The keys drawing more cards of a value than the shoe holds."""
        bad = np.zeros(len(keys), dtype=np.bool_)
        for v, (w, r) in enumerate(zip(self.weights, self.radix)):
            if r - 1 > self.cap[v]:
                bad |= keys // w % r > self.cap[v]
        return bad


def _packing(paths: list[_Paths], hands: int, cap: Values) -> _Packing:
    """A radix that holds ``hands`` hands' sums of any paths, or a refusal when it does not fit int64."""
    most = [0] * 10
    low = high = 0
    for p in paths:
        for x, nets, _ in p.groups.values():
            if len(x):
                most = [max(a, int(b)) for a, b in zip(most, x.max(axis=0))]
                low, high = min(low, int(nets.min())), max(high, int(nets.max()))
    radix = tuple(hands * m + 1 for m in most)
    weights = [1]
    for r in radix[:-1]:
        weights.append(weights[-1] * r)
    net_weight = weights[-1] * radix[-1]
    offset = -hands * low
    if net_weight * (offset + hands * high + 1) >= KEY_BOUND:
        raise InputError("the exact joint of this split's hands does not fit a 64-bit key: too large here "
                         "(docs, split joint speed)")
    return _Packing(radix, offset, tuple(weights), net_weight, cap)


def _merge(parts: list[tuple[IntArray, IntArray]], packing: _Packing) -> tuple[IntArray, IntArray]:
    """Equal keys merged (counts added, exactly: the caller bounds their sum below 2⁶³); keys drawing
    more cards of a value than the shoe holds dropped."""
    keys = np.concatenate([k for k, _ in parts])
    counts = np.concatenate([c for _, c in parts])
    if packing.capped:
        keep = ~packing.over_cap(keys)
        keys, counts = keys[keep], counts[keep]
    if not len(keys):
        return keys, counts
    order = np.argsort(keys, kind="stable")  # a merge of sorted runs (:func:`_steps`)
    keys, counts = keys[order], counts[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.add.reduceat(counts, starts)


Group = tuple[tuple[str, ...], int, tuple[Desc, ...]]
"""A set of states: the pair cards still to play (``F``/``P``/``R``, in order), the hands so far, the
bonus descriptors of the finished hands (sorted)."""


class SplitJoint:
    """The joint of one split's hands (pair value ``r`` against ``up``, ``limit`` hands at most),
    by values, before the suits of the bonus hands: :meth:`by_outcome`."""

    def __init__(self, game: Game, up: int, r: int, limit: int, tables: Callable[[int], DealerTable],
                 tick: Tick | None = None) -> None:
        self.game, self.up, self.r, self.limit, self.tables = game, up, r, limit, tables
        self.tick = tick
        """Told ``(stage, label)`` as the work advances (stage 0-5 the dealer outcomes' passes, 6 the
        dealer's residues), at least once per chunk of transitions: the progress of a long split."""
        self.chunks = 0
        rules = game.rules
        self.resplit_ok = r != 1 or rules.resplit_aces
        shoe = game.shoe.values
        start = list(shoe)
        start[up - 1] -= 1
        start[r - 1] -= 2
        if min(start) < 0:
            raise InputError("internal: the split's cards are not in the shoe")
        self.start: Values = tuple(start)
        self.paths: dict[tuple[str, int], _Paths] = {}

    def _paths(self, first: str, allowance: int) -> _Paths:
        got = self.paths.get((first, allowance))
        if got is None:
            branch = self.game.rules.bonus_678_777 and self.r in SUITED and self.game.policy is None
            got = self.paths[(first, allowance)] = hand_paths(self.game, self.up, self.r, first, allowance, branch)
        return got

    def _passes(self) -> tuple[_Packing, list[dict[tuple[Desc, ...], tuple[IntArray, IntArray]]]]:
        """The final states of each dealer outcome's pass: descriptors → (keys, counts)."""
        allowances = range(self.limit - 1) if self.resplit_ok else range(1)
        kinds = ("F", "P", "R") if self.game.rules.bonus_678_777 and self.r in SUITED else ("F",)
        listed = [self._paths(k, a) for k in kinds for a in allowances]
        packing = _packing(listed, self.limit, self.start)
        return packing, [self._pass(o, packing) for o in range(OUTCOMES)]

    def _told(self, stage: int, what: str) -> None:
        """One tick of :attr:`tick` (a chunk done), labelled with the split, the stage and the count."""
        if self.tick is not None:
            self.chunks += 1
            self.tick(stage, f"split {self.r}s v {self.up}: {what} ({self.chunks})")

    def _pass(self, o: int, packing: _Packing) -> dict[tuple[Desc, ...], tuple[IntArray, IntArray]]:
        """The joint for dealer outcome ``o``: the hands in order (§ 551.12(b)), each a step over
        every state the hands before left."""
        typed = self.game.rules.bonus_678_777 and self.r in SUITED
        groups: dict[Group, tuple[IntArray, IntArray, int]] = {
            (("F", "P" if typed else "F"), 2, ()): (np.array([packing.offset * packing.net_weight], dtype=np.int64),
                                  np.ones(1, dtype=np.int64), 1)}
        final: dict[tuple[Desc, ...], list[tuple[IntArray, IntArray]]] = {}
        while groups:
            steps: list[tuple[Group, IntArray, IntArray, IntArray, IntArray]] = []
            bound: dict[Group, int] = {}
            for (pending, hands, code), (keys, counts, total) in groups.items():
                if not pending:
                    final.setdefault(code, []).append((keys, counts))
                    continue
                first = pending[0]
                allowance = self.limit - hands if self.resplit_ok else 0
                for (new, desc), (x, nets, m) in self._paths(first, allowance).groups.items():
                    queue = ("R",) * new + pending[1:] if typed else ("F",) * (new + len(pending) - 1)
                    target = (queue, hands + new, tuple(sorted(code + (desc,))) if desc else code)
                    bound[target] = bound.get(target, 0) + total * int(m.sum())
                    if bound[target] >= INT64_BOUND:
                        raise InputError("the exact joint of this split's hands counts more orders than 64-bit "
                                         "integers hold: too large here (docs, split joint speed)")
                    steps.append((target, keys, counts, packing.pack(x) + nets[:, o] * packing.net_weight, m))
            work = sum(len(keys) * len(pkeys) for _, keys, _, pkeys, _ in steps)
            if work > MAX_TRANSITIONS:
                raise InputError(f"the exact joint of split {self.r}s against a {self.up} needs more than "
                                 f"{MAX_TRANSITIONS:,} transitions in one step for this {sum(self.start) + 3}-card "
                                 "shoe: too large here (docs, split joint speed); use a smaller shoe or fewer "
                                 "hands (--max-hands)")
            merged: dict[Group, list[tuple[IntArray, IntArray]]] = {}
            for target, keys, counts, pkeys, m in steps:
                parts = merged.setdefault(target, [])
                for part in _steps(keys, counts, pkeys, m):
                    parts.append(part)
                    self._told(o, f"pass {o + 1} of {OUTCOMES}")
                    if sum(len(k) for k, _ in parts) > 2 * CHUNK:  # merge as it goes: memory stays bounded
                        parts[:] = [_merge(parts, packing)]
            groups = {}
            for target, parts in merged.items():
                keys, counts = _merge(parts, packing)
                self._told(o, f"pass {o + 1} of {OUTCOMES}")
                if len(keys):
                    groups[target] = (keys, counts, bound[target])
        return {code: _merge(parts, packing) for code, parts in final.items()}

    def by_outcome(self) -> dict[tuple[int, int, tuple[Desc, ...]], Fraction]:
        """``(dealer outcome, net of the hands without a bonus descriptor in half units, descriptors)``
        → probability (the dealer without Blackjack, § 551.8(e)), exactly."""
        packing, passes = self._passes()
        start, n0 = self.start, sum(self.start)
        allx = np.unique(np.concatenate([keys % packing.net_weight for p in passes for keys, _ in p.values()]))
        xs, _ = packing.unpack(allx)
        ks = xs.sum(axis=1)
        table = self.tables(int(ks.max()))
        kk = [min(table.kmax, n0 - k) for k in range(int(ks.max()) + 1)]
        if max(falling_factorial(n0, k + kk[k]) for k in range(len(kk))) >= _product(table.primes):
            raise InputError("internal: too few primes for the split joint's residues")
        q = np.array(table.primes, dtype=np.int64)[:, None]
        # ff(S_v, X_v) · dealer numerators (over ff(n − k, K)) modulo each prime, by distinct X and outcome
        weight = np.ones((len(table.primes), len(allx)), dtype=np.int64)
        for v in range(10):
            column = [[falling_factorial(start[v], j) % int(p) for j in range(packing.radix[v])] for p in table.primes]
            weight = weight * np.array(column, dtype=np.int64)[np.arange(len(table.primes))[:, None], xs[:, v]] % q
        pair = np.zeros(10, dtype=np.int64)
        pair[self.r - 1] = 2
        fd = np.empty((len(table.primes), len(allx), OUTCOMES), dtype=np.int64)
        by_size = np.argsort(ks, kind="stable")  # one size per batch: the dealer's tails shared most
        bounds = np.flatnonzero(np.diff(ks[by_size])) + 1
        for rows in np.split(by_size, bounds):
            for lo in range(0, len(rows), X_CHUNK):
                self._told(OUTCOMES, "the dealer")
                part = rows[lo:lo + X_CHUNK]
                fd[:, part, :] = table.residues(xs[part] + pair) * weight[:, part, None] % q[:, :, None]
        out: dict[tuple[int, int, tuple[Desc, ...]], Fraction] = {}
        kmax = len(kk)
        for o, final in enumerate(passes):
            for code, (keys, counts) in final.items():
                xid = np.searchsorted(allx, keys % packing.net_weight)
                nets = keys // packing.net_weight - packing.offset
                gid = (nets - int(nets.min())) * kmax + ks[xid]
                order = np.argsort(gid, kind="stable")
                gid, xid, counts = gid[order], xid[order], counts[order]
                starts = np.flatnonzero(np.concatenate(([True], gid[1:] != gid[:-1])))
                vals = counts[None, :] % q * fd[:, xid, o] % q  # each below 2²⁹: a sum of fewer than 2³⁴ fits
                sums = np.add.reduceat(vals, starts, axis=1) % q
                numerators = table.reconstruct(sums[:, :, None])
                for g, (num,) in zip(gid[starts].tolist(), numerators):
                    if num:
                        k = g % kmax
                        net = g // kmax + int(nets.min())
                        key = (o, net, code)
                        out[key] = out.get(key, Fraction(0)) + Fraction(num, falling_factorial(n0, k + kk[k]))
        return out


def _steps(keys: IntArray, counts: IntArray, pkeys: IntArray, m: IntArray) -> Iterator[tuple[IntArray, IntArray]]:
    """The outer sum of state keys and path keys, the outer product of their counts, in chunks; path
    by path, so that each path's block keeps the order of the (sorted) state keys: the merge that
    follows sorts a few long runs."""
    rows = max(1, CHUNK // max(1, len(keys)))
    for lo in range(0, len(pkeys), rows):
        k = pkeys[lo:lo + rows]
        c = m[lo:lo + rows]
        yield (k[:, None] + keys[None, :]).ravel(), (c[:, None] * counts[None, :]).ravel()


def _product(xs: tuple[int, ...]) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


def bonus_pays(descs: tuple[Desc, ...], r: int, p1: CardType, p2: CardType, left: SpanishShoe,
               decide: Callable[[CardType, CardType], str] | None = None, pays: bool = True) -> dict[int, Fraction]:
    """The distribution of the bonus hands' total net in half units (each ``bet × 3/2, 2, 3``:
    mixed, suited, spades, § 551.6(g)(1)-(4); 0 where ``pays`` is false: a dealer 21 pushes it) for
    the descriptors ``descs``, the suits of their unknown cards drawn without replacement from the
    suits ``left`` holds (exchangeability: whatever else was drawn); a hand tagged with the action of
    a first decision that reads suits counts only the suits for which ``decide(first, second)``
    takes it, so the total mass is the probability of the suits that play these paths (at most 1)."""
    suits = {v: left.suits[v] for v in SUITED}
    states: dict[tuple[tuple[tuple[int, int, int, int], ...], int], Fraction] = {
        (tuple(suits[v] for v in SUITED), 0): Fraction(1)}
    for first, c, b, doublings, took in descs:
        nxt: dict[tuple[tuple[tuple[int, int, int, int], ...], int], Fraction] = {}
        cards = ([r] if first == "R" else []) + [c] + ([b] if b else [])
        fixed = [] if first == "R" else [(p1 if first == "F" else p2)[1]]
        for (counts, total), p in states.items():
            for drawn, q, after in _suit_draws(cards, counts):
                hand = fixed + drawn
                if took and (decide is None or decide((r, hand[0]), (c, hand[1])) != took):
                    continue
                halves = 0
                if b and pays:
                    halves = ((6 if hand[0] == SPADES else 4) if len(set(hand)) == 1 else 3) * (1 << doublings)
                key = (after, total + halves)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        states = nxt
    out: dict[int, Fraction] = {}
    for (_, total), p in states.items():
        out[total] = out.get(total, Fraction(0)) + p
    return out


def _suit_draws(cards: list[int], counts: tuple[tuple[int, int, int, int], ...]
                ) -> Iterator[tuple[list[int], Fraction, tuple[tuple[int, int, int, int], ...]]]:
    """Every suit sequence of ``cards`` (values 6, 7, 8) drawn without replacement from ``counts``."""
    if not cards:
        yield [], Fraction(1), counts
        return
    v, rest = cards[0], cards[1:]
    i = SUITED.index(v)
    row = counts[i]
    n = sum(row)
    for s in range(4):
        if row[s]:
            after_row = row[:s] + (row[s] - 1,) + row[s + 1:]
            after = counts[:i] + ((after_row[0], after_row[1], after_row[2], after_row[3]),) + counts[i + 1:]
            for drawn, q, end in _suit_draws(rest, after):
                yield [s, *drawn], Fraction(row[s], n) * q, end


__all__ = ["RESPLIT_CARDS_LIMIT", "SplitJoint", "bonus_pays", "check_feasible", "hand_paths"]
