"""Commission (vigorish) rounded by wager amount.

The house may round the Banker commission up: "the certificate holder may round off
the vigorish to 25¢ or the next highest multiple of 25¢" (58 Pa. Code § 629a.12(c),
5%); to 25¢ for a 5% and 20¢ for a 4% vigorish at Baccarat (§ 545.13(d)); to 5¢ at
Minibaccarat (§ 541.13(d)). For a wager of amount ``A`` at rate ``c`` and rounding
increment ``q`` the commission on a win is

    commission = ⌈c·A / q⌉ · q        (exact when q is None),

so a win nets ``A − commission`` and, per unit of that wager, ``1 − commission/A``.
Everything else about the wager is unchanged; :func:`commission_analysis` prices the
wager with that net for the winning-Banker row(s) and reports the exact return per
unit of the wager amount.

>>> rounded_commission(Fraction(15, 2), Fraction(1, 20), Fraction(1, 4))
Fraction(1, 2)
>>> rounded_commission(Fraction(10), Fraction(1, 20), Fraction(1, 4))
Fraction(1, 2)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from exactodds.catalogue import get_wager
from exactodds.catalogue.model import Pay, Paytable, Wager
from exactodds.errors import InputError
from exactodds.exact import decimal, percent, ratio
from exactodds.figures.analysis import Analysis, analyze
from exactodds.game.cards import Shoe
from exactodds.inputs import parse_number, shown

RULES: Final = {
    "midibaccarat": ("58 Pa. Code § 629a.12(c)", {Fraction(5, 100): Fraction(1, 4)}),
    "baccarat": ("58 Pa. Code § 545.13(d)", {Fraction(5, 100): Fraction(1, 4), Fraction(4, 100): Fraction(1, 5)}),
    "minibaccarat": ("58 Pa. Code § 541.13(d)", {Fraction(5, 100): Fraction(1, 20), Fraction(4, 100): Fraction(1, 20)}),
}
"""Rounding increments (dollars) by table rule and commission rate."""

DEFAULT_AMOUNTS: Final = tuple(Fraction(5, 2) * k for k in range(1, 21))
"""Wager amounts of the default edge table: $2.50 to $50.00 by $2.50."""


MAX_AMOUNTS: Final = 1000
"""Most wager amounts an edge table prices."""


def parse_money(text: str | Fraction | int, what: str) -> Fraction:
    """A positive dollar amount such as ``7.50`` or ``$25``, exactly."""
    if isinstance(text, (Fraction, int)) and not isinstance(text, bool):
        value = Fraction(text)
    else:
        value = parse_number(str(text), what, money=True)  # the one reader: a comma is refused there
        t = str(text).strip().removeprefix("$")
        if len(t) > 20 or not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{0,6})?|\.[0-9]{1,6}", t):
            raise InputError(f"{what} must be an amount of dollars such as 7.50 (at most 9 digits before "
                             f"the point and 6 after), got {shown(text)}")
    if value <= 0:
        raise InputError(f"{what} must be more than 0, got {shown(text)}")
    return value


def parse_amounts(text: str) -> list[Fraction]:
    """Amounts for the edge table: ``"5,7.5,10"`` or a range ``"5:100:5"`` (from:to:step)."""
    t = text.strip()
    m = re.fullmatch(r"([^:]+):([^:]+):([^:]+)", t)
    if m:
        lo, hi, step = (parse_money(x, "--amounts") for x in m.groups())
        if hi < lo or (hi - lo) / step > MAX_AMOUNTS:
            raise InputError(f"--amounts range must run upward with at most {MAX_AMOUNTS} steps")
        out, a = [], lo
        while a <= hi:
            out.append(a)
            a += step
        return out
    items = [x for x in re.split(r"[\s,;]+", t, maxsplit=MAX_AMOUNTS + 1) if x]
    if not items:
        raise InputError("--amounts is empty")
    if len(items) > MAX_AMOUNTS:
        raise InputError(f"--amounts lists more than {MAX_AMOUNTS} amounts")
    return [parse_money(x, "--amounts") for x in items]


def rounded_commission(amount: Fraction, rate: Fraction, increment: Fraction | None) -> Fraction:
    """``rate·amount`` rounded up to a multiple of ``increment`` (unrounded if None)."""
    exact = rate * amount
    if increment is None:
        return exact
    steps = -((-exact) // increment)  # ceiling, exactly
    return steps * increment


def commission_rate(table: Paytable) -> Fraction:
    """The commission rate a paytable charges on a win (pays written "less X% commission")."""
    rates = {1 - p.net for p in table.pays.values() if "commission" in p.text and p.net < 1 and p.meter is None}
    if not rates:
        raise InputError(f"paytable {table.id!r} charges no commission on a win")
    if len(rates) > 1:
        raise InputError(f"paytable {table.id!r} charges more than one commission rate")
    return rates.pop()


def default_increment(rate: Fraction, rule: str = "baccarat") -> Fraction:
    """The rounding increment a table rule allows for ``rate``."""
    if rule not in RULES:
        raise InputError(f"unknown commission rule {rule!r} (known: {', '.join(RULES)})")
    cite, table = RULES[rule]
    if rate not in table:
        raise InputError(f"{cite} sets no rounding for a {percent(rate, 2)} commission; give --commission-rounding")
    return table[rate]


def parse_increment(text: str | None, rate: Fraction, rule: str = "baccarat") -> Fraction | None:
    """``--commission-rounding``: an amount such as ``0.25``, ``none`` (exact), or the rule's default."""
    if text is None:
        return default_increment(rate, rule)
    if text.strip().lower() in ("none", "0", "exact"):
        return None
    return parse_money(text, "--commission-rounding")


