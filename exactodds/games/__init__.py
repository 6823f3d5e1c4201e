"""The games of the regulations, each through the one seam (:mod:`exactodds.game.protocol`);
:data:`exactodds.games.registry.GAMES` lists them."""
