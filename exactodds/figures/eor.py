"""Effects of removal: the exact change in a wager's return when one card leaves the shoe.

For a shoe ``S`` of ``N`` cards and a card face ``f`` it holds ``n_f`` copies of,
the effect of removing ``f`` is ``E_f = Return(S − f) − Return(S)``, exactly. The
effect of a *rank* ``r`` is the effect of removing one card of that rank drawn at
random from the ``n_r`` the shoe holds: ``E_r = Σ_{f of rank r} (n_f / n_r)·E_f``.
For levels whose results do not depend on suits (a level's ``suits`` trait is
``"blind"``: the ``coup`` level reads point values only) every face of a rank has the
same effect and only one removal per rank is priced; for any other level all faces are
priced and a face is listed on its own where the faces of its rank differ ("where it
matters").

**The identity.** The six cards after the first card of a shuffled shoe are as
random as the first six, and given that the first card is ``f`` they are the top of
``S − f``; hence, whenever ``N ≥ 7`` (so that ``S − f`` still holds a full round),

    Σ_f n_f · Return(S − f) = N · Return(S),   equivalently   Σ_r n_r · E_r = 0,

exactly. :attr:`EffectsOfRemoval.identity_holds` checks it on every result.

**A balanced count.** :func:`balanced_count` proposes integer tags proportional to
the effects (a card whose removal raises the player's return gets a positive tag),
balanced so that the tags of every card in the shoe add up to 0, and gives its exact
squared correlation with the effects (weighted by the shoe's rank counts) and the
correlation itself, correctly rounded.

Each level prices the base shoe and all its removals in one batch
(:meth:`~exactodds.engine.level.Level.price_batch`), shared by every wager of the
level, and each wager tallies the batch once through its settlement: the effects for
the whole catalogue cost one batch per level.

>>> e = effects_of_removal("dragon-7")
>>> e.identity_holds, len(e.ranks)
(True, 13)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np

from exactodds.catalogue import CATALOGUE, get_wager
from exactodds.catalogue.model import Pay, Paytable, Wager
from exactodds.engine.level import Level, ResultDistribution
from exactodds.exact import percent, ratio, sqrt_decimal
from exactodds.figures.analysis import as_shoe
from exactodds.figures.settlement import compile_terms, meter_amounts, priced_pay, settlement
from exactodds.game.cards import FACES, RANKS, SUITS, Card, Shoe

MAX_TAG: Final = 4
"""Largest absolute tag :func:`balanced_count` considers."""

Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: called as long runs advance (may be ``None``)."""


class NotPriceable(Exception):
    """A paytable whose pays are not exact numbers: not priced here."""


def exact_net(pay: Pay, table: Paytable, meters: Mapping[str, Fraction] | None = None) -> Fraction:
    """A pay's net per unit as an exact Fraction; a progressive meter pay is priced with its
    meter at the amount in ``meters``, else at its regulated reset (0 where none), as
    :func:`~exactodds.figures.analysis.analyze` does."""
    if pay.meter is not None:
        pay = priced_pay(pay, table, meter_amounts(table, meters))
    net: Any = pay.net
    if isinstance(net, (int, Fraction)) and not isinstance(net, bool):
        return Fraction(net)
    raise NotPriceable(f"pay {pay.text!r} is not an exact number ({net!r})")


# -- pricing ------------------------------------------------------------------------------
class DistributionCache:
    """Result distributions per (level, shoe), computed once each for a whole run."""

    def __init__(self) -> None:
        self._store: dict[tuple[Level, Shoe], ResultDistribution] = {}
        self.priced = 0

    def get(self, level: Level, shoe: Shoe) -> ResultDistribution:
        key = (level, shoe)
        dist = self._store.get(key)
        if dist is None:
            dist = level.distribution(shoe)
            self._store[key] = dist
            self.priced += 1
        return dist


def price(wager: Wager[Any], table: Paytable, dist: ResultDistribution) -> Fraction:
    """Return per unit wagered from a result distribution (void rounds push, § 629a.13(e)).

    The same sum as :func:`exactodds.figures.analysis.analyze`, without building the table:
    counts are added as integers per outcome (the pair's split of the level's results,
    :func:`~exactodds.figures.settlement.compile_terms`), then weighted once. The tests
    check the two agree for every wager of the catalogue.
    """
    terms = compile_terms(wager, table)
    position = wager.level.result_index
    acc = [0] * len(terms.names)
    for result, n in dist.counts.items():
        acc[terms.split[position[result]]] += n
    return sum((exact_net(p, table) * a for p, a in zip(terms.declared, acc) if a), Fraction(0)) / dist.universe


# -- results -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Effect:
    """The effect of removing one card of a rank (``card`` None) or one face."""

    label: str
    rank: str
    card: Card | None
    copies: int
    return_after: Fraction
    effect: Fraction


