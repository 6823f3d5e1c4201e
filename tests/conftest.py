"""Shared fixtures: small mixed shoes for the brute-force oracle."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from exactodds.game.cards import Shoe, parse_card

SLOW = os.environ.get("EXACTODDS_SLOW") is not None
"""``EXACTODDS_SLOW=1``: the checks kept out of the README's test command (under 10 minutes) run
too; CI runs them in its slow step (.ci/run)."""


def slow(why: str) -> pytest.MarkDecorator:
    """A test (or a parameter's mark) that runs only with ``EXACTODDS_SLOW=1``; ``why``: its CPU cost."""
    return pytest.mark.skipif(not SLOW, reason=f"{why}: set EXACTODDS_SLOW=1; CI runs it (.ci/run)")


def slow_param(value: object, why: str) -> object:
    """``value`` as a parameter that runs only with ``EXACTODDS_SLOW=1`` (``why``: its CPU cost), the
    other parameters of the same test still in the default run."""
    return pytest.param(value, marks=slow(why))


def shoe_of(text: str) -> Shoe:
    """A shoe holding the listed cards, e.g. ``shoe_of("AS 9H 9D KC")``."""
    return Shoe.from_cards(parse_card(t) for t in text.split())


SMALL_SHOES = {
    "twelve-mixed": shoe_of("AS 2H 3D 4C 5S 6H 7D 8C 9S 10H JD QC"),
    "thirteen-pairs": shoe_of("9S 9H 9D KS KH QD 8C 8C 7H 6S 3D 2C AS"),
    "eleven-face-heavy": shoe_of("KS KS QH JD 10C 9S 9S 4H 4D 5C 6S"),
    "ten-low": shoe_of("AS AH 2D 2C 3S 3H 4D 5C 6S 7H"),
    "five-cards": shoe_of("2S 3H 4D 10C 5S"),
    "four-cards": shoe_of("KS QH 9D 8C"),
    "three-cards": shoe_of("AS 2H 3D"),
}


def run_simulation_cli(*args: str) -> tuple[int, str, str]:
    """``exactodds simulate|crosscheck ARGS`` in-process, on an app holding only those
    commands and the one-line error handling: (exit code, stdout, stderr)."""
    import typer
    from typer.testing import CliRunner

    from exactodds.cli.app import _OneLineErrors
    from exactodds.cli.simulate import register

    app = typer.Typer(cls=_OneLineErrors, add_completion=False, pretty_exceptions_enable=False)
    register(app)
    res = CliRunner().invoke(app, list(args))
    return res.exit_code, res.stdout, res.stderr
