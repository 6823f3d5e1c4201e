"""Testing a shuffler's output: whole shuffled orders, or a continuous shuffler's stream.

A lab testing an automatic or continuous shuffler has what the machine delivered, not
dealt hands. This module reads that output (format in ``docs/simulator.md``, "Shuffler
output") and tests it against the one law a correct shuffler has: **every order of the
shoe's cards equally likely, whatever went in** (for a continuous shuffler: every card
delivered uniformly from the cards in the machine).

**Whole orders** (one shuffled shoe a line; the input order of each -- the previous
line by default -- where the lab has it). Under a uniform shuffle each output is a
uniform arrangement of the shoe's multiset, independent of its input and of every
earlier order, so each per-order statistic below has an exact conditional mean (and,
where said, variance) given the input, computed in integers:

* **position by card**: rank by position band and card (face) by position band, each a
  contingency chi-square: the table of one order has fixed margins (hypergeometric), so
  ``(N-1)/N`` times Pearson's statistic of the pooled table is chi-square with
  ``(R-1)(B-1)`` degrees of freedom (its mean exactly; the law as ``M`` grows);
* **successor pairs retained**: output neighbours ``(a, b)`` that were input neighbours
  in that order, counted over the input's adjacent pairs by face: ``E = Σᵢ c(aᵢ)(c(aᵢ₊₁) -
  [aᵢ = aᵢ₊₁]) / N`` and the variance exactly (:func:`pair_moments`);
* **carry-over**: input neighbours at most :data:`NEAR` places apart in the output, in
  either order (clumps a one-pass shuffler leaves), ``E`` exactly likewise;
* **rising sequences** (the riffle signature, Bayer-Diaconis): the output read against the
  input positions. Identical cards are **labelled by order of occurrence** (the k-th
  copy of a face in the input is taken to be the k-th copy in the output), so a riffle,
  which keeps each packet's order, keeps its few rising sequences. With distinct cards the
  count has the Eulerian distribution; with copies, ``E[R] = 1 + Σᵢ P(the l-th copy of
  aᵢ₊₁ precedes the k-th copy of aᵢ)``, each a hypergeometric tail (:func:`precede`);
* **position correlation**: each face's input positions against its output positions,
  ``T = Σ_f (u_f - Eu_f)(v_f - Ev_f)``, with its exact conditional mean 0 and exact
  variance ``(N+1)/12 · (N Σ c_f a_f² - (Σ c_f a_f)²)`` (sampling without replacement);
* **runs**: rank rises between neighbours (runs up) and neighbours of one rank;
* **gaps**: ``Σ d²`` over the distances between successive copies of each face, from the
  exact spacing law ``P(d) = C(N-d, c-1) / C(N, c)``;
* **repeated orders**: every output, and every output read as a permutation of its input,
  hashed; the p-value is the union bound ``2·C(M,2)·Π c_f! / N!``.

The self-normalised tests (carry-over, rising sequences, runs, gaps) sum the per-order
deviations ``Σ (x - E[x|input])``, a martingale, and divide by ``√Σ (x - E)²`` (martingale
central limit theorem; a normal approximation, stated in the report, made from
:data:`~exactodds.simulation.shoetests.MIN_PAIRS` orders on). Every p-value enters one
Holm family (:func:`~exactodds.simulation.fit.holm`).

**Continuous shuffler**: see :class:`StreamTally`.
"""


from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.errors import InputError
from exactodds.game.cardcode import RANK_ONLY, parse_code
from exactodds.game.cards import FACES, RANKS, Shoe
from exactodds.io.progress import Progress
from exactodds.simulation.fit import DEFAULT_ALPHA, HolmVerdict, holm
from exactodds.simulation.shoetests import MIN_PAIRS
from exactodds.simulation.shufflelaws import (
    NFACES,
    SHUFFLE_WAGER,
    RunningSum,
    arrangements,
    factory_faces,
    gap_law,
    pair_moment_sums,
    pair_moments,
    precede,
    repeat_test,
    z_test,
)
from exactodds.simulation.shufflestream import WINDOW, StreamTally
from exactodds.simulation.statistics import Cell, ChiSquare, FamilyTest, chi2_sf
from exactodds.simulation.textread import Lines, read_meta, text_lines

