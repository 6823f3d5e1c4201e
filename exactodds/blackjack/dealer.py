"""The dealer's final totals for many shoe compositions at once, exactly (§ 551.8(e), § 551.13(b)).

Why: the main wager's analysis needs the dealer's distribution for every composition the
player's cards can leave (thousands per up card); recomputing the dealer's draw tree for each
was nearly all of the run time. This module restructures it.

*Compositions, not sequences.* The dealer's hand after the up card is a multiset ``D`` of drawn
cards (the hole card included); its final total (17..21 or bust) is fixed by ``D``, and the
number of orders in which the draws are legal (the dealer stops at 17, the peek excludes a
Blackjack hole card) depends only on the up card and the rule, not on the shoe. So for cards
left ``r`` (``n`` of them) and a dealer bound of ``K`` cards,

    ``P(D) · ff(n, K) = orders(D) · Π_v ff(r_v, d_v) · ff(n − k, K − k)``   (``k = |D|``)

with ``ff(a, b) = a!/(a−b)!`` — an integer, and the numerators of each final total over the
one denominator ``ff(n, K)`` are sums of such integers (:class:`DealerTable`).

*Many shoes at once.* The shoes asked for are the shoe less the up card (``B``) less a small
removed multiset ``x`` (the player's cards), grouped by ``|x|`` (so ``n`` and the last factor
depend on ``D`` only). The sum over ``D`` is taken one value at a time, as in a tensor
contraction: with the dealer's compositions sorted by outcome and then by their counts of
10, 9, ..., A (:data:`ORDER`), a partial sum ``S(x-tail, D-prefix)`` over the compositions
sharing a prefix needs only the counts of ``x`` in the values already summed, and one step
multiplies by ``ff(B_v − x_v, d_v)`` and adds the children of each prefix. The work is the
number of distinct ``x``-tails times the number of ``D``-prefixes at each level (a few
million residues per up card for 8 decks), in a few whole-array operations per level.

*Exact by a bound.* The arrays are residues modulo primes below 2²⁹ in int64: a product of
two residues is below 2⁵⁸ and one step adds at most :data:`MOST_TERMS` of them (the counts
0..d of one value), so nothing overflows 2⁶³. Each numerator is at most ``ff(n, K)`` (the
probabilities add up to at most 1), and enough primes are taken that their product exceeds
``ff(|B|, K)``, so the Chinese remainder theorem (Garner's mixed-radix form) gives every
numerator exactly. Their sum is then checked against ``ff(n, K)·P(no dealer Blackjack)``
computed directly, which also catches a shoe too small for the dealer to finish (the lost
sequences are missing from it).

*Compiled.* With numba (the ``fast`` extra) the contraction runs in
:mod:`~exactodds.blackjack.dealer_kernel`: the same residues summed row by row (the removed
multisets sorted, each row summing again only the levels from its first value that differs from
the row before), four primes side by side in one vector, by a plan of the sums that leaves out
the groups that are copies (:func:`sum_plan`), a whole request (every number of cards removed:
its contraction, sum check and limbs) in one call; the numpy path here stays as the fallback and
the tests' oracle (``EXACTODDS_PURE=1`` forces it; a request below
:data:`~exactodds.blackjack.dealer_store.KERNEL_MIN_ROWS` rows takes it until the kernel is
imported). The removed multisets asked for are filtered (those computed before) and sorted by a
mixed-radix code, in numpy (a caller moving rows by whole cards asks by code: :meth:`request_codes`);
their grouping by size, the decoding of codes and the search of computed rows are compiled too
once the kernel is imported.

*One store, as limbs* (:mod:`~exactodds.blackjack.dealer_store`, the base class
:class:`~exactodds.blackjack.dealer_store.NumeratorStore`: the primes, Garner's reconstruction,
the limbs and floats, the Python ints). Each composition's six numerators are written once,
straight from the residues, as :attr:`DealerTable.width` 32-bit limbs (enough for ``ff(|B|, K)``)
with their float probabilities beside, rows found by a sorted search of the codes here
(:meth:`DealerTable.rows_of`; the compiled solvers read the arrays). The Python ints
(:meth:`DealerTable.raw`, :meth:`DealerTable.numerators`) are built from the limbs of a
composition when it is first read, for the Python solvers and the distribution (25 MB of arrays
for a whole 8-deck game, not 72 MB of tuples; each round's figures: docs/blackjack.md, "Speed").

>>> t = DealerTable((4, 4, 4, 4, 4, 4, 4, 4, 4, 12), 6, False, floor=0)
>>> nums, den = t.numerators((4, 4, 4, 4, 4, 4, 4, 4, 4, 12))
>>> sum(nums) == den
True
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.blackjack.dealer_store import OUTCOMES, NumeratorStore, _kernel, _product, is_prime, primes_above
from exactodds.errors import InputError
from exactodds.game.cards import falling_factorial

Values = tuple[int, ...]
IntArray = npt.NDArray[np.int64]

MOST_TERMS: Final = 32
"""Most terms of one residue sum: the counts 0..d of one value in the dealer's hands (d ≤ 31)."""


