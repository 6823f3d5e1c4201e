"""The rules of Spanish 21 as data (58 Pa. Code ch. 551, 2010 temporary rules).

:class:`Rules` is frozen; its defaults are § 551 *as written*. Every field a certificate
holder's Rules Submission may vary (or that published tables vary) is an option, each
with the section it reads. :data:`WIZARD_RULES` are the rules of the Wizard of Odds
Spanish 21 house-edge table, used to check the engine against published figures.

>>> Rules().max_hands, Rules().hit_soft_17, Rules().surrender
(3, False, True)
>>> WIZARD_RULES.max_hands, WIZARD_RULES.double_any_cards
(4, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from typing import Any, Final

from exactodds.errors import InputError

CITES: Final[dict[str, str]] = {
    "decks": "§ 551.3(a): six or eight decks of 48 cards (the four tens removed)",
    "hit_soft_17": "§ 551.13(b): the dealer draws until a hard or soft 17 (stands on every 17)",
    "double_any_cards": "§ 551.11(a): double on the first two cards of a hand or of a split pair only",
    "redoubles": "§ 551.11(a): one and only one additional card to a doubled hand (no redouble)",
    "max_hands": "§ 551.12(c): one more pair may be split, for a total of three hands",
    "resplit_aces": "§ 551.12(a),(c): any pair identical in value, aces included, may be (re)split",
    "hit_split_aces": "§ 551.12(c), § 551.13(a): a split hand may stand, draw or double, aces included",
    "double_after_split": "§ 551.11(a): double on the first two cards of any split pair",
    "surrender": "§ 551.9: late surrender of half the wager (whole wager lost to a dealer Blackjack)",
    "rescue": "§ 551.11(d): after the double card, take back the Double Down Wager, forfeit the original",
    "bonus_on_doubled": "§ 551.6(g), § 551.11(b): a doubled hand is paid 1 to 1 only",
    "bonus_21_cards": "§ 551.6(g)(5)-(7): 21 in 5 cards 3 to 2, 6 cards 2 to 1, 7 or more 3 to 1",
    "bonus_678_777": "§ 551.6(g)(1)-(4): 6-7-8 / 7-7-7 mixed 3 to 2, suited 2 to 1, spades 3 to 1",
    "blackjack_beats_dealer_blackjack": "§ 551.6(b)(3): a player Blackjack wins against a dealer 21 in two "
    "or more cards (a dealer Blackjack included)",
    "split_21_beats_dealer_21": "§ 551.6(b)(4): only a player 21 in more than two cards beats a dealer 21; "
    "a two-card 21 of a split hand pushes (§ 551.6(c))",
    "super_bonus_bet": "§ 551.6(h): suited 7-7-7 against a dealer 7: $1,000 (wager $5-$24.99) or $5,000 "
    "($25 or more), not on doubled or split hands; None leaves the fixed payouts out",
    "other_players": "§ 551.6(h): each other player's super bonus pays this player $50 ('envy')",
    "player_21_wins": "§ 551.6(b)(4): a player 21 of three or more cards wins against a dealer 21 "
    "(standard blackjack: it pushes)",
    "blackjack_pays": "§ 551.2(c)(1), § 551.6(b)(3): the layout and the win against a dealer 21 pay a "
    "Blackjack 3 to 2; read as 3 to 2 always (§ 551.6(f)'s 1 to 1 when the dealer has 21 is not applied: "
    "the peek of § 551.8(e) settles a dealer Blackjack first)",
    "double_totals": "§ 551.11(a): a Double Down on the first two cards, whatever their total",
    "double_soft": "§ 551.11(a): a soft first two cards may be doubled",
    "post_split": "§ 551.12(b),(c): each split hand is played by the post-split strategy stated here "
    "(cdz: the pre-split decision for the hand's cards; cdp1: optimal for the first split hand, reused; "
    "cdp: optimal by the number of pair cards removed, Farmer's definition); a split hand that may draw a "
    "6-7-8 / 7-7-7 decides reading its own and the up card's suits, the cdp1/cdp reference shoe less the "
    "lowest-suit pair card left (§ 551.6(g)(1)-(4))",
    "resplit_optional": "§ 551.12(c): one more pair 'may' be split: the player's choice, taken as the best "
    "number of hands to split to (resplitting only when it is better); off: always resplit",
    "rescue_after_redouble": "§ 551.11(d): after redoubles, the rescue takes back 'the Double Down Wager': "
    "all (every double taken back, the original forfeited), last (only the last double taken back) or "
    "none (no rescue after a redouble)",
}
"""The regulation text each rule field reads (shown in every report)."""

CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "blackjack_pays": ("3:2", "6:5", "1:1"),
    "double_totals": ("any", "9-11", "10-11"),
    "post_split": ("cdz", "cdp1", "cdp"),
    "rescue_after_redouble": ("all", "last", "none"),
}
"""The values of each rule field that is one of a few words."""

NAMES: Final[dict[str, str]] = {
    "hit_soft_17": "Dealer draws to a soft 17",
    "double_any_cards": "Double Down on any number of cards",
    "redoubles": "Redoubles after a Double Down",
    "max_hands": "Hands from splitting pairs (1: no splitting)",
    "resplit_aces": "Aces resplit",
    "hit_split_aces": "Split aces may draw and double",
    "double_after_split": "Double Down after a split",
    "surrender": "Surrender (late)",
    "rescue": "Double Down rescue",
    "bonus_on_doubled": "Bonus payouts on a doubled hand",
    "bonus_21_cards": "Five-, six- and seven-card 21 bonuses",
    "bonus_678_777": "6-7-8 and 7-7-7 bonuses",
    "blackjack_beats_dealer_blackjack": "Player Blackjack beats a dealer Blackjack",
    "split_21_beats_dealer_21": "Two-card 21 of a split hand beats a dealer 21",
    "super_bonus_bet": "Super bonus wager, dollars (none: fixed payouts left out)",
    "other_players": "Other players at the table (envy bonus)",
    "player_21_wins": "Player 21 of three or more cards beats a dealer 21",
    "blackjack_pays": "Blackjack pays",
    "double_totals": "First-two-card Double Down on the totals",
    "double_soft": "Double Down on soft hands",
    "post_split": "Post-split strategy (cdz, cdp1, cdp)",
    "resplit_optional": "Resplitting as the player's choice (best number of hands)",
    "rescue_after_redouble": "What a rescue takes back after redoubles (all, last, none)",
}
"""Each rule field as the regulation names what it varies (shown beside its section)."""


@dataclass(frozen=True)
class Rules:
    """One rule set of the main Spanish 21 wager; defaults are § 551 as written."""

    hit_soft_17: bool = False
    double_any_cards: bool = False
    redoubles: int = 0
    max_hands: int = 3
    resplit_aces: bool = True
    hit_split_aces: bool = True
    double_after_split: bool = True
    surrender: bool = True
    rescue: bool = True
    bonus_on_doubled: bool = False
    bonus_21_cards: bool = True
    bonus_678_777: bool = True
    blackjack_beats_dealer_blackjack: bool = True
    split_21_beats_dealer_21: bool = False
    super_bonus_bet: Fraction | None = None
    other_players: int = 0
    player_21_wins: bool = True
    blackjack_pays: str = "3:2"
    double_totals: str = "any"
    double_soft: bool = True
    post_split: str = "cdp1"
    resplit_optional: bool = True
    rescue_after_redouble: str = "all"

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise InputError(f"{name.replace('_', '-')} must be one of {', '.join(allowed)}, "
                                 f"got {str(getattr(self, name))[:40]!r}")
        if not 1 <= self.max_hands <= 4:
            raise InputError(f"max hands must be 1 (no splitting) to 4, got {self.max_hands}")
        if not 0 <= self.redoubles <= 3:
            raise InputError(f"redoubles must be 0 to 3, got {self.redoubles}")
        if not 0 <= self.other_players <= 6:
            raise InputError(f"other players must be 0 to 6 (seven boxes, § 551.2(b)(2)), got {self.other_players}")
        if self.super_bonus_bet is not None and not 0 < self.super_bonus_bet <= 10**9:
            raise InputError(f"the super bonus wager must be positive dollars, got {self.super_bonus_bet}")

    def __hash__(self) -> int:
        """The dataclass's hash (of the fields' tuple), kept for the last few rule sets hashed: the
        engine keys its shared caches by the rules (each hand solver's, a thousand a standard solve,
        2 µs each uncached). Kept beside the object (:data:`_HASHES`, by ``id`` with the object held,
        so an ``id`` is not reused while kept), not in it: ``vars(rules)`` lists the rules alone."""
        got = _HASHES.get(id(self))
        if got is not None and got[0] is self:
            return got[1]
        value = hash(tuple(getattr(self, name) for name in _FIELDS))
        if len(_HASHES) >= 16:
            _HASHES.pop(next(iter(_HASHES)))
        _HASHES[id(self)] = (self, value)
        return value

    def super_bonus(self) -> Fraction:
        """§ 551.6(h)'s fixed payout per unit wagered (0 when off or the wager is under $5)."""
        bet = self.super_bonus_bet
        if bet is None or bet < 5:
            return Fraction(0)
        return Fraction(1000 if bet < 25 else 5000) / Fraction(bet)

    def envy(self) -> Fraction:
        """§ 551.6(h)'s $50 per unit wagered, paid for each other player's super bonus."""
        bet = self.super_bonus_bet
        return Fraction(0) if bet is None else Fraction(50) / Fraction(bet)

    def blackjack_payout(self) -> Fraction:
        """What a player Blackjack wins per unit (``blackjack_pays``)."""
        a, b = self.blackjack_pays.split(":")
        return Fraction(int(a), int(b))

    def double_total_allowed(self, total: int, soft: bool) -> bool:
        """Whether a first-two-card hand of ``total`` (``soft``) may be doubled (``double_totals``,
        ``double_soft``)."""
        if soft and not self.double_soft:
            return False
        if self.double_totals == "any":
            return True
        low = 9 if self.double_totals == "9-11" else 10
        return not soft and low <= total <= 11

    def rescue_loss(self, doublings: int) -> int | None:
        """Units lost by a rescue after ``doublings`` doubles (§ 551.11(d)), or None when the rescue
        is not offered there (``rescue_after_redouble``)."""
        if not self.rescue:
            return None
        if doublings <= 1 or self.rescue_after_redouble == "all":
            return 1
        if self.rescue_after_redouble == "last":
            return 1 << (doublings - 1)
        return None

    def changed(self) -> dict[str, object]:
        """The fields that differ from § 551 as written."""
        base = Rules()
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(base, f.name)}

    def with_(self, **kw: object) -> Rules:
        """A copy with ``kw`` changed."""
        return replace(self, **kw)  # type: ignore[arg-type]