@dataclass(frozen=True)
class CountSystem:
    """Integer tags per rank (balanced over the shoe) and their agreement with the effects."""

    tags: dict[str, int]
    balanced: bool
    imbalance: int
    r_squared: Fraction | None
    positive: bool

    @property
    def correlation(self) -> str | None:
        """Weighted Pearson correlation of tags with effects, rounded to 6 places."""
        if self.r_squared is None:
            return None
        root = sqrt_decimal(self.r_squared, 6)
        return root if self.positive or set(root) <= {"0", "."} else "-" + root


@dataclass(frozen=True)
class EffectsOfRemoval:
    """Effects of removal for one wager, paytable and shoe."""

    wager: Wager[Any]
    paytable: Paytable
    shoe: Shoe
    base_return: Fraction
    ranks: tuple[Effect, ...]
    faces: tuple[Effect, ...]
    suit_sensitive_ranks: tuple[str, ...]
    count: CountSystem
    method: str
    meter_amounts: Mapping[str, Fraction] | None = None
    """Progressives priced at given meter amounts (dollars; ``--meter``); ``None``: at resets."""

    @property
    def identity_holds(self) -> bool | None:
        """Σ n_f·Return(S − f) == N·Return(S) exactly (None when N < 7: not applicable)."""
        n = self.shoe.size
        if n < 7:
            return None
        lhs = sum((e.copies * e.return_after for e in self.ranks), Fraction(0))
        return lhs == n * self.base_return

    @property
    def shown_faces(self) -> tuple[Effect, ...]:
        """Faces whose effect differs from another face of the same rank."""
        return tuple(f for f in self.faces if f.rank in self.suit_sensitive_ranks)


def _weighted_r2(tags: Sequence[int], effects: Sequence[Fraction], weights: Sequence[int]) -> tuple[Fraction | None, bool]:
    w = sum(weights)
    if w == 0:
        return None, True
    mt = Fraction(sum(wi * t for wi, t in zip(weights, tags)), w)
    me = sum((wi * e for wi, e in zip(weights, effects)), Fraction(0)) / w
    cov = sum((wi * (t - mt) * (e - me) for wi, t, e in zip(weights, tags, effects)), Fraction(0))
    vt = sum((wi * (t - mt) ** 2 for wi, t in zip(weights, tags)), Fraction(0))
    ve = sum((wi * (e - me) ** 2 for wi, e in zip(weights, effects)), Fraction(0))
    if vt == 0 or ve == 0:
        return None, True
    return cov * cov / (vt * ve), cov >= 0


def _round_half_even(x: Fraction) -> int:
    return round(x)


def balanced_count(effects: Mapping[str, Fraction], weights: Mapping[str, int],
                   max_tag: int = MAX_TAG) -> CountSystem:
    """Integer tags proportional to ``effects``, balanced so Σ weight·tag = 0.

    For each scale ``L`` = 1..``max_tag`` the tags are ``round(L·E_r / max|E|)``;
    an imbalance is then removed greedily, one step on the tag whose rounding left it
    nearest the next integer. The best balanced system (highest correlation, then
    smallest ``L``) is returned; if none balances, the best unbalanced one, flagged.

    >>> c = balanced_count({"A": Fraction(2), "B": Fraction(-1), "C": Fraction(-1)}, {"A": 1, "B": 1, "C": 1})
    >>> c.tags, c.balanced, c.correlation
    ({'A': 2, 'B': -1, 'C': -1}, True, '1.000000')
    """
    keys = [k for k in effects if weights.get(k, 0) > 0]
    top = max((abs(effects[k]) for k in keys), default=Fraction(0))
    if top == 0:
        return CountSystem({k: 0 for k in effects}, True, 0, None, True)
    best: tuple[tuple[Any, ...], CountSystem] | None = None
    for scale in range(1, max_tag + 1):
        target = {k: scale * effects[k] / top for k in keys}
        tags = {k: _round_half_even(target[k]) for k in keys}
        for _ in range(4 * len(keys) * max_tag):
            s = sum(weights[k] * tags[k] for k in keys)
            if s == 0:
                break
            step = -1 if s > 0 else 1
            options = [k for k in keys if abs(tags[k] + step) <= max_tag and abs(s + step * weights[k]) < abs(s)]
            if not options:
                break
            k = min(options, key=lambda k: (abs(tags[k] + step - target[k]), abs(s + step * weights[k]), k))
            tags[k] += step
        imbalance = sum(weights[k] * tags[k] for k in keys)
        r2, positive = _weighted_r2([tags[k] for k in keys], [effects[k] for k in keys], [weights[k] for k in keys])
        system = CountSystem({k: tags.get(k, 0) for k in effects}, imbalance == 0, imbalance, r2, positive)
        score = (imbalance == 0, positive, r2 if r2 is not None else Fraction(-1), -scale)
        if best is None or score > best[0]:
            best = (score, system)
    assert best is not None
    return best[1]