def hand_total(hard: int, has_ace: bool) -> tuple[int, bool]:
    """The total and softness of ``hard`` points (aces 1) (§ 551.1, § 551.3(b)(3))."""
    if has_ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def dealer_compositions(up: int, h17: bool, cap: Values) -> dict[Values, tuple[int, int]]:
    """Every finished dealer draw multiset ``D`` (value counts, at most ``cap``) after up card
    ``up``: its number of legal orders and its outcome index (0..4 = 17..21, 5 = bust).

    The first card drawn is the hole card: with an ace (10) up it is not a 10 (ace), the peek
    having found no Blackjack (§ 551.8(e)); the dealer draws to 17, hitting soft 17 with ``h17``
    (§ 551.13(b)).

    >>> d = dealer_compositions(10, False, (4,) * 10)
    >>> d[(0,) * 9 + (1,)], d[(0, 0, 0, 0, 0, 0, 1, 0, 0, 0)]
    ((1, 3), (1, 0))
    """
    codes, ways, outcomes = _compositions(up, h17, cap)
    counts = _decode(np.array(codes, dtype=np.int64)).tolist()
    return dict(zip(map(tuple, counts), zip(ways, outcomes)))


SHIFT: Final = 5
"""Bits per value of a dealer composition's code (:func:`_compositions`): a dealer hand holds at
most 26 hard points, so at most 26 cards of one value (below 2⁵)."""


def _decode(codes: IntArray) -> IntArray:
    """The value counts (rows) of dealer compositions' codes (:func:`_compositions`)."""
    out: IntArray = (codes[:, None] >> (SHIFT * np.arange(10, dtype=np.int64))[None, :]) & ((1 << SHIFT) - 1)
    return out


def _compositions(up: int, h17: bool, cap: Values) -> tuple[list[int], list[int], list[int]]:
    """:func:`dealer_compositions` with each composition as an int code (``SHIFT`` bits per
    value, aces lowest): the codes, the orders and the outcomes, in one order (an int key hashes
    and grows faster than a tuple: the 10 tables of an 8-deck game 0.02 s → 0.01 s)."""
    fate = [[-1] * 32 for _ in range(2)]  # per (ace held, hard points): the outcome, or -1 (draw)
    for ace in (0, 1):
        for hard in range(2, 32):
            total, soft = hand_total(hard, bool(ace))
            if hard > 21:
                fate[ace][hard] = 5
            elif total > 17 or (total == 17 and not (soft and h17)):
                fate[ace][hard] = total - 17
    mask = (1 << SHIFT) - 1
    steps = [(i, SHIFT * i, 1 << (SHIFT * i), cap[i]) for i in range(10)]
    # the hole card is not a 10 (ace) under an ace (10) up: the peek found no Blackjack (§ 551.8(e))
    hole = [step for step in steps if not ((up == 1 and step[0] == 9) or (up == 10 and step[0] == 0))]
    out: dict[int, list[int]] = {}
    level: dict[int, list[int]] = {0: [1, up]}  # the ways so far, the hard points
    first = True
    while level:
        nxt: dict[int, list[int]] = {}
        for code, (ways, held) in level.items():
            plain = fate[1 if up == 1 or code & mask else 0]
            for i, shift, one, most in hole if first else steps:
                if (code >> shift) & mask >= most:
                    continue
                child = code + one
                hard = held + i + 1
                end = fate[1][hard] if i == 0 else plain[hard]
                if end >= 0:
                    got = out.get(child)
                    if got is None:
                        out[child] = [ways, end]
                    else:
                        got[0] += ways
                else:
                    got = nxt.get(child)
                    if got is None:
                        nxt[child] = [ways, hard]
                    else:
                        got[0] += ways
        level, first = nxt, False
    values = list(out.values())
    return list(out), [w for w, _ in values], [e for _, e in values]


ORDER: Final = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
"""The order in which the values are summed out (tens first: the fewest partial sums, module doc)."""