_FIELDS: Final = tuple(f.name for f in fields(Rules))
_HASHES: dict[int, tuple[Rules, int]] = {}
""":meth:`Rules.__hash__` of the last rule sets hashed, by ``id``."""


def _json_value(value: object) -> object:
    return f"{value.numerator}/{value.denominator}" if isinstance(value, Fraction) else value


def section_of(rule: str) -> str:
    """The section a rule field reads (the citation up to its colon).

    >>> section_of("hit_soft_17")
    '§ 551.13(b)'
    """
    return CITES[rule].split(":", 1)[0]


def rules_record(rules: Rules) -> dict[str, Any]:
    """``rules`` as a certificate records them (JSON-ready): every rule with its name, the
    section cited, its value and its value as written (``super_bonus_bet`` dollars as ``"p/q"``),
    and the rules that differ from § 551 as written. :func:`rules_from_record` reads it back.

    >>> r = rules_record(Rules(hit_soft_17=True))
    >>> r["changed_from_text"], r["rules"][0]["section"], r["rules"][0]["value"]
    (['hit_soft_17'], '§ 551.13(b)', True)
    """
    base = Rules()
    return {"rules": [{"rule": f.name, "name": NAMES[f.name], "section": section_of(f.name),
                       "value": _json_value(getattr(rules, f.name)), "as_written": _json_value(getattr(base, f.name)),
                       "changed": getattr(rules, f.name) != getattr(base, f.name)} for f in fields(Rules)],
            "changed_from_text": list(rules.changed())}