@dataclass(frozen=True)
class CommissionAnalysis:
    """A commission wager priced at one wager amount with the commission rounded up."""

    analysis: Analysis
    amount: Fraction
    rate: Fraction
    increment: Fraction | None
    commission: Fraction

    @property
    def net_per_unit(self) -> Fraction:
        """A win's net per unit of the wager: ``1 − commission/amount``."""
        return 1 - self.commission / self.amount


def _rounded_table(table: Paytable, rate: Fraction, amount: Fraction, commission: Fraction,
                   increment: Fraction | None) -> Paytable:
    net = 1 - commission / amount
    text = (f"1 to 1 less ${decimal(commission, 2)} commission on ${decimal(amount, 2)} "
            f"({percent(rate, 2)}{'' if increment is None else ', rounded up to a multiple of $' + decimal(increment, 2)})")
    pays = {k: (Pay(net, text) if "commission" in p.text and p.meter is None and 1 - p.net == rate else p)
            for k, p in table.pays.items()}
    return dataclasses.replace(table, id=f"{table.id}@{decimal(amount, 2)}", pays=pays)


def commission_analysis(wager: str | Wager[Any] = "banker", paytable: str | None = None, shoe: Shoe | None = None,
                        amount: Fraction | str = Fraction(15, 2), increment: Fraction | None | str = "rule",
                        rule: str = "baccarat") -> CommissionAnalysis:
    """The wager priced at ``amount`` with the commission rounded up to ``increment``.

    ``increment="rule"`` takes the table rule's increment (:data:`RULES`).
    """
    w = get_wager(wager) if isinstance(wager, str) else wager
    table = w.paytable(paytable)
    rate = commission_rate(table)
    amt = parse_money(amount, "--wager-amount")
    inc = default_increment(rate, rule) if increment == "rule" else (
        None if increment is None else parse_money(increment, "--commission-rounding"))
    commission = rounded_commission(amt, rate, inc)
    new_table = _rounded_table(table, rate, amt, commission, inc)
    derived = dataclasses.replace(w, paytables=(new_table,))
    return CommissionAnalysis(analyze(derived, new_table.id, shoe), amt, rate, inc, commission)


def edge_table(wager: str | Wager[Any] = "banker", paytable: str | None = None, shoe: Shoe | None = None,
               amounts: Sequence[Fraction] = DEFAULT_AMOUNTS, increment: Fraction | None | str = "rule",
               rule: str = "baccarat") -> list[CommissionAnalysis]:
    """One :class:`CommissionAnalysis` per wager amount."""
    return [commission_analysis(wager, paytable, shoe, a, increment, rule) for a in amounts]


def commission_json(rows: Sequence[CommissionAnalysis]) -> dict[str, Any]:
    """The edge table, exact values as "p/q"."""
    first = rows[0].analysis
    return {
        "wager": first.wager.id,
        "paytable": rows[0].analysis.paytable.id.split("@")[0],
        "shoe": first.shoe.to_json(),
        "rate": ratio(rows[0].rate),
        "rounding_increment": None if rows[0].increment is None else ratio(rows[0].increment),
        "cite": "58 Pa. Code § 629a.12(c), § 541.13(d), § 545.13(d)",
        "rows": [{"amount": ratio(r.amount), "commission": ratio(r.commission), "win_net_per_unit": ratio(r.net_per_unit),
                  "return": ratio(r.analysis.return_), "house_edge": ratio(r.analysis.house_edge),
                  "element_of_risk": None if r.analysis.element_of_risk is None else ratio(r.analysis.element_of_risk)}
                 for r in rows],
    }