class DealerTable(NumeratorStore):
    """The dealer's outcome numerators for compositions ``B − x`` (``B``: the shoe less the up
    card), computed in batches and kept: ``numerators(rem)`` over ``F(n) = n!/floor!``.

    ``floor``: the smallest card count the caller's shared denominators reach (numerators are
    returned over ``n!/floor!`` so that a caller can add values of different levels).
    """

    def __init__(self, base: Values, up: int, h17: bool, floor: int, extra_cards: int = 0) -> None:
        self.base, self.up, self.h17, self.floor = base, up, h17, floor
        codes, ways, outcomes = _compositions(up, h17, base)
        if not codes:
            raise InputError("the shoe cannot complete a dealer hand")
        d = _decode(np.array(codes, dtype=np.int64))
        if d.max() >= MOST_TERMS:  # the int64 bound of the residue sums (module doc)
            raise InputError("internal: a dealer hand holds too many cards of one value for the residue sums")
        columns = [v for v in ORDER if d[:, v].any()]
        self.order = columns
        """The values the dealer's compositions hold, in summing order (the others' factors are 1)."""
        ends = np.array(outcomes, dtype=np.int64)
        rank = np.lexsort([d[:, v] for v in reversed(columns)] + [ends])
        # (sorted by outcome, then by the counts of the values in summing order: all distinct)
        self.d: IntArray = d[rank]
        self.k: IntArray = self.d.sum(axis=1)
        self.kmax = int(self.k.max())
        self.size = sum(base)
        # (more cards than the shoe holds: ff would be 0; the shoe's own orders, size!, bound every ff)
        # enough primes for ff(|B|, K) (extra_cards > 0: for a caller that multiplies the residues
        # (residues()) by ff over that many more cards and must still reconstruct); limbs enough
        # for each numerator, at most ff(n, K) ≤ ff(|B|, K) (module doc)
        super().__init__(primes_above(falling_factorial(self.size, min(self.size, self.kmax + extra_cards))),
                         max(1, -(-falling_factorial(self.size, min(self.size, self.kmax)).bit_length() // 32)))
        self.p: IntArray = self.q[:, None, None]
        ranked = [ways[i] for i in rank.tolist()]  # orders may outgrow int64 (Python ints)
        self.orders: IntArray = np.array([[w % q for w in ranked] for q in self.primes], dtype=np.int64)
        keys = np.column_stack([ends[rank], self.d[:, columns]])
        starts: list[IntArray] = []
        for j in range(len(columns) + 1):  # the groups of equal outcome and first j values (rows sorted)
            differs = (keys[1:, :j + 1] != keys[:-1, :j + 1]).any(axis=1)
            starts.append(np.concatenate([[0], np.flatnonzero(differs) + 1]).astype(np.intp))
        self.levels: list[tuple[int, IntArray, IntArray]] = []
        """Per summing step (value ``v``, from the last level to the first): ``v``, the count of
        ``v`` in each group of the level, and where the groups of the level above start."""
        for j in range(len(columns), 0, -1):
            self.levels.append((columns[j - 1], self.d[starts[j], columns[j - 1]],
                                np.searchsorted(starts[j], starts[j - 1]).astype(np.intp)))
        self.out_index = keys[starts[0], 0].tolist()
        self._columns: IntArray = keys[starts[0], 0].astype(np.int64)
        """The outcome of each group of the last level (:attr:`out_index` as an array)."""
        self.factors = [_factors(base[v], int(self.d[:, v].max()), self.q) for v in range(10)]
        """Per value ``v``: ``ff(B_v − x, j) mod p`` (axes: prime, ``x`` = 0..B_v, ``j`` = 0..max d_v)."""
        self.asked: set[object] = set()
        """Names of the sets of compositions already asked for (:meth:`request_removed`)."""
        self.per_n: dict[int, tuple[int, int, int, int]] = {}
        radix = [_product(b + 1 for b in base[v + 1:]) for v in range(10)]
        wide = radix[0] * (base[0] + 1) >= 1 << 63
        self._radix: npt.NDArray[Any] = np.array(radix, dtype=object if wide else np.int64)
        """Each removed multiset's code ``Σ x_v · radix_v`` (mixed radix, ace count first: codes
        sort as the multisets do); Python ints (object) for a shoe whose codes outgrow int64."""
        self._codes: npt.NDArray[Any] = np.zeros(0, dtype=self._radix.dtype)
        """The sorted codes of the removed multisets computed (:meth:`request_removed`)."""
        self._at: IntArray = np.zeros(0, dtype=np.int64)
        """The row of :attr:`limbs` of each of :attr:`_codes`."""
        self._packed: tuple[npt.NDArray[Any], ...] | None = None
        self._sizes: npt.NDArray[Any] = np.array([b + 1 for b in base], dtype=self._radix.dtype)
        self._cap: npt.NDArray[np.uint64] = np.array(base, dtype=np.uint64)
        """The shoe's counts plus one (the digits' sizes: :meth:`request_codes`), and unsigned (:meth:`_check`)."""
        self._most: IntArray = np.array(base, dtype=np.int64)
        """The shoe's counts, int64 (the compiled :meth:`rows_of`'s range check)."""

    def _kernel_arrays(self, lanes: int) -> tuple[npt.NDArray[Any], ...]:
        """:attr:`levels` and :attr:`factors` as the compiled contraction reads them
        (:func:`~exactodds.blackjack.dealer_kernel.contract`): per level its value, then the plan
        of :func:`sum_plan` (each term's slot and count packed in one uint64: ``slot + count·2³²``),
        then the factors (uint32; axes: chunk of ``lanes`` primes, level, ``x``, ``d``, prime in
        the chunk; zeros past the last prime), padded to one shape. Built on first use."""
        if self._packed is None:
            levels = self.levels
            xmax = max(self.factors[v].shape[1] for v, _, _ in levels)
            dmax = max(self.factors[v].shape[2] for v, _, _ in levels)
            chunks = -(-len(self.primes) // lanes)
            factors = np.zeros((chunks * lanes, len(levels), xmax, dmax), dtype=np.uint32)
            for i, (v, _, _) in enumerate(levels):
                f = self.factors[v]
                factors[:len(self.primes), i, :f.shape[1], :f.shape[2]] = f
            packed = np.moveaxis(factors.reshape((chunks, lanes) + factors.shape[1:]), 1, -1)
            cols = np.array([v for v, _, _ in levels], dtype=np.int64)
            sizes, nsums, runs, terms, counts, targets, outs = sum_plan([(dv, parents) for _, dv, parents in levels])
            # the indices the inner loops read as uint64: numba wraps no negative index (a compare
            # and a select per index fewer; 339 calls of the 8-deck game 0.20 -> 0.15 s)
            entries = terms.astype(np.uint64) | counts.astype(np.uint64) << np.uint64(32)
            self._packed = (cols, sizes, nsums, *(a.astype(np.uint64) for a in (runs, entries, targets, outs)),
                            np.ascontiguousarray(packed))
        return self._packed

    def request(self, rems: Iterable[Values]) -> None:
        """Compute (in one batch) the numerators of every composition of ``rems`` not yet known."""
        base = self.base
        self.request_removed(tuple(b - r for b, r in zip(base, rem)) for rem in rems)

    def request_removed(self, removed: Iterable[Values] | IntArray, names: Iterable[object] = ()) -> None:
        """:meth:`request` for the compositions ``B − x``, ``x`` in ``removed`` (tuples, or the rows
        of an array: :meth:`request_array`); ``names``: what the set is called (a caller asking
        again by a name already asked skips the scan)."""
        names = list(names)
        if names and all(name in self.asked for name in names):
            return
        self.asked.update(names)
        if isinstance(removed, np.ndarray):
            self.request_array(removed)
            return
        asked = set(removed)
        if not asked:
            return
        xa = np.fromiter(chain.from_iterable(asked), dtype=np.int64, count=10 * len(asked)).reshape(len(asked), 10)
        self._check(xa)
        self._request(xa, xa @ self._radix)

    def request_array(self, removed: IntArray) -> None:
        """:meth:`request_removed` for the removed multisets as the rows of an array (repeats
        allowed): no tuple per composition."""
        if len(removed):
            self._check(removed)
            self._request(removed, removed @ self._radix)

    def codes_of(self, removed: IntArray) -> npt.NDArray[Any]:
        """The codes ``Σ x_v · radix_v`` of the rows ``removed`` (checked): ``c`` cards of value ``v``
        more add ``c ·`` :meth:`radix` ``(v)`` while the count stays within the shoe's (:meth:`request_codes`)."""
        self._check(removed)
        codes: npt.NDArray[Any] = removed @ self._radix
        return codes

    def radix(self, v: int) -> int:
        """The code of one card of value ``v`` (1..10) removed (:meth:`codes_of`)."""
        return int(self._radix[v - 1])

    def request_codes(self, codes: npt.NDArray[Any]) -> None:
        """:meth:`request_array` by the rows' codes (:meth:`codes_of`; repeats allowed), decoded only when new:
        a code in range is one multiset, stored under it (never a wrong numerator); out of range, refused."""
        if not len(codes):
            return
        codes, _ = _distinct(codes)
        if codes[0] < 0 or codes[-1] >= self._radix[0] * self._sizes[0]:
            raise InputError("internal: a composition holds more cards than the shoe")
        _, found = self._find(codes)
        if found.any():
            codes = codes[~found]
        if len(codes):
            xa = self._decode(codes)
            self._check(xa)
            self._compute(xa, codes)

    def _decode(self, codes: npt.NDArray[Any]) -> IntArray:
        """The removed multisets (rows) of ``codes``: digit by digit from the last (int64: 3x faster;
        compiled once the kernel is imported, :func:`~exactodds.blackjack.dealer_kernel.decode`)."""
        kernel = _kernel(0) if codes.dtype != object else None
        if kernel is not None:
            got: IntArray = kernel.decode(np.ascontiguousarray(codes, dtype=np.int64), self._sizes)
            return got
        out: IntArray = np.empty((len(codes), 10), dtype=np.int64)
        if codes.dtype == object:
            out[:] = codes[:, None] // self._radix[None, :] % self._sizes[None, :]
            return out
        left = codes.copy()
        for v in range(9, -1, -1):
            np.remainder(left, self.base[v] + 1, out=out[:, v])
            np.floor_divide(left, self.base[v] + 1, out=left)
        return out

    def _find(self, codes: npt.NDArray[Any]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
        """Where ``codes`` are in :attr:`_codes`, and which are there."""
        done = self._codes
        if not len(done):
            return np.zeros(len(codes), dtype=np.intp), np.zeros(len(codes), dtype=bool)
        pos = np.minimum(np.searchsorted(done, codes), len(done) - 1)
        return pos, done[pos] == codes

    def _request(self, xa: IntArray, codes: npt.NDArray[Any]) -> None:
        """Compute the removed multisets ``xa`` (rows; checked, codes ``codes``) not computed before."""
        codes, first = _distinct(codes)  # sorted: neighbours share partial sums
        xa = xa[first]
        _, found = self._find(codes)
        if found.any():
            xa, codes = xa[~found], codes[~found]
        if len(codes):
            self._compute(xa, codes)

    def rows_of(self, removed: IntArray) -> IntArray:
        """The rows of :attr:`limbs` and :attr:`prob` of the compositions ``B − x``, ``x`` the
        rows of ``removed`` (computing in one batch those not yet computed). Compiled when the
        kernel is imported (:func:`~exactodds.blackjack.dealer_kernel.find_rows`: check, codes and
        search in one pass; 470 calls of the 8-deck game), else in numpy."""
        kernel = _kernel(0) if self._codes.dtype != object else None
        if kernel is not None:
            out: IntArray = np.empty(len(removed), dtype=np.int64)
            missing = kernel.find_rows(np.ascontiguousarray(removed, dtype=np.int64), self._radix, self._most,
                                       self._codes, self._at, out)
            if missing < 0:
                raise InputError("internal: a composition holds more cards than the shoe")
            if not missing:
                return out
        self._check(removed)
        codes = removed @ self._radix
        for _ in range(2):
            pos, found = self._find(codes)
            if found.all():
                rows: IntArray = self._at[pos]
                return rows
            self._request(removed[~found], codes[~found])
        raise InputError("internal: the dealer's table lacks a composition it computed")

    def _check(self, xa: IntArray) -> None:
        """Refuse a removed multiset of more cards than the shoe holds, or of fewer than none (the
        kernel reads its factors by these counts)."""
        # one comparison: a negative count, read as unsigned, exceeds every count of the shoe
        if (xa.astype(np.int64, copy=False).view(np.uint64) > self._cap).any():
            raise InputError("internal: a composition holds more cards than the shoe")

    def _compute(self, xa: IntArray, codes: npt.NDArray[Any]) -> None:
        """The numerators of ``B − x`` for the rows ``x`` of ``xa`` (sorted, distinct, new; their
        codes ``codes``; checked), stored, a batch per number of cards removed, in that order
        (compiled: the rows grouped, :func:`~exactodds.blackjack.dealer_kernel.by_size`, and every
        batch in one call, :func:`~exactodds.blackjack.dealer_kernel.batch`)."""
        start = self._used
        self._reserve(start + len(xa))
        kernel = _kernel(len(xa))
        if kernel is not None:
            xs, order, bounds, sizes = kernel.by_size(np.ascontiguousarray(xa, dtype=np.int64))
            self._batches(kernel, xs, bounds, sizes)
        else:
            # the rows grouped by size, each group in code order (a stable sort: one pass, not a
            # scan of every row per size; of 16-bit sizes, numpy's radix sort: 6x faster)
            every = xa.sum(axis=1)
            order = np.argsort(every.astype(np.uint16) if self.size < 1 << 16 else every, kind="stable")
            for part in np.split(order, np.flatnonzero(np.diff(every[order])) + 1):
                self._batch(int(every[part[0]]), xa[part])
        self._span(start, codes[order])
        rows = np.empty(len(xa), dtype=np.int64)
        rows[order] = np.arange(start, start + len(xa), dtype=np.int64)
        pos = np.searchsorted(self._codes, codes)
        self._codes = np.insert(self._codes, pos, codes)
        self._at = np.insert(self._at, pos, rows)

    def _batches(self, kernel: Any, xa: IntArray, bounds: IntArray, sizes: IntArray) -> None:
        """:meth:`_batch` for every group of rows of one size of ``xa`` (sorted by size; group
        ``g`` the rows ``bounds[g] .. bounds[g + 1]``, of ``sizes[g]`` cards), in one compiled
        call: the same sums, checks and rows."""
        ns = [self.size - s for s in sizes.tolist()]
        setups = [self._setup(n) for n in ns]
        col = 9 if self.up == 1 else 0
        failed = kernel.batch(self.orders, self.k, np.array([s[0] for s in setups], dtype=np.int64), xa, bounds,
                              *self._kernel_arrays(kernel.LANES), self.q, col,
                              np.array([s[1] for s in setups], dtype=np.int64),
                              np.array([s[2] for s in setups], dtype=np.int64), self._garner, self._columns,
                              np.array([1 / self.per_n[n][0] for n in ns]), self._limbs, self._prob, self._used)
        if failed == 1:
            raise InputError("the shoe ran out of cards during the round; use a larger shoe")
        if failed:
            raise InputError("internal: a dealer numerator outgrew its bound")
        self._used += len(xa)

    def _lengths(self, n: int) -> tuple[IntArray, int]:
        """``ff(n − k, K − k) mod p`` (axes: prime, ``k`` = 0..kmax; 0 past ``K``), ``K = min(kmax, n)``;
        and ``K``. Python ints (a dozen products per prime: cheaper than numpy's calls)."""
        kk = min(self.kmax, n)
        rows = []
        for q in self.primes:
            row = [0] * (self.kmax + 1)
            acc = row[kk] = 1
            for k in range(kk - 1, -1, -1):  # ff(n − k, kk − k) = (n − k)·ff(n − k − 1, kk − k − 1)
                acc = row[k] = acc * (n - k) % q
            rows.append(row)
        return np.array(rows, dtype=np.int64), kk

    def _weights(self, n: int) -> tuple[IntArray, int]:
        """``orders(D) · ff(n − k, K − k) mod p`` for every ``D`` (rows: primes), ``K = min(kmax, n)``; and ``K``."""
        by_k, kk = self._lengths(n)
        return self.orders * by_k[:, self.k] % self.p[:, :, 0], kk

    def _batch(self, s: int, xa: IntArray) -> IntArray:
        """The numerators of ``B − x`` for the removed multisets ``xa`` (rows) of ``s`` cards: the
        sum over the dealer's compositions, one value at a time (module doc), stored as limbs and
        probabilities (:meth:`_put`); their rows."""
        residues = self._residues(s, xa)
        return self._put(residues, self.per_n[self.size - s][0], self._columns)

    def residues(self, removed: IntArray) -> IntArray:
        """The outcome numerators of ``B − x`` over ``ff(n, K)`` modulo each of :attr:`primes`
        (axes: prime, row of ``removed``, outcome 17..21, bust), unreconstructed: for a caller that
        goes on in residues (the split joint of :mod:`exactodds.blackjack.splitjoint`)."""
        self._check(removed)
        out = np.zeros((len(self.primes), len(removed), OUTCOMES), dtype=np.int64)
        sizes = removed.sum(axis=1)
        for s in np.unique(sizes).tolist():
            rows = np.flatnonzero(sizes == s)
            rows = rows[np.lexsort(removed[rows].T[::-1])]  # sorted: neighbours share partial sums
            out[:, rows[:, None], np.array(self.out_index)[None, :]] = self._residues(s, removed[rows])
        return out

    def _setup(self, n: int) -> tuple[IntArray, list[int], list[int]]:
        """For the compositions of ``n`` cards: ``ff(n − k, K − k) mod p`` (:meth:`_lengths`), and
        what their outcomes' residues add up to (``e0 + e1 · x_c`` modulo each prime, ``x_c`` the
        removed count of the hole card the peek excludes); :attr:`per_n` filled for ``n``.

        The outcomes add up to ``ff(n, K)·P(no dealer Blackjack)`` (§ 551.8(e)): ``ff(n − 1, K − 1)``
        times the cards left that are not the hole card the peek excludes (``n − B_c + x_c``), or
        ``ff(n, K)``; both sides are below the primes' product, so equal residues are equal numbers
        (a short shoe loses sequences: the check refuses it)."""
        by_k, kk = self._lengths(n)
        got = self.per_n.get(n)
        if got is None:
            if n - kk < self.floor:
                raise InputError("internal: a composition fell below the denominator floor")
            got = (falling_factorial(n, kk), falling_factorial(n - 1, kk - 1) if n else 0,
                   falling_factorial(n - kk, n - kk - self.floor), falling_factorial(n, n - self.floor))
            self.per_n[n] = got
        den, den_less_one, _, _ = got
        if self.up in (1, 10):
            col = 9 if self.up == 1 else 0
            return (by_k, [(n - self.base[col]) * den_less_one % q for q in self.primes],
                    [den_less_one % q for q in self.primes])
        return by_k, [den % q for q in self.primes], [0] * len(self.primes)

    def _residues(self, s: int, xa: IntArray) -> IntArray:
        """:meth:`_batch`'s sums modulo the primes (axes: prime, row, outcome group), checked."""
        p = self.p
        by_k, e0, e1 = self._setup(self.size - s)
        col = 9 if self.up == 1 else 0
        kernel = _kernel(len(xa))
        if kernel is not None:
            xa = np.ascontiguousarray(xa)
            residues: IntArray = kernel.contract(self.orders, self.k, by_k, xa, *self._kernel_arrays(kernel.LANES),
                                                 self.q)
            held = kernel.sums_hold(residues, xa, col, np.array(e0, dtype=np.int64), np.array(e1, dtype=np.int64),
                                    self.q)
        else:
            residues = self._contract(self.orders * by_k[:, self.k] % p[:, :, 0], xa)
            q = p[:, :, 0]
            expect = (np.array(e0, dtype=np.int64)[:, None] + np.array(e1, dtype=np.int64)[:, None] * xa[None, :, col]) % q
            held = not ((residues.sum(axis=2) - expect) % q).any()
        if not held:
            raise InputError("the shoe ran out of cards during the round; use a larger shoe")
        return residues

    def _contract(self, w: IntArray, xa: IntArray) -> IntArray:
        """The numpy path of the contraction (the compiled kernel's oracle): ``w`` (axes: prime,
        composition) summed against the factors of the rows of ``xa``, a whole array per value."""
        p = self.p
        # the distinct tails of the x (their counts of the values summed so far), level by level
        ids = np.zeros(len(xa), dtype=np.int64)
        count = 1
        steps: list[tuple[IntArray, IntArray]] = []
        for v, _, _ in self.levels:
            uniq, inv = np.unique(xa[:, v] * count + ids, return_inverse=True)
            steps.append((uniq // count, uniq % count))
            ids, count = inv.reshape(-1), len(uniq)
        acc = w[:, None, :]
        for (v, dv, parents), (head, tail) in zip(self.levels, steps):
            rows = self.factors[v][:, :int(head.max()) + 1, :][:, :, dv]  # (prime, x_v, group): small
            prod = rows[:, head, :] * acc[:, tail, :]  # below 2⁵⁸
            acc = np.add.reduceat(prod, parents, axis=2) % p  # at most MOST_TERMS terms: below 2⁶³
        residues: IntArray = acc[:, ids, :]
        return residues

    def raw(self, rem: Values) -> tuple[tuple[int, ...], int]:
        """The outcome numerators of cards left ``rem`` over ``ff(n, K)`` and the factor
        ``(n − K)!/floor!`` that puts them over ``n!/floor!`` (kept unscaled: a third of the memory)."""
        got = self.cache.get(rem)
        if got is None:
            row = int(self.rows_of(np.array([[b - r for b, r in zip(self.base, rem)]], dtype=np.int64))[0])
            self._build(row)
            got = self.cache.get(rem)
            if got is None:  # (its batch built before, and the cache emptied by a caller since)
                got = self.cache[rem] = self._ints(row)
        return got, self.per_n[sum(rem)][2]

    def stored(self) -> dict[Values, tuple[int, ...]]:
        """Every composition computed and its numerators over ``ff(n, K)`` as Python ints (built
        from :attr:`limbs`, not kept: for tests and the curious)."""
        rems = (np.array(self.base, dtype=np.int64) - self._decode(self._codes)).tolist()
        return {tuple(rem): self._ints(row) for rem, row in zip(rems, self._at.tolist())}

    def numerators(self, rem: Values) -> tuple[tuple[int, ...], int]:
        """The outcome numerators (17..21, bust; the Blackjack hole cards left out) of cards
        left ``rem``, and their denominator ``n!/floor!``."""
        got, scale = self.raw(rem)
        return tuple(v * scale for v in got), self.per_n[sum(rem)][3]


def sum_plan(levels: list[tuple[IntArray, IntArray]]) -> tuple[IntArray, ...]:
    """The compiled contraction's plan of the levels' sums (``levels``: per level the count of
    its value in each group and where the next level's groups start), without the copies.

    A group of the next level that is one group of this level holding none of its value (its
    factor ``ff(·, 0) = 1``; about half of the groups for 8 decks) is not a sum: it is the same
    number, so it keeps that group's slot in one flat buffer, and only the other groups get a
    slot of their own. Returns the level-0 groups' count, per level the number of sums, the runs
    of their terms (``runs[l, s] .. runs[l, s + 1]``), each term's slot and count of the level's
    value, each sum's slot (all padded to one width), and the slots of the last level's groups.
    A row that sums again from level ``l`` rewrites only the slots of levels ``l`` and on; a term
    read from an earlier level's slot is the row's own (that level summed, or shared, before)."""
    ref = np.arange(len(levels[0][0]), dtype=np.int64)  # where each group of the level is
    slots = len(ref)
    nsums: list[int] = []
    runs: list[IntArray] = []
    terms: list[IntArray] = []
    counts: list[IntArray] = []
    targets: list[IntArray] = []
    for dv, parents in levels:
        bounds = np.append(parents, len(dv))
        size = np.diff(bounds)
        copy = (size == 1) & (dv[parents] == 0)
        real = np.flatnonzero(~copy)
        nxt = np.empty(len(parents), dtype=np.int64)
        nxt[copy] = ref[parents[copy]]
        nxt[real] = slots + np.arange(len(real))
        slots += len(real)
        members = np.flatnonzero(np.repeat(~copy, size))  # the children of the sums, in order
        nsums.append(len(real))
        runs.append(np.concatenate([[0], np.cumsum(size[real])]).astype(np.int64))
        terms.append(ref[members])
        counts.append(dv[members].astype(np.int64))
        targets.append(nxt[real])
        ref = nxt

    def pad(rows: list[IntArray]) -> IntArray:
        out = np.zeros((len(rows), max(1, max(len(r) for r in rows))), dtype=np.int64)
        for i, r in enumerate(rows):
            out[i, :len(r)] = r
        return out
    return (np.array([len(levels[0][0]), slots], dtype=np.int64), np.array(nsums, dtype=np.int64),
            pad(runs), pad(terms), pad(counts), pad(targets), ref)


def _factors(count: int, most: int, q: IntArray) -> IntArray:
    """``ff(count − x, j) mod p`` (axes: prime of ``q``, ``x`` = 0..count, ``j`` = 0..most)."""
    a = count - np.arange(count + 1, dtype=np.int64)
    f = np.ones((len(q), count + 1, most + 1), dtype=np.int64)
    for j in range(1, most + 1):  # ff(a, j) = ff(a, j − 1)·(a − j + 1) mod p: each product below 2²⁹·count < 2⁶³
        f[:, :, j] = f[:, :, j - 1] * np.maximum(a - j + 1, 0)[None, :] % q[:, None]  # (a − j + 1 = 0: 0 after)
    return f


def _distinct(codes: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[np.intp]]:
    """The distinct ``codes``, sorted, and where one of each is: one argsort (np.unique's: 3x that)."""
    order = codes.argsort()
    ranked = codes[order]
    new = np.empty(len(ranked), dtype=bool)
    new[:1] = True
    np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
    return ranked[new], order[new]


__all__ = ["DealerTable", "OUTCOMES", "dealer_compositions", "is_prime", "primes_above", "sum_plan"]