def rules_from_record(record: object) -> Rules:
    """The :class:`Rules` of a :func:`rules_record` (a certificate's ``inputs/spanish21``).

    Anything else -- a rule this program does not know or lacks, a value of the wrong type or
    range, a name, section or as-written value that is not this program's -- is one
    :class:`InputError` naming the first problem.

    >>> rules_from_record(rules_record(Rules(redoubles=2))) == Rules(redoubles=2)
    True
    """
    known = [f.name for f in fields(Rules)]
    items = record.get("rules") if isinstance(record, dict) and set(record) == {"rules", "changed_from_text"} \
        else None
    if not isinstance(items, list) or not all(isinstance(x, dict) and isinstance(x.get("rule"), str) for x in items):
        raise InputError("the Spanish 21 rules must be {rules: [{rule, name, section, value, as_written, changed}, "
                         "...], changed_from_text: [...]}")
    names = [x["rule"] for x in items]
    if names == known[:len(names)] and set(known[len(names):]) <= set(ADDED_LATER):
        # a record written before these rules existed: they were as written then
        base = Rules()
        for name in known[len(names):]:
            value = _json_value(getattr(base, name))
            items = [*items, {"rule": name, "name": NAMES[name], "section": section_of(name), "value": value,
                              "as_written": value, "changed": False}]
        record = {**record, "rules": items}  # type: ignore[dict-item]
        names = known
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InputError(f"unknown Spanish 21 rule {unknown[0][:60]!r} (the rules are {', '.join(known)})")
    if names != known:
        missing = [n for n in known if n not in names]
        raise InputError(f"the Spanish 21 rules must list each of {', '.join(known)} once, in that order"
                         + (f" ({missing[0]} is missing)" if missing else ""))
    values: dict[str, Any] = {}
    for f, x in zip(fields(Rules), items):
        v = x.get("value")
        if f.name == "super_bonus_bet":
            if v is not None and not (isinstance(v, str) and re.fullmatch(r"[0-9]{1,60}/[1-9][0-9]{0,59}", v)):
                raise InputError(f"Spanish 21 rule super_bonus_bet must be null or dollars as \"p/q\", got {v!r:.60}")
            values[f.name] = None if v is None else Fraction(v)
        elif f.type in ("bool", bool) and not isinstance(v, bool):
            raise InputError(f"Spanish 21 rule {f.name} must be true or false, got {v!r:.60}")
        elif f.type in ("int", int) and (not isinstance(v, int) or isinstance(v, bool)):
            raise InputError(f"Spanish 21 rule {f.name} must be a whole number, got {v!r:.60}")
        else:
            values.setdefault(f.name, v)
    rules = Rules(**values)
    if rules_record(rules) != record:
        raise InputError("the Spanish 21 rules' names, sections, as-written values or changes are not those of "
                         "§ 551 as this program reads it (edited?)")
    return rules