# -- the computation -----------------------------------------------------------------------
def suit_uniform(shoe: Shoe) -> bool:
    """Whether every rank's four faces are equally many in ``shoe``."""
    return all(len(set(shoe.counts[4 * r: 4 * r + 4])) == 1 for r in range(len(RANKS)))


def one_face_per_rank(level: Level, shoe: Shoe) -> bool:
    """Whether one removal per rank stands for every face of the rank: the level's results
    ignore suits, or depend on them only through relabellings that carry any suit to any
    other and the shoe's faces of each rank are equally many (the level's ``suits``)."""
    return level.suits == "blind" or (level.suits == "symmetric" and suit_uniform(shoe))


def _removal_faces(level: Level, shoe: Shoe) -> list[Card]:
    """Faces to price: one per rank (the suit with most copies, ties S,H,D,C) where
    :func:`one_face_per_rank`, every face present otherwise."""
    if one_face_per_rank(level, shoe):
        out: list[Card] = []
        for rank in RANKS:
            suit = max(SUITS, key=lambda s: (shoe.count(Card(rank, s)), -SUITS.index(s)))
            if shoe.count(Card(rank, suit)):
                out.append(Card(rank, suit))
        return out
    return [c for c in FACES if shoe.count(c)]


METHOD: Final = (
    "Each removal is priced exactly by the same enumeration as the analysis, on the shoe "
    "less that card; effect = Return(shoe − card) − Return(shoe). Rank effects are the "
    "count-weighted mean over the rank's faces. Checked: Σ n·Return(shoe − card) = "
    "N·Return(shoe) exactly (N ≥ 7)."
)


def _assemble(wager: Wager[Any], table: Paytable, shoe: Shoe, base: Fraction,
              after: Mapping[Card, Fraction], meters: Mapping[str, Fraction] | None = None) -> EffectsOfRemoval:
    suit_blind = one_face_per_rank(wager.level, shoe)
    faces: list[Effect] = []
    ranks: list[Effect] = []
    sensitive: list[str] = []
    for rank in RANKS:
        present = [Card(rank, s) for s in SUITS if shoe.count(Card(rank, s))]
        n_r = sum(shoe.count(c) for c in present)
        if not n_r:
            continue
        if suit_blind:
            ret = next(after[c] for c in present if c in after)
            for c in present:
                faces.append(Effect(str(c), rank, c, shoe.count(c), ret, ret - base))
        else:
            for c in present:
                faces.append(Effect(str(c), rank, c, shoe.count(c), after[c], after[c] - base))
            ret = sum((shoe.count(c) * after[c] for c in present), Fraction(0)) / n_r
            if len({after[c] for c in present}) > 1:
                sensitive.append(rank)
        ranks.append(Effect(rank, rank, None, n_r, ret, ret - base))
    count = balanced_count({e.rank: e.effect for e in ranks}, {e.rank: e.copies for e in ranks})
    amounts = meter_amounts(table, meters) if meters and table.meters else None
    return EffectsOfRemoval(wager, table, shoe, base, tuple(ranks), tuple(faces), tuple(sensitive), count, METHOD,
                            amounts)


def _pairs(wagers: Iterable[Wager[Any]], paytable: str | None = None) -> list[tuple[Wager[Any], Paytable]]:
    out: list[tuple[Wager[Any], Paytable]] = []
    for w in wagers:
        tables = [w.paytable(paytable)] if paytable is not None else list(w.paytables)
        out.extend((w, t) for t in tables)
    return out


@dataclass(frozen=True)
class Skipped:
    """A wager and paytable the run could not price, with the reason (progressive meters)."""

    wager: str
    paytable: str
    reason: str


