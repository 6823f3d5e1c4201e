"""Second methods: every level's round results recounted without the pricing engine.

A certificate confirms each figure by two independent computations at full size. The
first is the engine (:mod:`exactodds.engine`: deal shapes over point-value or projection
classes, grouped by multiset and priced by falling factorials of class counts). The
second, here, counts the same universe -- ordered sequences of ``U = min(N, depth)`` cards
off the top of the shoe the level deals from (6 for baccarat, § 629a.10; 4 for Spanish
21, § 551.8(d)) -- another way. Each :class:`~exactodds.engine.level.Level` holds its
method as an object (``Level.second_method``: :meth:`SecondMethod.describe`,
:meth:`SecondMethod.recount`):

:data:`~exactodds.recount.rank_walk.POINTS`, :data:`~exactodds.recount.rank_walk.FACES_READ`
    the **rank × suit cell walk** (:mod:`exactodds.recount.rank_walk`) for the levels
    settled on every dealt card.
:class:`~exactodds.recount.faces.TwoFaces`, :class:`~exactodds.recount.faces.FourFaces`,
:class:`~exactodds.recount.faces.UpCardMatch`
    **direct face enumeration** (:mod:`exactodds.recount.faces`) of one hand's initial two
    cards, of the four initial cards, of Spanish 21's player cards and up card.
Short shoes (fewer cards than the round)
    The **brute-force deal** of every ordering of the shoe's physical cards (at most
    5! = 120), card by card by the level's table layout; a round the shoe cannot finish is
    void (§ 629a.13(e)).

Results are the *level's own* result objects: each distinct group of cells (a key) is read
once, on a representative round of its cells, by the level's ``from_deal`` -- the reading
of one dealt round that the brute-force oracle and the simulator use -- so both methods
settle identical objects with the wager's own ``settle``. No distribution or count of
:mod:`exactodds.engine` is used, and this package does not import it: the engine imports
it (each level holds its method), never the other way round (``tests/test_levels.py``
checks the import graph).

Exact arithmetic. Every intermediate number is a count of ordered card sequences: a
product of falling factorials over disjoint sets of cards, then of the positions they
take, then of the undealt cards, or a sum of disjoint such counts -- hence at most the
universe ``ff(N, U)`` (products are taken in that order so that this holds at each step).
numpy ``int64`` is used when the universe is below 2^63 (8 decks: 4,998,398,275,503,360 <
9.2·10^18; up to 27 decks), Python integers in object arrays above it. Nothing is ever a
float.
"""

from __future__ import annotations

from exactodds.recount.base import SHORT_SHOE, Reading, Recount, SecondMethod

__all__ = ["SHORT_SHOE", "Reading", "Recount", "SecondMethod"]