ADDED_LATER: Final = ("player_21_wins", "blackjack_pays", "double_totals", "double_soft", "post_split",
                      "resplit_optional", "rescue_after_redouble")
"""Rules added with the blackjack engine (issue 27): a record without them reads them as written."""

AS_WRITTEN: Final = Rules()
"""§ 551 as written."""

WIZARD_RULES: Final = Rules(double_any_cards=True, max_hands=4, resplit_aces=True, hit_split_aces=True,
                            split_21_beats_dealer_21=True)
"""The Wizard of Odds Spanish 21 table's rules (dealer stands on soft 17): double on any number of
cards, resplit to four hands including aces, hit and double split aces, late surrender, rescue,
player Blackjack and player 21 always win, bonuses not on doubled hands, no redouble, super bonus
left out."""

STANDARD_RULES: Final = Rules(hit_soft_17=False, double_any_cards=False, redoubles=0, max_hands=4, resplit_aces=False,
                              hit_split_aces=False, double_after_split=True, surrender=False, rescue=False,
                              bonus_21_cards=False, bonus_678_777=False, blackjack_beats_dealer_blackjack=False,
                              split_21_beats_dealer_21=False, player_21_wins=False, blackjack_pays="3:2")
"""Standard blackjack: the dealer peeks and stands on soft 17, 21 pushes 21 (a player Blackjack
pushes a dealer Blackjack), no bonuses, no surrender or rescue, double any first two cards and
after a split, split to four hands, split aces one card each and not resplit, Blackjack 3 to 2.
These are the conventions of E. Farmer's calculator, the peer the engine is checked against."""

PRESETS: Final[dict[str, Rules]] = {"standard": STANDARD_RULES, "spanish21": AS_WRITTEN, "wizard": WIZARD_RULES}
"""The rule sets ``exactodds blackjack --preset`` starts from (every option then changes one rule)."""

PRESET_TENS: Final[dict[str, bool]] = {"standard": True, "spanish21": False, "wizard": False}
"""Whether a preset's decks keep their four 10s (52 cards) or not (48, § 551.3(a))."""
