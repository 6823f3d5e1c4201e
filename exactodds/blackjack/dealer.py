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
removed multiset ``x`` (the player's cards). The products are evaluated over the trie of the
removed multisets (value by value, so shoes sharing ``x_1..x_v`` share their partial product),
each trie node one vector operation over every ``D`` of the up card.

*Exact by a bound.* The vectors are residues modulo primes below 2³¹ (a product of two residues
stays below 2⁶² in int64, a sum of fewer than 2³² residues below 2⁶³). Each numerator is at most
``ff(n, K)`` (the probabilities add up to at most 1), and enough primes are taken that their
product exceeds ``ff(|B|, K)``, so the Chinese remainder theorem gives every numerator exactly.
Their sum is then checked against ``ff(n, K)·P(no dealer Blackjack)`` computed directly, which
also catches a shoe too small for the dealer to finish (the lost sequences are missing from it).

>>> t = DealerTable((4, 4, 4, 4, 4, 4, 4, 4, 4, 12), 6, False, floor=0)
>>> nums, den = t.numerators((4, 4, 4, 4, 4, 4, 4, 4, 4, 12))
>>> sum(nums) == den
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from exactodds.errors import InputError
from exactodds.game.cards import falling_factorial

Values = tuple[int, ...]
IntArray = npt.NDArray[np.int64]

OUTCOMES: Final = 6
"""Final 17, 18, 19, 20, 21, bust."""

PRIME_BOUND: Final = 1 << 31


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3,215,031,751 (bases 2, 3, 5, 7).

    >>> [p for p in range(2, 30) if is_prime(p)]
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    """
    if n < 2:
        return False
    for p in (2, 3, 5, 7):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def primes_above(bound: int) -> tuple[int, ...]:
    """The largest primes below 2³¹, as few as make a product greater than ``bound``."""
    out: list[int] = []
    prod, p = 1, PRIME_BOUND - 1
    while prod <= bound:
        while not is_prime(p):
            p -= 1
        out.append(p)
        prod *= p
        p -= 1
    return tuple(out)


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
    out: dict[Values, tuple[int, int]] = {}
    level: dict[Values, int] = {(0,) * 10: 1}
    first = True
    while level:
        nxt: dict[Values, int] = {}
        for d, ways in level.items():
            for i in range(10):
                v = i + 1
                if d[i] >= cap[i] or (first and ((up == 1 and v == 10) or (up == 10 and v == 1))):
                    continue
                child = d[:i] + (d[i] + 1,) + d[i + 1:]
                hard = up + sum((j + 1) * c for j, c in enumerate(child))
                total, soft = hand_total(hard, up == 1 or child[0] > 0)
                if hard > 21:
                    got = out.get(child, (0, 5))
                    out[child] = (got[0] + ways, 5)
                elif total > 17 or (total == 17 and not (soft and h17)):
                    got = out.get(child, (0, total - 17))
                    out[child] = (got[0] + ways, total - 17)
                else:
                    nxt[child] = nxt.get(child, 0) + ways
        level, first = nxt, False
    return out


class DealerTable:
    """The dealer's outcome numerators for compositions ``B − x`` (``B``: the shoe less the up
    card), computed in batches and kept: ``numerators(rem)`` over ``F(n) = n!/floor!``.

    ``floor``: the smallest card count the caller's shared denominators reach (numerators are
    returned over ``n!/floor!`` so that a caller can add values of different levels).
    """

    def __init__(self, base: Values, up: int, h17: bool, floor: int) -> None:
        self.base, self.up, self.h17, self.floor = base, up, h17, floor
        comps = sorted(dealer_compositions(up, h17, base).items(), key=lambda kv: (kv[1][1], sum(kv[0]), kv[0]))
        if not comps:
            raise InputError("the shoe cannot complete a dealer hand")
        if len(comps) >= 1 << 32:  # the int64 bound of the residue sums (module doc)
            raise InputError("internal: too many dealer compositions for the residue sums")
        self.d = np.array([c for c, _ in comps], dtype=np.int64)
        self.k = [sum(c) for c, _ in comps]
        self.kmax = max(self.k)
        self.size = sum(base)
        self.primes = primes_above(falling_factorial(self.size, self.kmax))
        self.p: IntArray = np.array(self.primes, dtype=np.int64)[:, None]
        modulus = 1
        for q in self.primes:
            modulus *= q
        self.modulus = modulus
        self.crt = [(modulus // q) * pow(modulus // q, -1, q) % modulus for q in self.primes]
        # groups of equal (outcome, k): start offsets for reduceat, and each group's outcome and k
        keys = [(o, k) for (_, (_, o)), k in zip(comps, self.k)]
        self.starts = np.array([i for i in range(len(keys)) if i == 0 or keys[i] != keys[i - 1]], dtype=np.intp)
        self.group_k = [keys[i][1] for i in self.starts]
        group_out = [keys[i][0] for i in self.starts]
        self.out_starts = np.array([j for j in range(len(group_out)) if j == 0 or group_out[j] != group_out[j - 1]],
                                   dtype=np.intp)
        self.out_index = [group_out[j] for j in self.out_starts]
        self.root: IntArray = np.array([[o % q for _, (o, _) in comps] for q in self.primes], dtype=np.int64)
        self.columns = [bool(self.d[:, v].any()) for v in range(10)]
        self.factor_tables: dict[tuple[int, int], IntArray] = {}
        self.length_tables: dict[int, tuple[IntArray, int]] = {}
        self.cache: dict[Values, tuple[int, ...]] = {}
        self.done: set[Values] = set()
        self.per_n: dict[int, tuple[int, int, int]] = {}

    def _factor(self, v: int, x: int) -> IntArray:
        """``ff(B_v − x, d_v) mod p`` for every ``D`` (rows: primes)."""
        key = (v, x)
        got = self.factor_tables.get(key)
        if got is None:
            r = self.base[v] - x
            by_d = [falling_factorial(r, j) for j in range(int(self.d[:, v].max()) + 1)]
            got = np.array([[by_d[j] % q for j in self.d[:, v]] for q in self.primes], dtype=np.int64)
            self.factor_tables[key] = got
        return got

    def _length(self, n: int) -> tuple[IntArray, int]:
        """``ff(n − k, K − k) mod p`` per (outcome, k) group, ``K = min(kmax, n)``; and ``K``."""
        got = self.length_tables.get(n)
        if got is None:
            kk = min(self.kmax, n)
            vals = [falling_factorial(n - k, kk - k) if k <= kk else 0 for k in self.group_k]
            got = (np.array([[x % q for x in vals] for q in self.primes], dtype=np.int64), kk)
            self.length_tables[n] = got
        return got

    def request(self, rems: Iterable[Values]) -> None:
        """Compute (in one batch) the numerators of every composition of ``rems`` not yet known."""
        base = self.base
        self.request_removed(tuple(b - r for b, r in zip(base, rem)) for rem in rems)

    def request_removed(self, removed: Iterable[Values]) -> None:
        """:meth:`request` for the compositions ``B − x``, ``x`` in ``removed``."""
        done = self.done
        todo = sorted({x for x in removed if x not in done})
        if not todo:
            return
        if any(x < 0 for xs in todo for x in xs) or any(x > b for xs in todo for x, b in zip(xs, self.base)):
            raise InputError("internal: a composition holds more cards than the shoe")
        partial: list[IntArray] = [self.root] * 10
        prev: Values | None = None
        i = 0
        while i < len(todo):
            x = todo[i]
            j = i
            while j < len(todo) and todo[j][:9] == x[:9]:
                j += 1
            start = 0
            if prev is not None:
                while start < 9 and prev[start] == x[start]:
                    start += 1
            for v in range(start, 9):
                above = self.root if v == 0 else partial[v - 1]
                partial[v] = above * self._factor(v, x[v]) % self.p if self.columns[v] else above
            prev = x
            siblings = todo[i:j]
            tens = np.stack([self._factor(9, s[9]) for s in siblings]) if self.columns[9] else None
            leaf = partial[8][None] * tens % self.p if tens is not None else partial[8][None]
            grouped = np.add.reduceat(leaf, self.starts, axis=2) % self.p
            for s, g in zip(siblings, grouped):
                self._finish(s, g)
            i = j
        self.factor_tables.clear()  # a batch's working tables (megabytes); the numerators stay

    def _finish(self, x: Values, grouped: IntArray) -> None:
        n = self.size - sum(x)
        lengths, kk = self._length(n)
        per_out = (np.add.reduceat(grouped * lengths % self.p, self.out_starts, axis=1) % self.p).tolist()
        nums = [0] * OUTCOMES
        modulus = self.modulus
        crt = self.crt
        for col, o in enumerate(self.out_index):
            nums[o] = sum(row[col] * c for row, c in zip(per_out, crt)) % modulus
        rem = tuple(b - y for b, y in zip(self.base, x))
        got = self.per_n.get(n)
        if got is None:
            if n - kk < self.floor:
                raise InputError("internal: a composition fell below the denominator floor")
            got = (falling_factorial(n, kk), falling_factorial(n - 1, kk - 1) if n else 0,
                   falling_factorial(n - kk, n - kk - self.floor))
            self.per_n[n] = got
        den, den_less_one, scale = got
        if self.up == 1:
            expect = (n - rem[9]) * den_less_one
        elif self.up == 10:
            expect = (n - rem[0]) * den_less_one
        else:
            expect = den
        if sum(nums) != expect:
            raise InputError("the shoe ran out of cards during the round; use a larger shoe")
        self.cache[rem] = tuple(v * scale for v in nums)
        self.done.add(x)

    def numerators(self, rem: Values) -> tuple[tuple[int, ...], int]:
        """The outcome numerators (17..21, bust; the Blackjack hole cards left out) of cards
        left ``rem``, and their denominator ``n!/floor!``."""
        got = self.cache.get(rem)
        if got is None:
            self.request([rem])
            got = self.cache[rem]
        n = sum(rem)
        return got, falling_factorial(n, n - self.floor)


__all__ = ["DealerTable", "OUTCOMES", "dealer_compositions", "is_prime", "primes_above"]
