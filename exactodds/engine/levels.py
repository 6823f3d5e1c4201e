"""Every level, in one explicit table, with its traits.

A wager names the :class:`~exactodds.engine.level.Level` it is settled at (the object,
not a string); :data:`LEVELS` lists them all, by name, for lookups from files and the
command line. Each entry states how suits enter its results (used by effects of
removal) and the second method ``certify`` confirms its counts with.

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

from collections.abc import Sequence
from typing import Final

from exactodds.engine.deal_faces import deal_faces_level
from exactodds.engine.level import Level, ResultDistribution
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

RANK_METHOD: Final = (
    "rank × suit cell walk: every round dealt as a sequence of 13 ranks (§ 629a.10), each multiset "
    "of ranks priced face by face over the suits its cards occupy, summed over the suit cells")


def coup_from_deal(player: Sequence[Card], banker: Sequence[Card]) -> Coup:
    """The :class:`~exactodds.game.rules.Coup` of a finished round from its cards."""
    return Coup(point_count([c.value for c in player]), point_count([c.value for c in banker]),
                len(player), len(banker))


def coup_level(classing: Classing, name: str = "coup") -> Level:
    """The coup level over ``classing`` (value classes for pricing; rank classes for the
    second method)."""
    result = coup_result(classing.values)
    return Level(name, "final point counts and number of cards of each hand", classing.face_class,
                 lambda: third_card_walk(classing.values, result), result, coup_from_deal,
                 suits="blind", suits_reason="its results depend on point values only",
                 second_method=RANK_METHOD, standard=name == "coup")


PairCoup = tuple[bool, bool, Coup]
"""(Player's first two cards a pair, Banker's first two a pair, the round's Coup)."""


def _pair_coup(player: tuple[int, ...], banker: tuple[int, ...]) -> PairCoup:
    coup = _RANK_COUP(player, banker)
    assert isinstance(coup, Coup)
    return player[0] == player[1], banker[0] == banker[1], coup


_RANK_COUP: Final = coup_result(RANK_CLASSES.values)


def _pair_coup_from_deal(player: Sequence[Card], banker: Sequence[Card]) -> PairCoup:
    return player[0].rank == player[1].rank, banker[0].rank == banker[1].rank, coup_from_deal(player, banker)


COUP: Final = coup_level(VALUE_CLASSES)
"""Final point counts and cards per hand: every wager settled on point counts."""

DEAL_FACES: Final = deal_faces_level(
    COUP, "rank × suit cell walk: every round dealt as a sequence of 13 ranks (§ 629a.10), each "
    "multiset of ranks priced face by face over suit cells (one suit / both suits of one colour / "
    "both colours counted directly), one rank and one value read from the multiset")
"""Coup plus suit, colour and rank facts of all dealt cards (Heavenly 9, Harmony)."""

PAIR_COUP: Final = Level(
    "pair-coup", "the Coup with a pair (same rank) on each hand's first two cards",
    RANK_CLASSES.face_class, lambda: third_card_walk(RANK_CLASSES.values, _pair_coup), _pair_coup,
    _pair_coup_from_deal, suits="blind", suits_reason="pairs are of ranks, totals of values",
    second_method="")
"""The joint law the House Money ride needs (§ 629a.8(c)(3)); the tests check it against the
brute-force oracle (no catalogue wager is settled on it)."""

TWO_FACES: Final = ("direct enumeration of the faces of the {}'s two cards (52 × 52, counts depleted "
                    "face by face)")
FOUR_FACES: Final = ("direct {} over the faces of the four initial cards (52³ face triples by "
                     "broadcasting, the fourth card summed per {}), read {}")

PLAYER_FACES: Final = opening_level(
    "opening-player-faces", "faces of the Player's initial two cards", face, ("player",),
    second_method=TWO_FACES.format("Player"))
"""Faces of the Player's initial two cards: Perfect Pairs, Player Pair, Majestic Match."""

BANKER_FACES: Final = opening_level(
    "opening-banker-faces", "faces of the Banker's initial two cards", face, ("banker",),
    second_method=TWO_FACES.format("Banker"))
"""Faces of the Banker's initial two cards."""

RANK_PATTERN: Final = opening_level(
    "opening-rank-pattern", "which of the four initial cards share a rank", rank, ("player", "banker"),
    equality_pattern, suits="blind", suits_reason="it reads ranks only",
    second_method=FOUR_FACES.format("enumeration", "rank", "as a rank pattern"))
"""Which of the four initial cards share a rank (House Money)."""

NINES: Final = opening_level(
    "opening-nines", "the nines, with suits, among the four initial cards", nine, ("player", "banker"),
    second_method=FOUR_FACES.format("enumeration", "nine-suit", "for nines"))
"""The nines (with suits) among the four initial cards (Lucky Nines)."""

ROYAL_9_OPENING: Final = opening_level(
    "royal-9-opening", "Royal 9 facts (face card and nine, suits) of each hand's first two cards",
    royal_class, ("player", "banker"), royal9_feature,
    second_method=FOUR_FACES.format("count", "K/Q/J/9 face", "as Royal 9 hands"))
"""Royal 9 (§ 629c.3(b),(e)): kings, nines, queens-or-jacks by suit, and any other card."""

MATCH_THE_DEALER: Final = match_level(
    "face-level count of the player's two cards and the dealer's up card over the Spanish shoe's "
    "faces (52³ with tens removed, counts depleted face by face)")
"""Spanish 21's Match-The-Dealer (§ 551.7)."""

LEVELS: Final[dict[str, Level]] = {level.name: level for level in (
    COUP, DEAL_FACES, PAIR_COUP, PLAYER_FACES, BANKER_FACES, RANK_PATTERN, NINES, ROYAL_9_OPENING, MATCH_THE_DEALER)}
"""Every level by name."""

SHIPPED: Final = tuple(level for level in LEVELS.values() if level is not DEAL_FACES)
"""Levels whose shape tables ship as arrays in ``engine/shapes/`` (deal-faces derives
its table from the coup level's)."""

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
