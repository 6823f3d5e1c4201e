"""Progressive and mystery-bonus figures: exact returns as functions of the meter amounts.

A meter pay (:meth:`exactodds.catalogue.model.Pay.meter_pay`) returns ``share·M`` in all on a
wager of ``stake`` dollars, so its net per unit is ``share·M/stake − 1``; the return of
a progressive is linear in the meter amounts (docs/WAGERS.md, "Progressives"):

    R(M) = a + Σ_i p_i·share_i·M_i / stake              (a :class:`Linear` form, exact)

Long-run return (renewal-reward over jackpot cycles, every contribution eventually paid
out). A meter reset to ``R_i`` after a hit that has probability ``p_i`` per wager and
grows by ``r_i`` of every wager pays on average ``R_i + r_i·stake/p_i`` per hit, i.e.
``p_i·R_i/stake + r_i`` per unit wagered. A reserve rate ``q_i`` that funds the reseed
(§ 631b.10(j): "reseed amounts (reserve incrementation rate)") replaces the house-funded
reset: the meter's part is then ``r_i + q_i``. Hence

    long-run return = R(M_i = R_i where the house funds the reseed, 0 where the reserve
                       funds it) + Σ_i (r_i + q_i)

which is "return at reset + increment + reserve" with the reserve-funded resets at 0.
Where the regulation leaves an increment rate to the Rules Submission the long-run
return is linear in that rate (variable ``rate_<meter>``).

Every coefficient is a :class:`fractions.Fraction` built from exact counts; nothing goes
through a symbolic or numeric identification step, so a rational figure can never be
rewritten as an irrational-looking one.

Mystery (must-hit-by) meters: see :func:`mystery_long_run`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import TYPE_CHECKING, Any

from exactodds.catalogue.model import Meter
from exactodds.errors import InputError
from exactodds.exact import ratio

if TYPE_CHECKING:  # analysis_json calls this module: it reads the shape, not the class
    from exactodds.figures.priced import PricedWager

_VARIABLE = r"[A-Za-z_][A-Za-z0-9_]*"
_TERM = re.compile(rf"\s*([+-])?\s*([0-9]+)/([0-9]+)(?:\*({_VARIABLE}))?\s*", re.ASCII)
MAX_LINEAR_TEXT = 100_000
"""Longest linear-form text :meth:`Linear.parse` reads."""


def meter_variable(name: str) -> str:
    """The variable standing for meter ``name`` in dollars, e.g. ``M_mega``.

    >>> meter_variable("heavenly-9")
    'M_heavenly_9'
    """
    return "M_" + re.sub(r"\W", "_", name, flags=re.ASCII)


def rate_variable(name: str) -> str:
    """The variable for an increment rate the regulation leaves to the Rules Submission."""
    return "rate_" + re.sub(r"\W", "_", name, flags=re.ASCII)


@dataclass(frozen=True)
class Linear:
    """An exact linear form ``constant + Σ coefficient·variable`` with Fraction coefficients.

    Terms are kept sorted by variable with no zero coefficient, so equal forms are equal
    objects and render to the same text. The text is ``p/q*VAR`` terms in variable order,
    then the constant ``p/q``, joined by `` + `` / `` - ``; :meth:`parse` reads it back.

    >>> f = Linear.of({"M_b": Fraction(1, 3), "M_a": Fraction(-2)}, Fraction(-1, 2))
    >>> str(f)
    '-2/1*M_a + 1/3*M_b - 1/2'
    >>> Linear.parse(str(f)) == f, f.at({"M_a": Fraction(1), "M_b": Fraction(3)})
    (True, Fraction(-3, 2))
    """

    constant: Fraction
    terms: tuple[tuple[str, Fraction], ...] = ()

    @classmethod
    def of(cls, coefficients: Mapping[str, Fraction], constant: Fraction | int = 0) -> Linear:
        """The form with these coefficients (zeros dropped) and constant."""
        return cls(Fraction(constant), tuple(sorted((v, Fraction(c)) for v, c in coefficients.items() if c)))

    @property
    def variables(self) -> tuple[str, ...]:
        return tuple(v for v, _ in self.terms)

    @property
    def is_constant(self) -> bool:
        return not self.terms

    def coeff(self, variable: str) -> Fraction:
        """The coefficient of ``variable`` (0 if it does not appear)."""
        return dict(self.terms).get(variable, Fraction(0))

    def __add__(self, other: Linear | Fraction | int) -> Linear:
        if not isinstance(other, Linear):
            return Linear(self.constant + other, self.terms)
        merged = dict(self.terms)
        for v, c in other.terms:
            merged[v] = merged.get(v, Fraction(0)) + c
        return Linear.of(merged, self.constant + other.constant)

    def substitute(self, values: Mapping[str, Fraction]) -> Linear:
        """The form with the given variables replaced by exact values."""
        const = self.constant + sum((c * Fraction(values[v]) for v, c in self.terms if v in values), Fraction(0))
        return Linear(const, tuple((v, c) for v, c in self.terms if v not in values))

    def at(self, values: Mapping[str, Fraction]) -> Fraction:
        """The exact value with every variable given; a missing one is a ``KeyError``."""
        missing = [v for v in self.variables if v not in values]
        if missing:
            raise KeyError(", ".join(missing))
        return self.substitute(values).constant

    def __str__(self) -> str:
        parts = [(c, f"{abs(c.numerator)}/{c.denominator}*{v}") for v, c in self.terms]
        if self.constant or not parts:
            parts.append((self.constant, f"{abs(self.constant.numerator)}/{self.constant.denominator}"))
        out = ("-" if parts[0][0] < 0 else "") + parts[0][1]
        for c, text in parts[1:]:
            out += (" - " if c < 0 else " + ") + text
        return out

    def readable(self, digits: int = 6) -> str:
        """The form for a person: each coefficient and the constant as a decimal of ``digits``
        significant digits (from the exact value, :func:`~exactodds.exact.significant`), a
        coefficient of one left out; the exact text (:meth:`__str__`) is for JSON and CSV.

        >>> Linear.of({"rate_major": Fraction(1), "M_a": Fraction(48824, 329445675)}, Fraction(-1, 3)).readable()
        '0.000148200*M_a + rate_major - 0.333333'
        """
        from exactodds.exact import significant

        parts = [(c, v if abs(c) == 1 else f"{significant(abs(c), digits)}*{v}") for v, c in self.terms]
        if self.constant or not parts:
            parts.append((self.constant, significant(abs(self.constant), digits)))
        out = ("-" if parts[0][0] < 0 else "") + parts[0][1]
        for c, text in parts[1:]:
            out += (" - " if c < 0 else " + ") + text
        return out

    @classmethod
    def parse(cls, text: str) -> Linear:
        """Read :meth:`__str__`'s text back; anything else -- including the same form written
        otherwise (terms out of order, fractions not in lowest terms, other spacing) -- is an
        :class:`InputError`, so one form has exactly one text.

        >>> Linear.parse("28/329445675*M_mega - 15265199/30748263").coeff("M_mega")
        Fraction(28, 329445675)
        """
        if not isinstance(text, str) or len(text) > MAX_LINEAR_TEXT:
            raise InputError("not a linear form with p/q coefficients (or too long)")
        pos, coefficients, constant, first = 0, {}, Fraction(0), True
        while pos < len(text):
            m = _TERM.match(text, pos)
            if not m or m.end() == pos or (m.group(1) is None and not first) or int(m.group(3)) == 0:
                raise InputError(f"not a linear form with p/q coefficients: {text[:60]!r}")
            value = Fraction(int(m.group(2)), int(m.group(3))) * (-1 if m.group(1) == "-" else 1)
            if m.group(4) is None:
                constant += value
            elif m.group(4) in coefficients:
                raise InputError(f"variable {m.group(4)!r} appears twice in a linear form")
            else:
                coefficients[m.group(4)] = value
            pos, first = m.end(), False
        if first:
            raise InputError("an empty linear form")
        form = cls.of(coefficients, constant)
        if str(form) != text:
            raise InputError(f"not a linear form in canonical order and lowest terms: {text[:60]!r}")
        return form


@dataclass(frozen=True)
class ProgressiveFigures:
    """Exact progressive figures of one analysis (per unit wagered)."""

    expression: Linear
    """The return as a linear form in the meter amounts (variables :func:`meter_variable`)."""
    meters: tuple[Meter, ...]
    stake: Fraction
    hit_probability: Mapping[str, Fraction]
    return_at_reset: Fraction | None
    break_even: Mapping[str, Fraction | None]
    long_run: Fraction | Linear
    """A Fraction, or a linear form in the unregulated increment rates (:func:`rate_variable`)."""

    def at(self, amounts: Mapping[str, Fraction]) -> Fraction:
        """The exact return with every meter at the given amount."""
        return self.expression.at({meter_variable(m.name): amounts[m.name] for m in self.meters})


def _sum(xs: Iterable[Linear]) -> Linear:
    out = Linear(Fraction(0))
    for x in xs:
        out = out + x
    return out


def progressive_figures(a: PricedWager) -> ProgressiveFigures:
    """Expression, return at reset, break-even meters and long-run return of ``a``."""
    table = a.paytable
    stake = table.stake or Fraction(1)
    hit: dict[str, Fraction] = {m.name: Fraction(0) for m in table.meters}
    constant = Fraction(0)
    for row in a.rows:
        if row.pay.meter is not None:
            hit[row.pay.meter] += row.probability * row.pay.share
            constant -= row.probability
        else:
            constant += row.contribution
    expr = Linear.of({meter_variable(n): p / stake for n, p in hit.items()}, constant)
    resets = {m.name: m.reset for m in table.meters}
    at_reset = None
    if all(r is not None for r in resets.values()):
        at_reset = expr.at({meter_variable(n): r for n, r in resets.items() if r is not None})
    break_even: dict[str, Fraction | None] = {}
    for m in table.meters:
        coeff = hit[m.name] / stake
        if coeff == 0 or any(o.reset is None for o in table.meters if o.name != m.name):
            break_even[m.name] = None
            continue
        others = {meter_variable(o.name): o.reset or Fraction(0) for o in table.meters if o.name != m.name}
        const = expr.substitute({**others, meter_variable(m.name): Fraction(0)}).constant
        break_even[m.name] = -const / coeff
    base = expr.at({meter_variable(m.name): Fraction(0) if (m.reset_funded_by_reserve or m.reset is None)
                    else m.reset for m in table.meters})
    rates = _sum(Linear(m.increment + m.reserve) if m.increment is not None
                 else Linear.of({rate_variable(m.name): Fraction(1)}, m.reserve) for m in table.meters)
    long_run = rates + base
    lr: Fraction | Linear = long_run.constant if long_run.is_constant else long_run
    return ProgressiveFigures(expr, table.meters, stake, hit, at_reset, break_even, lr)


def _opt(x: Fraction | None) -> str | None:
    return None if x is None else ratio(x)


LONG_RUN_FORMULA = ("long-run return = return with each house-funded meter at its reset and each "
                    "reserve-funded (or unregulated) reset at 0, + sum of increment rates + reserve rates "
                    "(every contribution is eventually paid out; renewal-reward over jackpot cycles)")


def progressive_json(a: PricedWager) -> dict[str, Any]:
    """Additive keys of the JSON contract for a progressive analysis."""
    f = progressive_figures(a)
    out: dict[str, Any] = {
        "return_expression": str(f.expression),
        "return_at_reset": _opt(f.return_at_reset),
        "stake": ratio(f.stake),
        "meters": [{"name": m.name, "reset": _opt(m.reset), "increment": _opt(m.increment),
                    "reserve": ratio(m.reserve), "reset_funded_by_reserve": m.reset_funded_by_reserve,
                    "hit_probability": ratio(f.hit_probability[m.name]), "cite": m.cite}
                   for m in f.meters],
        "priced_at": {k: ratio(v) for k, v in (a.meter_amounts or {}).items()},
        "break_even": {k: _opt(v) for k, v in f.break_even.items()},
        "long_run_return": ratio(f.long_run) if isinstance(f.long_run, Fraction) else str(f.long_run),
        "long_run_formula": LONG_RUN_FORMULA,
    }
    if not a.meters_given:
        # issue 3 / docs/WAGERS.md "Progressives": without --meter the return *is* the expression
        # in the meter amounts; the exact figure at the regulated reset sits beside it.
        out["return"] = str(f.expression)
    return out


# -- must-hit-by mystery meters -----------------------------------------------------------

@dataclass(frozen=True)
class MysteryConfig:
    """A must-hit-by mystery meter: reseed (minimum), must-hit-by (maximum), contribution rate."""

    id: str
    minimum: Fraction
    maximum: Fraction
    rate: Fraction
    stake: Fraction
    cite: str


def _f(x: str) -> Fraction:
    return Fraction(x)


MYSTERY_CONFIGS: tuple[MysteryConfig, ...] = tuple(
    MysteryConfig(f"mhb-{cfg}-${stake}", _f(lo), _f(hi), _f(rate), _f(stake), "58 Pa. Code § 631b.6(c)(4)")
    for cfg, stake, lo, hi, rate in (
        ("A", "1", "100", "200", "2/100"), ("A", "2", "100", "200", "15/1000"), ("A", "5", "100", "250", "1/100"),
        ("B", "1", "100", "500", "5/100"), ("B", "2", "100", "500", "35/1000"), ("B", "5", "100", "500", "2/100"),
        ("C", "1", "250", "500", "2/100"), ("C", "2", "250", "500", "15/1000"), ("C", "5", "250", "500", "5/1000"),
        ("D", "1", "250", "1000", "5/100"), ("D", "2", "250", "1000", "3/100"), ("D", "5", "250", "1000", "2/100"),
    )
) + tuple(
    MysteryConfig(f"royal-9-{cfg}-${stake}", _f(lo), _f(hi), _f(rate), _f(stake), "58 Pa. Code § 629c.3(h)")
    for cfg, lo, hi, rate in (("1", "250", "1000", "5/100"), ("2", "100", "500", "5/100"), ("3", "100", "200", "2/100"))
    for stake in ("5", "1")
)
"""§ 631b.6(c)(4) configurations A-D at their minimum wagers ($1/$2/$5), and § 629c.3(h)
configurations 1-3 on the $5 and $1 Royal 9 wagers (the regulation names no amount)."""


def expected_wagers_per_hit(c: MysteryConfig) -> Fraction:
    """E[K], K the qualifying wagers from a reset to the hit, inclusive.

    Each wager adds ``rate·stake``; after ``k`` wagers the meter is ``min + k·rate·stake``
    and it pays at the first ``k`` with that amount in excess of the drawn value X, X
    uniform on [min, max]. With ``Y = (X − min)/(rate·stake)`` uniform on [0, T],
    ``K = ⌊Y⌋ + 1``, so ``E[K] = 1 + (⌊T⌋(⌊T⌋−1)/2 + ⌊T⌋(T−⌊T⌋))/T``.
    """
    t = (c.maximum - c.minimum) / (c.rate * c.stake)
    n = floor(t)
    return 1 + (Fraction(n * (n - 1), 2) + n * (t - n)) / t


def mystery_long_run(c: MysteryConfig) -> Fraction:
    """Long-run mystery pay per unit wagered: ``rate + min/(stake·E[K])``.

    Renewal-reward: a cycle takes K wagers of ``stake`` and pays ``min + K·rate·stake``;
    the house funds the reset to the minimum (§ 631b.6(c)(5)(iv): the meter is reset, no
    reserve is named), so per unit wagered the meter returns
    ``E[min + K·rate·stake]/E[K·stake] = rate + min/(stake·E[K])``.
    """
    return c.rate + c.minimum / (c.stake * expected_wagers_per_hit(c))


MAX_MYSTERY_STEPS = 10**12
"""Most contributions a must-hit-by range may span ((max − min)/(rate·stake)); beyond it a
configuration is taken for a typing error (the figures themselves are closed forms)."""


def mystery_config(minimum: Fraction, maximum: Fraction, rate: Fraction, stake: Fraction = Fraction(1),
                   id: str = "custom") -> MysteryConfig:
    """A designer's must-hit-by configuration (§ 631b.6(c)(3)-(4)): reseed (minimum) and
    must-hit-by (maximum) dollar values, the incremental contribution rate of each qualifying
    wager, and that wager's amount. Impossible values are input errors.

    >>> mystery_long_run(mystery_config(Fraction(100), Fraction(200), Fraction(2, 100)))
    Fraction(15001, 250050)
    """
    if minimum < 0:
        raise InputError(f"the mystery minimum (reseed) cannot be negative, got {ratio(minimum)}")
    if maximum <= minimum:
        raise InputError("the must-hit-by maximum must exceed the minimum (reseed) amount")
    if not 0 < rate < 1:
        raise InputError("the increment rate must be between 0% and 100% of each wager")
    if stake <= 0:
        raise InputError("the qualifying wager amount must be positive")
    if (maximum - minimum) / (rate * stake) > MAX_MYSTERY_STEPS:
        raise InputError(f"the meter would take more than {MAX_MYSTERY_STEPS:,} wagers to reach the maximum; "
                         "check --rate and --stake")
    return MysteryConfig(id, minimum, maximum, rate, stake, "58 Pa. Code § 631b.6(c) (designer's configuration)")


def mystery_rows(configs: Iterable[MysteryConfig] | None = None) -> list[dict[str, Any]]:
    """One exact row per configuration (default: the regulated ones)."""
    return [{"config": c.id, "cite": c.cite, "stake": ratio(c.stake), "minimum": ratio(c.minimum),
             "maximum": ratio(c.maximum), "rate": ratio(c.rate),
             "expected_wagers_per_hit": ratio(expected_wagers_per_hit(c)),
             "long_run_return": ratio(mystery_long_run(c))}
            for c in (MYSTERY_CONFIGS if configs is None else configs)]


MYSTERY_READING = ("The drawn must-hit value is uniform (continuous) on [minimum, maximum]; every qualifying "
                   "wager is at the configuration's minimum wager amount; the house funds each reset to the "
                   "minimum. Long-run return per unit wagered = rate + minimum/(stake*E[K]).")