BANDS: Final = 8
"""Position bands of the position-by-card tables (fewer when the shoe has fewer cards)."""

NEAR: Final = 3
"""Carry-over: input neighbours at most this many places apart in the output."""


MAX_DECKS: Final = 16
"""Most decks a shuffled order may hold (the rising-sequence table grows with the square of the copies)."""

CHUNK: Final = 256
"""Orders tested at a time (memory: a few arrays of ``CHUNK × 52²`` counts)."""

INPUTS: Final = ("previous", "factory", "none")
"""Input order of an order line without its own: the previous line's output, factory
order (each deck A-K of spades, hearts, diamonds, clubs), or unknown."""


# -- reading -----------------------------------------------------------------------------------------
_FACE_OF: dict[str, int] = {}


def parse_faces(text: str) -> list[int]:
    """Cards separated by spaces (or commas), each with its suit, as indices into :data:`FACES`.

    >>> [str(FACES[i]) for i in parse_faces("KS 10h, A♦")]
    ['KS', '10H', 'AD']
    """
    tokens = text.replace(",", " ").split()
    try:
        return [_FACE_OF[tok] for tok in tokens]  # the common case: every spelling seen before
    except KeyError:
        pass
    out = []
    for tok in tokens:
        f = _FACE_OF.get(tok)
        if f is None:
            f = parse_code(tok)
            if f & RANK_ONLY:
                raise InputError(f"card {tok[:20]!r} has no suit: a shuffler's output names every card by rank and suit")
            if len(_FACE_OF) < 4096:
                _FACE_OF[tok] = f
        out.append(f)
    return out


def _data_lines(path: str, meta: dict[str, str], progress: Progress | None = None) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of every line that is not blank or a comment; the
    ``key=value`` words of comments before the first such line go into ``meta``. Read in
    bounded blocks (:class:`~exactodds.simulation.textread.Lines`: a NUL byte, bytes that are
    not UTF-8 or an over-long line are one-line errors naming the line)."""
    if "\0" in path:
        raise InputError(f"the path {path[:80]!r} contains a NUL byte, which no file name can")
    lines = Lines(path, progress)
    started = False
    try:
        for first, block in lines.blocks():
            for i, text in enumerate(text_lines(block)):
                t = text.strip()
                if not t:
                    continue
                if t.startswith("#"):
                    if not started:
                        read_meta(t, meta)
                    continue
                started = True
                yield first + i, t
    except InputError as exc:  # the shared reader names the formats of crosscheck
        raise InputError(str(exc).replace("not a hand log or counts file", "not a shuffler's output")) from None
    finally:
        lines.close()


def _where(path: str, line: int) -> str:
    return f"{path}, line {line}"


def _meta_choice(meta: dict[str, str], key: str, allowed: Sequence[str], path: str) -> str | None:
    value = meta.get(key)
    if value is None:
        return None
    if value.lower() not in allowed:
        raise InputError(f"{path}: comment metadata {key}={value[:20]!r} is not one of {', '.join(allowed)}")
    return value.lower()


def _meta_decks(meta: dict[str, str], path: str) -> int | None:
    value = meta.get("decks")
    if value is None:
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 4 or int(value) < 1:
        raise InputError(f"{path}: comment metadata decks={value[:20]!r} is not a whole number of decks")
    return int(value)


# -- results -----------------------------------------------------------------------------------------
@dataclass
class ShuffleCheck(HolmVerdict):
    """The tests of a shuffler's output and their verdict (Holm's correction at ``alpha``)."""

    source: str
    mode: str
    """``"orders"`` (whole shuffled orders) or ``"continuous"`` (one delivered stream)."""
    shoe: Shoe
    alpha: float
    orders: int
    cards: int
    families: list[FamilyTest]
    with_input: int = 0
    notes: list[str] = field(default_factory=list)

    @cached_property
    def adjusted(self) -> dict[tuple[Any, ...], float]:
        """Holm-adjusted p-value of every conclusive test (computed once: the result is read-only)."""
        return holm((t for f in self.families for t in f.tests()), self.alpha)

    @property
    def tests(self) -> int:
        return len(self.adjusted)

    def failed(self, f: FamilyTest) -> bool:
        """Whether test ``f`` fails at ``alpha`` after Holm's correction."""
        return f.chi_square.conclusive and self.adjusted.get(f.chi_square.key, 1.0) < self.alpha

    def failures(self) -> list[str]:
        """Why the output is not that of a uniform shuffler (empty when no test fails)."""
        adj = self.adjusted
        out = []
        for f in self.families:
            if self.failed(f):
                out.append(f"{f.paytable}: p = {f.chi_square.p_value:.3g} (Holm-adjusted "
                           f"{adj[f.chi_square.key]:.3g} < {self.alpha:g})")
        return out



