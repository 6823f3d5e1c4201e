"""The view of a shuffle check (``exactodds shufflecheck``): JSON, text and tidy CSV.

The tests are the cross-check's test records (:class:`~exactodds.simulation.statistics.FamilyTest`,
``wager`` ``"shuffle"``, the test named in ``paytable``), so the JSON of each test is the
cross-check's (:func:`~exactodds.report.simulation._family_json`) and the CSV is the same
tidy table (:func:`~exactodds.report.simulation.tidy_rows`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from exactodds.report.simulation import _family_json, _short, p_text, tidy_rows, verdict_lines
from exactodds.report.views import Block, Table, View, render_view
from exactodds.version import __version__

if TYPE_CHECKING:
    from exactodds.simulation.shufflecheck import ShuffleCheck

HEADERS: Final = ["Test", "Orders", "Statistic", "p", "Holm p", ""]
"""The table's columns (``Cards`` for ``Orders`` for a continuous shuffler's stream)."""


def shufflecheck_json(r: ShuffleCheck) -> dict[str, Any]:
    """The whole shuffle check as a JSON document (every cell's exact expectation as ``p/q``)."""
    adj = r.adjusted
    return {"file": r.source, "mode": r.mode, "shoe": r.shoe.to_json(), "orders": r.orders, "cards": r.cards,
            "orders_with_input": r.with_input, "alpha": r.alpha, "tests": r.tests, "correction": "holm",
            "per_test_threshold": r.alpha / max(1, r.tests), "verdict": r.verdict, "consistent": r.consistent,
            "failures": r.failures(), "families": [_family_json(f, adj) for f in r.families], "notes": r.notes,
            "version": __version__}


def _rows(r: ShuffleCheck) -> list[list[str]]:
    adj = r.adjusted
    out = []
    for f in r.families:
        chi = f.chi_square
        stat = (f"{chi.statistic:.2f}/{chi.df}" if chi.method == "chi-square" else
                f"z² {chi.statistic:.2f}" if chi.method == "z" else f"{chi.statistic:.0f} repeat(s)")
        flag = "FAIL" if r.failed(f) else "ok" if chi.conclusive else "too few"
        held = adj.get(chi.key)
        out.append([_short(f.paytable), f"{f.rounds:,}", stat, p_text(chi.p_value) if chi.conclusive else "-",
                    p_text(held) if held is not None else "-", flag])
    return out


def _blocks(r: ShuffleCheck) -> list[Block]:
    if r.mode == "orders":
        what = (f"{r.orders:,} whole shuffled orders of {r.shoe.describe()}; {r.with_input:,} tested against "
                "their input order")
    else:
        what = f"a continuous shuffler's {r.cards:,} delivered cards, {r.shoe.describe()}"
    out: list[Block] = [f"Shuffle check of {r.source} ({what}) against a uniform shuffle", "",
                        f"Statistics: {r.tests} tests, Holm's correction at alpha {r.alpha:g} (the first at "
                        f"{r.alpha / max(1, r.tests):.3g})",
                        Table(HEADERS if r.mode == "orders" else ["Test", "Cards", *HEADERS[2:]], _rows(r),
                              wrap=(40, 9, 14, 6, 8, 7), whole_words=True)]
    full = [f.paytable for f in r.families if _short(f.paytable) != f.paytable]
    if full:
        out.append("Tests named short above, in full: " + "; ".join(full) + ".")
    out += [""] + [f"Note: {n}" for n in r.notes]
    return out + verdict_lines(r.failures(), r.verdict, "a uniform shuffle", "too little output for any test",
                               f"no test fails at alpha {r.alpha:g} after Holm's correction")


def shufflecheck_view(r: ShuffleCheck) -> View:
    """The shuffle check: :func:`shufflecheck_json`, its text, and the JSON as one tidy CSV table."""
    doc: dict[str, Any] = {}

    def document() -> dict[str, Any]:
        if not doc:
            doc.update(shufflecheck_json(r))
        return doc

    return View(document, lambda: _blocks(r), lambda: tidy_rows(document()))


def render_shufflecheck(r: ShuffleCheck) -> str:
    """The shuffle check as text, the verdict last."""
    return render_view(shufflecheck_view(r), "table")
