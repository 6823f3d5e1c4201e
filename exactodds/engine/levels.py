"""Every level, in one explicit table, with everything true of it: the one module that
names them.

A wager names the :class:`~exactodds.engine.level.Level` it is settled at (the object,
not a string); :data:`LEVELS` lists them all, by name, for lookups from files and the
command line. Each entry declares, as data, what the level means outside the engine: how
suits enter its results (used by effects of removal), its facts and note (what a wager
file's ``when`` may test, :mod:`exactodds.catalogue.facts` reads them), the second method
``certify`` confirms its counts with (an object of :mod:`exactodds.recount`), its table
layout, the slots of a dealt round it reads and the simulator's group key
(:mod:`exactodds.simulation.settle`). No other module spells a level's name
(``tests/test_levels.py`` checks the source).

=================  ============================================  ==============  ==========
level              what a result holds                           walk            suits
=================  ============================================  ==============  ==========
coup               final point counts and cards per hand         third card      blind
deal-faces         coup + one suit / colour / rank of all cards  third card      symmetric
pair-coup          coup + a pair on each hand's first two cards  third card      blind
opening-*-faces    faces of one hand's initial two cards         opening         read
opening-rank-...   which of the four initial cards share a rank  opening         blind
opening-nines      the nines (with suits) of the four            opening         read
royal-9-opening    Royal 9 facts of each hand's first two cards  opening         read
spanish21-match    player's two cards v. the dealer's up card    opening (4)     symmetric
=================  ============================================  ==============  ==========

>>> from exactodds.game.cards import Shoe
>>> d = coup_distribution(Shoe.standard(8))
>>> d.universe
4998398275503360
>>> sum(d.counts.values()) + d.void == d.universe
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final, TypeVar

from exactodds.engine import facts as fact_tables
from exactodds.engine.deal_faces import deal_faces_level
from exactodds.engine.facts import Fact
from exactodds.engine.level import GroupKey, Level, ResultDistribution
from exactodds.engine.opening import (
    equality_pattern,
    face,
    nine,
    opening_level,
    rank,
    royal9_feature,
    royal_class,
)
from exactodds.engine.spanish21 import match_level
from exactodds.game.cards import Card, Shoe
from exactodds.game.rules import Coup, point_count
from exactodds.game.walk import (
    RANK_CLASSES,
    VALUE_CLASSES,
    Classing,
    coup_result,
    third_card_walk,
)
from exactodds.recount import SecondMethod, faces, rank_walk

L = TypeVar("L", bound=Level)

OPENING_SLOTS: Final = (0, 1, 3, 4)
"""The slots of the four initial cards: the Player's first two, the Banker's first two."""


def declared(level: L, *, notes: str, facts: tuple[Fact, ...], second_method: SecondMethod | None,
             slots: tuple[int, ...] | None, group_key: GroupKey | None = None) -> L:
    """``level`` with what it means outside the engine declared: its note and facts, its
    second method, the slots it reads (``None``: all of its layout's) and the simulator's
    group key."""
    return dataclasses.replace(level, notes=notes, facts=facts, second_method=second_method, slots=slots,
                               group_key=group_key)


def coup_from_deal(player: Sequence[Card], banker: Sequence[Card]) -> Coup:
    """The :class:`~exactodds.game.rules.Coup` of a finished round from its cards."""
    return Coup(point_count([c.value for c in player]), point_count([c.value for c in banker]),
                len(player), len(banker))


def coup_level(classing: Classing, name: str, standard: bool = False) -> Level:
    """The coup level over ``classing`` (value classes for pricing; rank classes for the
    independent recount the tests use); ``standard``: its standard shoes' counts ship."""
    result = coup_result(classing.values)
    return Level(name, "final point counts and number of cards of each hand", classing.face_class,
                 lambda: third_card_walk(classing.values, result), result, coup_from_deal,
                 suits="blind", suits_reason="its results depend on point values only", standard=standard)


PairCoup = tuple[bool, bool, Coup]
"""(Player's first two cards a pair, Banker's first two a pair, the round's Coup)."""


def _pair_coup(player: tuple[int, ...], banker: tuple[int, ...]) -> PairCoup:
    coup = _RANK_COUP(player, banker)
    assert isinstance(coup, Coup)
    return player[0] == player[1], banker[0] == banker[1], coup


_RANK_COUP: Final = coup_result(RANK_CLASSES.values)


def _pair_coup_from_deal(player: Sequence[Card], banker: Sequence[Card]) -> PairCoup:
    return player[0].rank == player[1].rank, banker[0].rank == banker[1].rank, coup_from_deal(player, banker)


COUP: Final = declared(
    coup_level(VALUE_CLASSES, "coup", standard=True),
    notes="Wagers settled on point counts: the final totals and cards of each hand.",
    facts=fact_tables.coup_facts(fact_tables.is_coup), second_method=rank_walk.POINTS, slots=None, group_key="points")
"""Final point counts and cards per hand: every wager settled on point counts."""

DEAL_FACES: Final = declared(
    deal_faces_level("deal-faces", COUP),
    notes="The coup facts plus suit, colour and rank facts of every card dealt to the two hands "
          "(4, 5 or 6 cards).",
    facts=fact_tables.deal_faces_facts(), second_method=rank_walk.FACES_READ, slots=None, group_key="points-faces")
"""Coup plus suit, colour and rank facts of all dealt cards (Heavenly 9, Harmony)."""

PAIR_COUP: Final = declared(
    Level("pair-coup", "the Coup with a pair (same rank) on each hand's first two cards",
          RANK_CLASSES.face_class, lambda: third_card_walk(RANK_CLASSES.values, _pair_coup), _pair_coup,
          _pair_coup_from_deal, suits="blind", suits_reason="pairs are of ranks, totals of values"),
    notes="The coup facts plus a pair on each hand's first two cards.",
    facts=fact_tables.pair_coup_facts(), second_method=None, slots=None)
"""The joint law the House Money ride needs (§ 629a.8(c)(3)); the tests check it against the
brute-force oracle (no catalogue wager is settled on it, hence no second method)."""

PLAYER_FACES: Final = declared(
    opening_level("opening-player-faces", "faces of the Player's initial two cards", face, ("player",)),
    notes="The faces of the Player's first two cards (cards 1 and 3), whatever happens after.",
    facts=fact_tables.two_faces_facts("player"), second_method=faces.PLAYER_TWO, slots=(0, 1))
"""Faces of the Player's initial two cards: Perfect Pairs, Player Pair, Majestic Match."""

BANKER_FACES: Final = declared(
    opening_level("opening-banker-faces", "faces of the Banker's initial two cards", face, ("banker",)),
    notes="The faces of the Banker's first two cards (cards 2 and 4), whatever happens after.",
    facts=fact_tables.two_faces_facts("banker"), second_method=faces.BANKER_TWO, slots=(3, 4))
"""Faces of the Banker's initial two cards."""

RANK_PATTERN: Final = declared(
    opening_level("opening-rank-pattern", "which of the four initial cards share a rank", rank,
                  ("player", "banker"), equality_pattern, suits="blind", suits_reason="it reads ranks only"),
    notes="Which of the four initial cards share a rank.",
    facts=fact_tables.rank_pattern_facts(), second_method=faces.RANK_PATTERN, slots=OPENING_SLOTS)
"""Which of the four initial cards share a rank (House Money)."""

NINES: Final = declared(
    opening_level("opening-nines", "the nines, with suits, among the four initial cards", nine,
                  ("player", "banker")),
    notes="The nines, with their suits, among the four initial cards.",
    facts=fact_tables.nines_facts(), second_method=faces.NINES, slots=OPENING_SLOTS)
"""The nines (with suits) among the four initial cards (Lucky Nines)."""

ROYAL_9_OPENING: Final = declared(
    opening_level("royal-9-opening", "Royal 9 facts (face card and nine, suits) of each hand's first two cards",
                  royal_class, ("player", "banker"), royal9_feature),
    notes="Royal 9 facts of each hand's first two cards.",
    facts=fact_tables.royal_facts(), second_method=faces.ROYAL_9, slots=OPENING_SLOTS)
"""Royal 9 (§ 629c.3(b),(e)): kings, nines, queens-or-jacks by suit, and any other card."""

MATCH_THE_DEALER: Final = declared(
    match_level("spanish21-match"),
    notes="Spanish 21: the player's two cards against the dealer's up card (48-card decks, "
          "tens removed); not a baccarat round.",
    facts=fact_tables.match_facts(), second_method=faces.MATCH, slots=(0, 1, 3))
"""Spanish 21's Match-The-Dealer (§ 551.7): slots 0-1 the player's cards, 3 the up card."""

LEVELS: Final[dict[str, Level]] = {level.name: level for level in (
    COUP, DEAL_FACES, PAIR_COUP, PLAYER_FACES, BANKER_FACES, RANK_PATTERN, NINES, ROYAL_9_OPENING, MATCH_THE_DEALER)}
"""Every level by name (in documentation order)."""

SHIPPED: Final = tuple(level for level in LEVELS.values() if level is not DEAL_FACES)
"""Levels whose shape tables ship as arrays in ``engine/shapes/`` (deal-faces derives
its table from the coup level's)."""

STANDARD: Final = tuple(level for level in LEVELS.values() if level.standard)
"""Levels whose standard shoes' counts ship (:mod:`exactodds.engine.standard`): the coup
level, which settles the main wagers."""

_RANK_COUP_LEVEL: dict[str, Level] = {}


def coup_distribution(shoe: Shoe, classing: Classing = VALUE_CLASSES) -> ResultDistribution:
    """Coup counts for ``shoe`` at value classes (the priced level) or rank classes (the
    independent recount ``certify`` and the tests use)."""
    if classing is VALUE_CLASSES:
        return COUP.distribution(shoe)
    level = _RANK_COUP_LEVEL.get(classing.name)
    if level is None:
        level = _RANK_COUP_LEVEL[classing.name] = coup_level(classing, f"coup-by-{classing.name}")
    return level.distribution(shoe)