# -- whole orders ------------------------------------------------------------------------------------
class OrderTally:
    """Tests of whole shuffled orders of ``shoe``, fed in chunks (:meth:`feed`); memory is a
    few arrays per chunk, the pooled tables and one 16-byte hash per order."""

    def __init__(self, shoe: Shoe) -> None:
        self.shoe = shoe
        n = self.n = shoe.size
        if n < 3:
            raise InputError("a shuffled order needs at least 3 cards")
        c = self.c = np.array(shoe.counts, dtype=np.int64)
        self.present = np.flatnonzero(c)
        self.bands = min(BANDS, n)
        self.band_of = (np.arange(n) * self.bands) // n
        self.band_size = np.bincount(self.band_of, minlength=self.bands)
        self.rank_n = np.array(shoe.rank_counts(), dtype=np.int64)
        self.rank_band = np.zeros((len(RANKS), self.bands), dtype=np.int64)
        self.face_band = np.zeros((NFACES, self.bands), dtype=np.int64)
        self.sorted_faces = np.repeat(np.arange(NFACES), c)
        start = np.concatenate([[0], np.cumsum(c)[:-1]])
        self.copy_sorted = np.arange(n) - start[self.sorted_faces]  # copy index (0-based) of each sorted card
        self.pair_weight = c[:, None] * (c[None, :] - np.eye(NFACES, dtype=np.int64))  # c_a (c_b - [a = b])
        self._rising_table()
        self.orders = 0
        self.with_input = 0
        near = sum(n - d for d in range(1, NEAR + 1))
        self.successor = RunningSum("successor pairs retained: output neighbours that were neighbours, in that order, "
                              "in the input (exact variance)", "successor pairs", n)
        self.successor_var = 0
        """Σ of each order's exact variance of the successor count, times ``N^(4)·N²``."""
        self.carry = RunningSum(f"carry-over: input neighbours at most {NEAR} places apart in the output, either order",
                          "input neighbours near again", n * (n - 1))
        self.near_weight = 2 * near
        self.rising = RunningSum("rising sequences: the output read against its input (the riffle signature; "
                           "copies labelled by order of occurrence)", "rising sequences", self.rising_den)
        rises = sum(int(self.rank_n[r] * self.rank_n[s]) for r in range(len(RANKS)) for s in range(r + 1, len(RANKS)))
        same = int((self.rank_n * (self.rank_n - 1)).sum())
        self.rises = RunningSum("runs up: rank rises between neighbours", "rank rises", n)
        self.rises_num = rises
        self.same = RunningSum("runs of one rank: neighbours of the same rank", "same-rank neighbours", n)
        self.same_num = same
        gap = sum((Fraction(int(k) - 1) * sum((d * d * p for d, p in gap_law(n, int(k)).items()), Fraction(0))
                   for k in c if k >= 2), Fraction(0))
        self.gap_fraction = gap
        self.gaps = RunningSum("gaps: Σ d² over the distances d between successive copies of each face (spacing law)",
                         "Σ d² of gaps", gap.denominator)
        self.corr_t = 0
        self.corr_sq = 0
        """Σ T'² (for checking the exact variance against enumeration)."""
        self.corr_var = Fraction(0)
        self.corr_count = 0
        self.hashes: dict[bytes, int] = {}
        self.perm_hashes: dict[bytes, int] = {}
        self.repeats = 0
        self.perm_repeats = 0
        self.first_repeat: tuple[int, int, str] | None = None

    def _rising_table(self) -> None:
        """``table[f, g, k, l]·(1/den)`` = P(the l-th copy of g precedes the k-th copy of f), 0 for f = g."""
        cmax = int(self.c.max())
        pairs = {(int(a), int(b)) for a in self.c[self.present] for b in self.c[self.present]}
        den = 1
        for a, b in pairs:
            den = math.lcm(den, math.comb(a + b, b))
        self.rising_den = den
        table = np.zeros((NFACES, NFACES, cmax, cmax), dtype=np.int64)
        for a, b in pairs:  # one small table per pair of copy counts, spread over the faces that have them
            small = np.zeros((cmax, cmax), dtype=np.int64)
            for k in range(a):
                for j in range(b):
                    p = precede(a, b, k + 1, j + 1)
                    small[k, j] = p.numerator * (den // p.denominator)
            where = (self.c[:, None] == a) & (self.c[None, :] == b) & ~np.eye(NFACES, dtype=bool)
            table[where] = small
        self.table = table

    def feed(self, out: npt.NDArray[np.uint8], inp: npt.NDArray[np.uint8], known: npt.NDArray[np.bool_],
             lines: Sequence[int]) -> None:
        """Test a chunk: ``out`` the shuffled orders (rows of face indices), ``inp`` their
        input orders where ``known``, ``lines`` where each order is in the file."""
        k = out.shape[0]
        o = out.astype(np.int64)
        ranks = o // 4
        self.rank_band += np.bincount((ranks * self.bands + self.band_of).ravel(),
                                      minlength=len(RANKS) * self.bands).reshape(len(RANKS), self.bands)
        self.face_band += np.bincount((o * self.bands + self.band_of).ravel(),
                                      minlength=NFACES * self.bands).reshape(NFACES, self.bands)
        self.rises.add((ranks[:, 1:] > ranks[:, :-1]).sum(axis=1), self.rises_num)
        self.same.add((ranks[:, 1:] == ranks[:, :-1]).sum(axis=1), self.same_num)
        out_order = np.argsort(o, axis=1, kind="stable")  # positions of each face's copies, in order
        if self.gap_fraction:
            d = np.diff(out_order, axis=1)
            inner = self.sorted_faces[1:] == self.sorted_faces[:-1]
            self.gaps.add((d * d * inner).sum(axis=1), self.gap_fraction.numerator)
        for j in range(k):
            self._hash(bytes(out[j]), self.hashes, lines[j], "output")
        self.orders += k
        if known.any():
            self._input_tests(o[known], inp[known].astype(np.int64), out_order[known],
                              [line for line, y in zip(lines, known) if y])

    def _input_tests(self, o: npt.NDArray[np.int64], i: npt.NDArray[np.int64], out_order: npt.NDArray[np.int64],
                     lines: Sequence[int]) -> None:
        k, n = o.shape
        self.with_input += k
        rows = np.arange(k)[:, None]
        # successor pairs and carry-over, by face pair (a, b) -> a·52 + b
        sq = NFACES * NFACES
        offset = np.arange(k)[:, None] * sq
        in_pairs = np.bincount((i[:, :-1] * NFACES + i[:, 1:] + offset).ravel(), minlength=k * sq).reshape(k, sq)
        base = self.pair_weight[i[:, :-1], i[:, 1:]].sum(axis=1)

        def out_pairs(d: int) -> npt.NDArray[np.int64]:
            return np.bincount((o[:, :-d] * NFACES + o[:, d:] + offset).ravel(), minlength=k * sq).reshape(k, sq)

        near = np.zeros(k, dtype=np.int64)
        for d in range(1, NEAR + 1):
            q = out_pairs(d)
            if d == 1:
                self.successor.add((in_pairs * q).sum(axis=1), base)
                self._successor_variance(in_pairs.reshape(k, NFACES, NFACES), base)
            both = q + q.reshape(k, NFACES, NFACES).transpose(0, 2, 1).reshape(k, sq)
            near += (in_pairs * both).sum(axis=1)
        self.carry.add(near, self.near_weight * base)
        # labelled positions: the k-th copy of a face in the input is the k-th copy in the output
        in_order = np.argsort(i, axis=1, kind="stable")
        pos = np.empty_like(out_order)
        pos[rows, in_order] = out_order
        copy = np.empty_like(in_order)
        copy[rows, in_order] = self.copy_sorted
        descents = (pos[:, 1:] < pos[:, :-1]).sum(axis=1)
        num = self.table[i[:, :-1], i[:, 1:], copy[:, :-1], copy[:, 1:]].sum(axis=1)
        self.rising.add(1 + descents, self.rising_den + num)
        # position correlation: A_f = 2u_f - c_f(n-1), V_f likewise; T' = Σ A_f V_f
        foff = np.arange(k)[:, None] * NFACES
        positions = np.broadcast_to(np.arange(n), (k, n)).ravel()
        u = np.bincount((i + foff).ravel(), weights=positions, minlength=k * NFACES).reshape(k, NFACES)
        v = np.bincount((o + foff).ravel(), weights=positions, minlength=k * NFACES).reshape(k, NFACES)
        centre = self.c * (n - 1)
        a = 2 * np.rint(u).astype(np.int64) - centre
        b = 2 * np.rint(v).astype(np.int64) - centre
        t = (a * b).sum(axis=1)
        self.corr_t += int(t.sum())
        self.corr_sq += sum(x * x for x in t.tolist())
        for row in a.tolist():
            s1 = sum(int(cf) * x * x for cf, x in zip(self.c.tolist(), row))
            s2 = sum(int(cf) * x for cf, x in zip(self.c.tolist(), row))
            self.corr_var += Fraction((n + 1) * (n * s1 - s2 * s2), 3)
        self.corr_count += k
        for j in range(k):
            self._hash(pos[j].astype(np.uint16).tobytes(), self.perm_hashes, lines[j], "permutation of its input")

    def _successor_variance(self, w: npt.NDArray[np.int64], base: npt.NDArray[np.int64]) -> None:
        """Add each order's exact variance of ``S = Σⱼ w(Xⱼ, Xⱼ₊₁)`` (``w`` its input's adjacent
        pairs by face) under a uniform arrangement: from ``E[S²] = (N-1)E[w(X0,X1)²] +
        2(N-2)E[w(X0,X1)w(X1,X2)] + (N-2)(N-3)E[w(X0,X1)w(X2,X3)]`` and ``E[S] = base/N``,
        in integers scaled by ``N^(4)·N²``."""
        n = self.n
        t2, t3, t4 = pair_moments(w, self.c)
        n4 = n * (n - 1) * (n - 2) * (n - 3)
        for a, b, d, e in zip(t2.tolist(), t3.tolist(), t4.tolist(), base.tolist()):
            second = (n - 2) * (n - 3) * ((n - 1) * a + 2 * b + d)  # E[S²]·N^(4)
            self.successor_var += n * n * second - n4 * e * e

    def _hash(self, data: bytes, seen: dict[bytes, int], line: int, what: str) -> None:
        key = hashlib.blake2b(data, digest_size=16).digest()
        before = seen.get(key)
        if before is None:
            seen[key] = line
            return
        if seen is self.hashes:
            self.repeats += 1
        else:
            self.perm_repeats += 1
        if self.first_repeat is None:
            self.first_repeat = (line, before, what)

    # -- the tests
    def tests(self) -> list[FamilyTest]:
        """Every test of the orders fed, in report order."""
        out = [self._position("rank", self.rank_band, self.rank_n, RANKS),
               self._position("card", self.face_band, self.c, tuple(str(f) for f in FACES))]
        if self.with_input:
            out += [self._successor(), self.carry.test(), self.rising.test(), self._correlation()]
        out += [self.rises.test(), self.same.test()]
        if self.gap_fraction:
            out.append(self.gaps.test())
        out.append(self._repeats())
        return out

    def _position(self, what: str, table: npt.NDArray[np.int64], totals: npt.NDArray[np.int64],
                  names: Sequence[str]) -> FamilyTest:
        m, n = self.orders, self.n
        cells = []
        stat = Fraction(0)
        for r in np.flatnonzero(totals).tolist():
            for b in range(self.bands):
                e = Fraction(m * int(self.band_size[b]) * int(totals[r]), n)
                o = int(table[r, b])
                if e:
                    stat += (o - e) ** 2 / e
                cells.append(Cell(f"{names[r]} in band {b + 1}", o, Fraction(int(totals[r]), n), e,
                                  float((o - e) / math.sqrt(float(e))) if e else None))
        stat = stat * (n - 1) / n
        df = (len(np.flatnonzero(totals)) - 1) * (self.bands - 1)
        conclusive = m > 0 and df > 0 and all(c.expected >= 5 for c in cells)
        p = chi2_sf(float(stat), df) if conclusive else 1.0
        name = (f"{what} by position: {what}s against {self.bands} bands of the order, contingency chi-square "
                "x (N-1)/N")
        key = ("shuffle chi2", name, tuple((c.observed, c.expected) for c in cells))
        return FamilyTest(SHUFFLE_WAGER, name, m, tuple(cells), ChiSquare(float(stat), df, p, len(cells), (), (),
                                                                          conclusive, key), None)

    def _successor(self) -> FamilyTest:
        """The successor count against its exact mean, with its exact variance (orders independent
        given their inputs: a martingale, normal in the limit)."""
        s, n = self.successor, self.n
        scale = n ** 3 * (n - 1) * (n - 2) * (n - 3)  # N²·N^(4)
        var = Fraction(self.successor_var, scale)
        diff = Fraction(s.observed * n - s.expected, n)
        z = float(diff) / math.sqrt(float(var)) if var > 0 else 0.0
        return z_test(s.name, s.count, s.unit, s.observed, Fraction(s.expected, n), z,
                       s.count >= MIN_PAIRS and var > 0)

    def _correlation(self) -> FamilyTest:
        name = "position correlation: each card's output positions against its input positions (exact variance)"
        var = self.corr_var
        z = self.corr_t / math.sqrt(float(var)) if var > 0 else 0.0
        conclusive = self.corr_count >= MIN_PAIRS and var > 0
        return z_test(name, self.corr_count, "Σ (2u - E)(2v - E)", self.corr_t, Fraction(0), z, conclusive)

    def _repeats(self) -> FamilyTest:
        one = Fraction(1, arrangements(self.shoe))
        m = self.orders
        name = "repeated orders: every output, and every output as a permutation of its input, hashed"
        pairs = m * (m - 1) // 2 + self.with_input * (self.with_input - 1) // 2
        return repeat_test(name, m, self.repeats + self.perm_repeats, one, pairs)

    def repeat_note(self) -> str | None:
        if self.first_repeat is None:
            return None
        line, before, what = self.first_repeat
        total = self.repeats + self.perm_repeats
        return (f"repeated orders: {total:,} repeat(s); the first, line {line}, repeats line {before} "
                f"(the {what}): a uniform shuffle repeats an order with probability 1/{_big(arrangements(self.shoe))}")


def _big(n: int) -> str:
    """A large whole number as text: exact up to 12 digits, else ``~d.ddd × 10^e``."""
    s = str(n)
    return f"{n:,}" if len(s) <= 12 else f"~{s[0]}.{s[1:4]} x 10^{len(s) - 1}"


# -- reading whole orders ------------------------------------------------------------------------------
def _shoe_of(decks: int | None, first: list[int], path: str, line: int) -> Shoe:
    if decks is None:
        if len(first) % NFACES:
            raise InputError(f"{_where(path, line)}: {len(first)} cards is not a whole number of 52-card decks; "
                             "give --decks")
        decks = max(1, len(first) // NFACES)
    return _standard(decks)


def _standard(decks: int) -> Shoe:
    if not 1 <= decks <= MAX_DECKS:
        raise InputError(f"shufflecheck tests shoes of 1 to {MAX_DECKS} decks, got {decks}")
    return Shoe.standard(decks)


def check_shuffles(path: str, decks: int | None = None, input_order: str | None = None,
                   alpha: float = DEFAULT_ALPHA, continuous: bool | None = None,
                   progress: Progress | None = None) -> ShuffleCheck:
    """Read a shuffler's output (whole orders, or with ``continuous`` or ``# mode=continuous``
    a delivered stream) and test it. ``decks``: ``--decks``, else ``# decks=``, else (whole
    orders) the first order's length in decks (continuous: 8, stated). ``input_order``:
    :data:`INPUTS`, else ``# input=``, else ``previous``. Bad input: one
    :class:`~exactodds.errors.InputError` naming the file and line."""
    if not 0 < alpha < 1:
        raise InputError(f"--alpha must be between 0 and 1, got {alpha}")
    if input_order is not None and input_order not in INPUTS:
        raise InputError(f"--input must be one of {', '.join(INPUTS)}, got {input_order!r}")
    meta: dict[str, str] = {}
    lines = _data_lines(path, meta, progress)
    head = next(lines, None)
    mode = _meta_choice(meta, "mode", ("orders", "continuous"), path)
    stream = continuous if continuous is not None else mode == "continuous"
    d = decks if decks is not None else _meta_decks(meta, path)
    if stream:
        return _check_stream(path, head, lines, d, alpha)
    how = input_order or _meta_choice(meta, "input", INPUTS, path) or "previous"
    if head is None:
        raise InputError(f"{path}: no shuffled order in the file (one order a line, cards separated by spaces)")
    return _check_orders(path, head, lines, d, how, alpha)


def _check_orders(path: str, head: tuple[int, str], lines: Iterator[tuple[int, str]], d: int | None, how: str,
                  alpha: float) -> ShuffleCheck:
    """Test whole shuffled orders, one a line from ``head`` on (``d``: the decks stated,
    else the first order's; ``how``: the input order of a line without its own)."""
    notes: list[str] = []
    first_out = _split(path, *head)[1]
    shoe = _shoe_of(d, first_out, path, head[0])
    if d is None:
        notes.append(f"decks: {shoe.decks} (from the first order's {len(first_out)} cards; no --decks and no "
                     "'# decks=' comment)")
    tally = OrderTally(shoe)
    given = _feed_orders(tally, path, _chain([head], lines), how)
    src = ("given on each line ('INPUT | OUTPUT')" if given == tally.orders else
           f"given on {given:,} line(s); the others: " + _input_words(how) if given else _input_words(how))
    notes.append(f"input orders: {src}; {tally.with_input:,} of {tally.orders:,} orders tested against theirs")
    note = tally.repeat_note()
    if note:
        notes.append(note)
    notes.append("approximations: the position tables are chi-square in the limit (their mean exactly); the "
                 "carry-over, rising-sequence, runs and gap tests divide the summed deviations from their exact "
                 "expectations by their observed spread (martingale central limit theorem); the successor and "
                 "position-correlation tests have their exact variances (normal in the limit); the repeat test "
                 "is an exact union bound")
    result = ShuffleCheck(path, "orders", shoe, alpha, tally.orders, tally.orders * shoe.size, tally.tests(),
                          tally.with_input, notes)
    if result.verdict == "inconclusive":
        result.notes.append(f"inconclusive: {tally.orders:,} order(s) are too few for any test")
    return result


def _feed_orders(tally: OrderTally, path: str, rows: Iterator[tuple[int, str]], how: str) -> int:
    """Feed every order line to ``tally``, :data:`CHUNK` orders at a time, each with its
    input order (its own, else as ``how`` says); returns the lines that gave their own."""
    shoe = tally.shoe
    factory = factory_faces(shoe)
    want = np.array(shoe.counts, dtype=np.int64)
    n = shoe.size
    outs = np.empty((CHUNK, n), dtype=np.uint8)
    ins = np.empty((CHUNK, n), dtype=np.uint8)
    known = np.zeros(CHUNK, dtype=bool)
    at: list[int] = []
    previous: npt.NDArray[np.uint8] | None = None
    given = 0

    def flush() -> None:
        if at:
            k = len(at)
            tally.feed(outs[:k], ins[:k], known[:k], at)
            at.clear()

    for line, text in rows:
        inp, out = _split(path, line, text)
        row = len(at)
        outs[row] = _whole_order(out, want, path, line, "order")
        if inp is not None:
            ins[row] = _whole_order(inp, want, path, line, "input order")
            known[row] = True
            given += 1
        elif how == "factory":
            ins[row] = factory
            known[row] = True
        elif how == "previous" and previous is not None:
            ins[row] = previous
            known[row] = True
        else:
            known[row] = False
        previous = outs[row].copy()
        at.append(line)
        if len(at) == CHUNK:
            flush()
    flush()
    return given


def _input_words(how: str) -> str:
    return {"previous": "the previous line's output (none for the first line)",
            "factory": "factory order (each deck A-K of spades, hearts, diamonds, clubs)",
            "none": "not known (--input none): the input-relative tests are not made"}[how]


def _split(path: str, line: int, text: str) -> tuple[list[int] | None, list[int]]:
    """An order line: ``OUTPUT`` or ``INPUT | OUTPUT``, as face indices."""
    parts = text.split("|")
    if len(parts) > 2:
        raise InputError(f"{_where(path, line)}: more than one '|' (a line is OUTPUT or INPUT | OUTPUT)")
    try:
        faces = [parse_faces(p) for p in parts]
    except InputError as exc:
        raise InputError(f"{_where(path, line)}: {exc}") from None
    return (faces[0], faces[1]) if len(faces) == 2 else (None, faces[0])


def _whole_order(faces: list[int], want: npt.NDArray[np.int64], path: str, line: int, what: str) -> npt.NDArray[np.uint8]:
    """``faces`` as a row, checked to hold every card of the shoe exactly once per copy."""
    arr = np.array(faces, dtype=np.uint8)
    n = int(want.sum())
    if arr.size != n:
        raise InputError(f"{_where(path, line)}: the {what} has {arr.size:,} cards; the shoe has {n:,}")
    have = np.bincount(arr, minlength=NFACES)
    bad = np.flatnonzero(have != want)
    if bad.size:
        f = int(bad[0])
        raise InputError(f"{_where(path, line)}: the {what} holds {int(have[f])} {FACES[f]}; the shoe has "
                         f"{int(want[f])} (a whole order holds every card of the shoe once)")
    return arr


def _check_stream(path: str, head: tuple[int, str] | None, lines: Iterator[tuple[int, str]], decks: int | None,
                  alpha: float) -> ShuffleCheck:
    shoe = _standard(decks if decks is not None else 8)
    tally = StreamTally(shoe)
    notes = [] if decks is not None else ["decks: 8 assumed (no --decks option and no '# decks=' comment); the "
                                          "machine is taken to start with the whole shoe"]
    rest = [head] if head is not None else []
    for line, text in _chain(rest, lines):
        where = _where(path, line)
        try:
            if text.startswith(">"):
                named = text[1:].strip()
                tally.reinsert(parse_faces(named) if named else None, where)
            else:
                for f in parse_faces(text):
                    tally.deliver(f, where)
        except InputError as exc:
            message = str(exc)
            raise InputError(message if message.startswith(where) else f"{where}: {message}") from None
    if tally.cards == 0:
        raise InputError(f"{path}: no delivered card in the file")
    notes.append(f"continuous shuffler: {tally.cards:,} cards delivered, {tally.points:,} reinsertion point(s); "
                 "each card is tested against the cards in the machine at that moment")
    if tally.first_repeat is not None:
        notes.append(f"repeated sequences: {tally.repeats:,} window(s) repeat an earlier one; the first ends at "
                     f"card {tally.first_repeat[0]:,} and repeats the window ending at card {tally.first_repeat[1]:,}")
    result = ShuffleCheck(path, "continuous", shoe, alpha, 0, tally.cards, tally.tests(), 0, notes)
    if result.verdict == "inconclusive":
        result.notes.append(f"inconclusive: {tally.cards:,} card(s) are too few for any test")
    return result


def _chain(first: list[tuple[int, str]], rest: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    yield from first
    yield from rest


__all__ = ["BANDS", "CHUNK", "INPUTS", "MAX_DECKS", "NEAR", "SHUFFLE_WAGER", "WINDOW", "OrderTally", "ShuffleCheck",
           "StreamTally", "arrangements", "check_shuffles", "gap_law", "pair_moment_sums", "pair_moments",
           "parse_faces", "precede"]