def effects_for(pairs: Sequence[tuple[Wager[Any], Paytable]], shoe: Shoe,
                progress: Progress | None = None,
                meters: Mapping[str, Fraction] | None = None) -> tuple[list[EffectsOfRemoval], list[Skipped]]:
    """Effects of removal for many (wager, paytable) pairs: per level, the base shoe and
    every removal priced in one batch, then each wager tallied once over the batch
    (progressives at ``meters``, else at their resets)."""
    by_level: dict[Level, list[tuple[Wager[Any], Paytable]]] = {}
    for w, t in pairs:
        by_level.setdefault(w.level, []).append((w, t))
    base: dict[tuple[Wager[Any], Paytable], Fraction] = {}
    after: dict[tuple[Wager[Any], Paytable], dict[Card, Fraction]] = {}
    skipped: dict[tuple[Wager[Any], Paytable], Skipped] = {}
    for done, (level, members) in enumerate(by_level.items(), 1):
        cards = _removal_faces(level, shoe)
        shoes = [shoe, *(shoe.remove([c]) for c in cards)]
        batch = level.price_batch(np.array([level.dealt_shoe(s).counts for s in shoes], dtype=np.int64))
        for w, t in members:
            key = (w, t)
            s = settlement(w, t)
            try:
                nets = tuple(exact_net(p, t, meters) for p in s.pays)
            except NotPriceable as exc:
                skipped[key] = Skipped(w.id, t.id, f"not priced: {exc}")
                continue
            numerators, den = s.return_numerators(batch.counts, nets)
            returns = [Fraction(n, den * u) for n, u in zip(numerators, batch.universe)]
            base[key] = returns[0]
            after[key] = dict(zip(cards, returns[1:]))
        if progress:
            progress(done, len(by_level), f"{level.name} level: base shoe and {len(cards)} removals")
    results = [_assemble(w, t, shoe, base[w, t], after.get((w, t), {}), meters)
               for w, t in pairs if (w, t) not in skipped]
    return results, list(skipped.values())


def effects_of_removal(wager: str | Wager[Any], paytable: str | None = None, shoe: Shoe | str | int | None = None,
                       progress: Progress | None = None,
                       meters: Mapping[str, Fraction] | None = None) -> EffectsOfRemoval:
    """Effects of removal of every rank (and face, where suits matter) for one wager; a
    progressive's meters at ``meters`` (dollars, as :func:`~exactodds.figures.analysis.analyze`
    takes them), else at their resets.

    ``shoe`` is taken as :func:`~exactodds.figures.analysis.analyze` takes it: a :class:`Shoe`,
    a number of decks, or the command line's ``--shoe`` spec (``"decks=6"``, ``"KS=8,..."``, a
    .json/.csv file); default 8 decks.

    >>> effects_of_removal("tie", shoe="decks=6").shoe == Shoe.standard(6)
    True
    """
    w = get_wager(wager) if isinstance(wager, str) else wager
    t = w.paytable(paytable)
    if meters:
        meter_amounts(t, meters)  # an unknown meter or a negative amount: one input error
    results, skipped = effects_for([(w, t)], as_shoe(shoe), progress, meters)
    if skipped:
        from exactodds.errors import InputError

        raise InputError(f"{w.id} ({t.id}): {skipped[0].reason}")
    return results[0]


def eor_catalogue(shoe: Shoe | str | int | None = None, progress: Progress | None = None,
                  wagers: Iterable[Wager[Any]] | None = None) -> tuple[list[EffectsOfRemoval], list[Skipped]]:
    """Effects of removal for every wager and paytable of the catalogue (``shoe`` as in
    :func:`effects_of_removal`)."""
    return effects_for(_pairs(wagers if wagers is not None else CATALOGUE.values()), as_shoe(shoe), progress)


def bench_eor(decks: int = 8) -> float:
    """Seconds to compute the effects of removal of the whole catalogue at ``decks`` decks,
    from cold distribution caches (the shoe-independent shape tables may be warm)."""
    import time

    from exactodds.engine.levels import LEVELS

    for level in LEVELS.values():
        level._cache.clear()
    start = time.perf_counter()
    results, _ = eor_catalogue(Shoe.standard(decks))
    assert all(r.identity_holds for r in results)
    return time.perf_counter() - start


# -- data form (rendered by exactodds.report.figure_views) ------------------------------------
def eor_json(e: EffectsOfRemoval) -> dict[str, Any]:
    """Machine-readable effects: exact values as "p/q" strings."""

    def row(x: Effect) -> dict[str, Any]:
        return {"card": x.label, "copies": x.copies, "return_after": ratio(x.return_after),
                "effect": ratio(x.effect), "effect_percent": percent(x.effect, 6)}

    return {
        "wager": e.wager.id,
        "paytable": e.paytable.id,
        "shoe": e.shoe.to_json(),
        "return": ratio(e.base_return),
        "ranks": [{**row(x), "tag": e.count.tags.get(x.rank, 0)} for x in e.ranks],
        "faces": [row(x) for x in e.shown_faces],
        "identity": {"statement": "sum over cards of n*Return(shoe - card) = N*Return(shoe)",
                     "holds": e.identity_holds},
        "count": {"tags": e.count.tags, "balanced": e.count.balanced, "imbalance": e.count.imbalance,
                  "r_squared": None if e.count.r_squared is None else ratio(e.count.r_squared),
                  "correlation": e.count.correlation},
        "method": e.method,
        **({"meters": {k: ratio(v) for k, v in e.meter_amounts.items()}} if e.meter_amounts else {}),
    }


