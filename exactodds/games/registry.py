"""The registry of games: one line per game (python-chess's ``VARIANTS`` style).

Everything above the seam -- the par sheet, the certificate's game entries, ``certify
--game``, ``simulate --game``, the views -- reads the games from here by their class data
and hooks (:class:`exactodds.game.protocol.Game`), never by name. Adding a game is one
package implementing :class:`~exactodds.game.protocol.Game` and one line here (docs/games.md).
"""

from __future__ import annotations

from typing import Final

from exactodds.errors import InputError
from exactodds.game.protocol import Game
from exactodds.games.baccarat import Baccarat
from exactodds.paigow.game import PaiGow
from exactodds.spanish21.game import Spanish21

GAMES: Final[tuple[type[Game], ...]] = (Baccarat, PaiGow, Spanish21)
"""Every game through the seam, in the order a certificate lists them."""


def get_game(name: str) -> Game:
    """The game called ``name`` (its id or an alias); anything else is an :class:`InputError`."""
    for g in GAMES:
        if name == g.id or name in g.aliases:
            return g()
    raise InputError(f"unknown game {name!r}; choose one of {', '.join(g.id for g in GAMES)}")


__all__ = ["GAMES", "get_game"]
