"""Spanish 21's main wager (58 Pa. Code ch. 551) through the game seam (:mod:`exactodds.game.protocol`).

The outcome table of a strategy is the exact distribution of one round's net result per unit of
the original wager (:func:`exactodds.blackjack.distribution.distribution`: −4 … +4 by halves
and the § 551.6(g)/(h) bonus amounts, each on its own row), under the composition-dependent
strategy the engine solves (:mod:`exactodds.blackjack.engine`) or under the basic chart it derives
(:func:`exactodds.spanish21.figures.basic_chart`). The rules record is the blackjack
:class:`~exactodds.blackjack.rules.Rules` with each field made a :func:`~exactodds.game.protocol.rule`
(its section from :data:`~exactodds.blackjack.rules.CITES`, its name from
:data:`~exactodds.blackjack.rules.NAMES`), plus the shoe (``decks`` of 48 cards, § 551.3(a)) and
``wizard`` (start from the Wizard of Odds table's rules). The identities hold the distribution's
mean equal to the engine's expected return, and the whole distribution equal to the card-by-card
brute force (:mod:`exactodds.blackjack.bruteforce`) on small shoes under the certified rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Final

from exactodds.errors import InputError
from exactodds.exact import decimal, ratio
from exactodds.game.protocol import SIMULATION_TICK as TICK
from exactodds.game.protocol import SPANISH_48, Game, OutcomeTable, rule

if TYPE_CHECKING:
    from exactodds.blackjack.distribution import Distribution
    from exactodds.blackjack.engine import Game as Engine
    from exactodds.blackjack.engine import GameResult
    from exactodds.blackjack.rules import Rules
    from exactodds.io.progress import Progress

CITATION: Final = ("58 Pa. Code ch. 551: §§ 551.3(a) (48-card decks), 551.6 (payouts and bonuses), 551.8(e) (peek), "
                   "551.9 (surrender), 551.11 (double down, rescue), 551.12 (splits), 551.13 (dealer)")
STRATEGIES: Final = ("composition-dependent", "basic-chart")


def _s(name: str) -> str:
    from exactodds.blackjack.rules import section_of

    return "58 Pa. Code " + section_of(name)


@dataclass(frozen=True)
class Spanish21Rules:
    """The rules a Spanish 21 table is certified under: the shoe, and every rule of
    :class:`~exactodds.blackjack.rules.Rules` (defaults: § 551 as written). ``wizard`` starts from
    the Wizard of Odds table's rules; a field then changes them only where it differs from § 551
    as written (so ``--wizard`` cannot set a rule back to its as-written value)."""

    decks: int = rule(8, name="decks of 48 cards (the four tens removed)", section="58 Pa. Code § 551.3(a)",
                      flag="--decks")
    wizard: bool = rule(False, name="start from the Wizard of Odds table's rules (WIZARD_RULES)",
                        section="58 Pa. Code § 551 (a Rules Submission's variations)", flag="--wizard")
    hit_soft_17: bool = rule(False, name="Dealer draws to a soft 17", section="58 Pa. Code § 551.13(b)",
                             flag="--h17")
    double_any_cards: bool = rule(False, name="Double Down on any number of cards", section="58 Pa. Code § 551.11(a)",
                                  flag="--double-any")
    redoubles: int = rule(0, name="Redoubles after a Double Down", section="58 Pa. Code § 551.11(a)",
                          flag="--redouble")
    max_hands: int = rule(3, name="Hands from splitting pairs (1: no splitting)", section="58 Pa. Code § 551.12(c)",
                          flag="--max-hands")
    resplit_aces: bool = rule(True, name="Aces resplit", section="58 Pa. Code § 551.12(a),(c)",
                              flag="--resplit-aces")
    hit_split_aces: bool = rule(True, name="Split aces may draw and double",
                                section="58 Pa. Code § 551.12(c), § 551.13(a)", flag="--hit-split-aces")
    double_after_split: bool = rule(True, name="Double Down after a split", section="58 Pa. Code § 551.11(a)",
                                    flag="--double-after-split")
    surrender: bool = rule(True, name="Surrender (late)", section="58 Pa. Code § 551.9", flag="--surrender")
    rescue: bool = rule(True, name="Double Down rescue", section="58 Pa. Code § 551.11(d)", flag="--rescue")
    bonus_on_doubled: bool = rule(False, name="Bonus payouts on a doubled hand",
                                  section="58 Pa. Code § 551.6(g), § 551.11(b)", flag="--bonus-on-doubled")
    bonus_21_cards: bool = rule(True, name="Five-, six- and seven-card 21 bonuses",
                                section="58 Pa. Code § 551.6(g)(5)-(7)", flag="--bonus-21-cards")
    bonus_678_777: bool = rule(True, name="6-7-8 and 7-7-7 bonuses", section="58 Pa. Code § 551.6(g)(1)-(4)",
                               flag="--bonus-678-777")
    blackjack_beats_dealer_blackjack: bool = rule(
        True, name="Player Blackjack beats a dealer Blackjack", section="58 Pa. Code § 551.6(b)(3)",
        flag="--bj-beats-dealer-bj")
    split_21_beats_dealer_21: bool = rule(False, name="Two-card 21 of a split hand beats a dealer 21",
                                          section="58 Pa. Code § 551.6(b)(4)", flag="--split-21-wins")
    super_bonus_bet: str = rule("", name="Super bonus wager, dollars (empty: fixed payouts left out)",
                                section="58 Pa. Code § 551.6(h)", flag="--super-bonus-bet")
    other_players: int = rule(0, name="Other players at the table (envy bonus)", section="58 Pa. Code § 551.6(h)",
                              flag="--players")
    player_21_wins: bool = rule(True, name="Player 21 of three or more cards beats a dealer 21",
                                section="58 Pa. Code § 551.6(b)(4)", flag="--player-21-wins")
    blackjack_pays: str = rule("3:2", name="Blackjack pays", section="58 Pa. Code § 551.2(c)(1), § 551.6(b)(3)",
                               flag="--blackjack-pays")
    double_totals: str = rule("any", name="First-two-card Double Down on the totals",
                              section="58 Pa. Code § 551.11(a)", flag="--double-totals")
    double_soft: bool = rule(True, name="Double Down on soft hands", section="58 Pa. Code § 551.11(a)",
                             flag="--double-soft")
    post_split: str = rule("cdp1", name="Post-split strategy (cdz, cdp1; cdp with two hands)",
                           section="58 Pa. Code § 551.12(b),(c)", flag="--post-split")
    resplit_optional: bool = rule(True, name="Resplitting as the player's choice (best number of hands)",
                                  section="58 Pa. Code § 551.12(c)", flag="--resplit-by-choice")
    rescue_after_redouble: str = rule("all", name="What a rescue takes back after redoubles (all, last, none)",
                                      section="58 Pa. Code § 551.11(d)", flag="--rescue-after-redouble")

    def __post_init__(self) -> None:
        if not 1 <= self.decks <= 1000:
            raise InputError(f"--decks must be 1 to 1000 decks of 48 cards, got {self.decks}")
        self.engine_rules()  # a value out of range: one InputError now, before any work
        if self.post_split == "cdp" and self.max_hands > 2:
            raise InputError("post-split strategy cdp is a strategy only with two hands (it reads how many pair cards "
                             "the whole round removes): the exact distribution needs cdz or cdp1, or --max-hands 2")

    def engine_rules(self) -> Rules:
        """The blackjack engine's :class:`~exactodds.blackjack.rules.Rules` of this record."""
        from exactodds.blackjack.rules import AS_WRITTEN, WIZARD_RULES

        base = WIZARD_RULES if self.wizard else AS_WRITTEN
        changes: dict[str, object] = {}
        for f in fields(self):
            if f.name in ("decks", "wizard"):
                continue
            value = getattr(self, f.name)
            if value != f.default:
                changes[f.name] = value
        if "super_bonus_bet" in changes:
            text = str(changes["super_bonus_bet"])
            try:
                changes["super_bonus_bet"] = Fraction(text)
            except (ValueError, ZeroDivisionError):
                raise InputError(f"--super-bonus-bet takes dollars, e.g. 5 or 25, got {text[:40]!r}") from None
        return base.with_(**changes)

    def shoe_values(self) -> Any:
        from exactodds.blackjack.shoe import SpanishShoe

        return SpanishShoe.standard(self.decks)


SOLVED_KEPT: Final = 2
"""Rules records whose solves are kept (a certificate reads one record several times)."""
_SOLVED: dict[Spanish21Rules, dict[str, tuple[Engine, Distribution]]] = {}
_ENGINES: dict[Spanish21Rules, dict[str, tuple[Engine, GameResult]]] = {}


def clear_solved() -> None:
    """Forget the kept solves (tests that count the work)."""
    _SOLVED.clear()
    _ENGINES.clear()


def _kept(store: dict[Spanish21Rules, Any], rules: Spanish21Rules, got: Any) -> None:
    while len(store) >= SOLVED_KEPT:
        del store[next(iter(store))]
    store[rules] = got


def engines(rules: Spanish21Rules, progress: Progress | None = None, share: tuple[int, int] = (0, 2)
            ) -> dict[str, tuple[Engine, GameResult]]:
    """Each strategy's engine and its solve (composition-dependent, then the basic chart derived from it),
    kept by value: the exact return of each, with or without the distribution (a simulation needs
    only this; :func:`solved` adds the distributions). ``progress`` is told of each initial deal;
    ``share`` = (passes before, passes in all) places these two passes within a longer bar."""
    got = _ENGINES.get(rules)
    if got is None:
        from exactodds.blackjack.engine import Game as Engine
        from exactodds.spanish21.figures import basic_chart

        shoe, engine_rules = rules.shoe_values(), rules.engine_rules()
        cd = Engine(shoe, engine_rules)
        result = cd.solve(_phase(progress, share[0], share[1], "solve"))
        basic = Engine(shoe, engine_rules, basic_chart(cd, result))
        chart = basic.solve(_phase(progress, share[0] + 1, share[1], "basic chart"))
        got = {STRATEGIES[0]: (cd, result), STRATEGIES[1]: (basic, chart)}
        _kept(_ENGINES, rules, got)
    return got


def _phase(progress: Progress | None, k: int, passes: int, name: str) -> Progress | None:
    """``progress`` for pass ``k`` of ``passes``, its own count scaled into the whole."""
    if progress is None:
        return None
    report = progress
    return lambda done, total, label: report(k * total + done, passes * total, f"{name}: {label}")


def solved(rules: Spanish21Rules, progress: Progress | None = None) -> dict[str, tuple[Engine, Distribution]]:
    """Each strategy's solved engine and exact distribution (one solve per rules record, kept by
    value: the certificate, its identities and the simulator all read these); ``progress`` is
    told of each initial deal of the four passes (two solves, two distributions). A distribution
    out of reach at this size raises :class:`~exactodds.errors.OutOfReach` before any solve."""
    got = _SOLVED.get(rules)
    if got is None:
        from exactodds.blackjack.distribution import distribution
        from exactodds.blackjack.splitjoint import check_feasible

        shoe, engine_rules = rules.shoe_values(), rules.engine_rules()
        check_feasible(shoe.size, engine_rules.max_hands)  # before the solves: a joint out of reach, in one line
        solves = engines(rules, progress, (0, 4))
        got = {s: (solves[s][0], distribution(solves[s][0], s, _phase(progress, 2 + i, 4, f"{s} distribution")))
               for i, s in enumerate(STRATEGIES)}
        _kept(_SOLVED, rules, got)
    return got


def _shown(x: Fraction) -> str:
    """A net as a person reads it: ``+1.5``, ``-0.5``, ``0`` (``p/q`` where the decimal does not end)."""
    den = x.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den != 1:
        return ("+" if x > 0 else "") + ratio(x)
    text = decimal(x, 12).rstrip("0").rstrip(".") if "." in decimal(x, 12) else decimal(x, 12)
    return ("+" if x > 0 else "") + text


def table_of(dist: Distribution, rules: Spanish21Rules) -> OutcomeTable:
    """The outcome table of a distribution: one row per net result."""
    rows = []
    for net, p in dist.probabilities.items():
        text = ("push" if net == 0 else f"wins {_shown(net)[1:]} units" if net > 0 else f"loses {_shown(-net)} units")
        rows.append((f"net {_shown(net)}", net, text, p))
    return OutcomeTable.from_probabilities(
        rows, dist.strategy,
        f"one round of the main wager from {SPANISH_48.describe(rules.decks)}: the exact probability of each net "
        "result per unit of the original wager (doubles, splits, surrender, rescue and bonuses on their nets)")


def _strategy(strategy: str) -> str:
    if strategy not in STRATEGIES:
        raise InputError(f"unknown Spanish 21 strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    return strategy


CHECK_RULES: Final = ("certified rules without splitting", "certified rules with two hands")


class Spanish21(Game):
    """Spanish 21's main wager against the dealer (§ 551), by the exact distribution of a round."""

    id: ClassVar[str] = "spanish21"
    title: ClassVar[str] = "Spanish 21 main wager"
    citation: ClassVar[str] = CITATION
    deck = SPANISH_48
    rules_type: ClassVar[type] = Spanish21Rules
    strategies: ClassVar[tuple[str, ...]] = STRATEGIES
    aliases: ClassVar[tuple[str, ...]] = ("spanish-21",)
    cli: ClassVar[str] = "exactodds.cli.spanish21"

    def prepare(self, rules: Any, progress: Progress | None = None) -> None:
        """The solves and distributions of both strategies, with progress (over 2 s at full size)."""
        solved(rules, progress)

    def outcome_table(self, rules: Any, strategy: str) -> OutcomeTable:
        return table_of(solved(rules)[_strategy(strategy)][1], rules)

    def second_method(self, rules: Any, strategy: str) -> tuple[str, OutcomeTable] | None:
        """None: the card-by-card brute force (:mod:`exactodds.blackjack.bruteforce`) runs on
        shoes of a dozen cards, never on whole 48-card decks; it is run instead on small shoes
        under the certified rules (:meth:`identities`), where the whole distribution must be equal."""
        return None

    def readings(self, rules: Any) -> tuple[str, ...]:
        from exactodds.blackjack.rules import CITES

        return (
            "Peek (§ 551.8(e)): the dealer's hole card is drawn, by exchangeability, after the player's cards, the "
            "Blackjack hole cards left out; a dealer Blackjack settles the round first.",
            CITES["blackjack_pays"], CITES["blackjack_beats_dealer_blackjack"], CITES["split_21_beats_dealer_21"],
            CITES["post_split"], CITES["resplit_optional"], CITES["rescue_after_redouble"],
            "The composition-dependent strategy: every decision the best for the cards seen (the hand's cards and "
            "the up card), ties to the first listed (stand, hit, double, surrender, split).",
            "The basic chart: each total-dependent class's actions ranked by the probability-weighted exact "
            "composition-dependent values of its hands (exactodds/spanish21/figures.py).",
            "The outcome table is the exact distribution of one round's net result per unit of the original wager, "
            "split hands enumerated jointly (they share the shoe and the dealer); the other players' envy payouts "
            "(§ 551.6(h)) are not part of the player's own round and are left out.",
        )

    def identities(self, rules: Any, tables: dict[str, OutcomeTable]) -> tuple[tuple[str, bool], ...]:
        from exactodds.blackjack.bruteforce import brute_force_distribution
        from exactodds.blackjack.distribution import distribution
        from exactodds.blackjack.engine import Game as Engine
        from exactodds.blackjack.engine import dealer_outcomes, no_blackjack
        from exactodds.spanish21.figures import CHECK_SHOES, SPLIT_SHOE

        done = solved(rules)
        engine_rules = rules.engine_rules()
        out: list[tuple[str, bool]] = []
        for s in STRATEGIES:
            engine, dist = done[s]
            out.append((f"{s}: the distribution's mean equals the engine's expected return (the player's own hands)",
                        tables[s].return_ == dist.mean == engine.solve().own_hands))
        out.append(("the basic chart returns at most the composition-dependent strategy",
                    tables[STRATEGIES[1]].return_ <= tables[STRATEGIES[0]].return_))
        small_rules = [engine_rules.with_(max_hands=1, other_players=0)]
        if engine_rules.max_hands >= 2:
            small_rules.append(engine_rules.with_(max_hands=2, other_players=0,
                                                  post_split="cdp1" if engine_rules.post_split == "cdp"
                                                  else engine_rules.post_split))
        shoes = [*CHECK_SHOES, ("pairs of aces, 8s and tens", SPLIT_SHOE)]
        for (name, shoe), r in [(shoes[0], small_rules[0]), (shoes[1], small_rules[0]),
                                *((shoes[2], x) for x in small_rules[1:])]:
            got = distribution(Engine(shoe, r)).probabilities
            out.append((f"the whole distribution equals the card-by-card brute force, {shoe.size}-card shoe ({name}), "
                        f"certified rules with {r.max_hands} hand{'s' if r.max_hands > 1 else ''}",
                        got == brute_force_distribution(shoe, r)))
        shoe = rules.shoe_values()
        ok = True
        for up in range(1, 11):
            if shoe.values[up - 1]:
                rem = shoe.values[:up - 1] + (shoe.values[up - 1] - 1,) + shoe.values[up:]
                ok = ok and sum(dealer_outcomes(rem, up, engine_rules.hit_soft_17)) == no_blackjack(rem, up)
        out.append(("dealer outcome weights add up to P(no dealer Blackjack) for every up card (§ 551.8(e), "
                    "§ 551.13(b))", ok))
        return tuple(out)

    def effects_of_removal(self, rules: Any, progress: Any = None) -> dict[str, Any]:
        """:func:`exactodds.spanish21.eor.effects_of_removal` for the rules' shoe (one solve per rank and suit)."""
        from exactodds.spanish21.eor import effects_of_removal

        return {"game": self.id, "title": self.title, "deck": self.deck.to_json(rules.decks),
                **effects_of_removal(rules.shoe_values(), rules.engine_rules(), progress)}

    def exact_return(self, rules: Any, strategy: str) -> Fraction:
        """The engine's exact return of the player's own hands (§ 551.6(h)'s envy payouts left out,
        as in the outcome table): available where the distribution is out of reach (resplits from
        a full shoe), so a simulation can still be set beside the exact figure."""
        return engines(rules)[_strategy(strategy)][1].own_hands

    def simulate(self, rules: Any, strategy: str, rounds: int, seed: int,
                 progress: Progress | None = None) -> Sequence[Fraction]:
        """``rounds`` rounds dealt by :func:`exactodds.spanish21.simulate.simulate_rounds` (its own
        settlement of § 551.6) with the strategy's decisions: each round's net result per unit;
        ``progress`` told of the solves (the first time) and of the rounds."""
        from exactodds.spanish21.simulate import simulate_rounds

        engine_rules = rules.engine_rules()
        if engine_rules.other_players and engine_rules.super_bonus():
            raise InputError("the simulation deals one player: leave out the other players' envy bonus (§ 551.6(h))")
        # the solves the first time (two thirds of the bar), then the rounds
        engine = engines(rules, progress if rules not in _ENGINES else None, (0, 3))[_strategy(strategy)][0]
        out = []
        for k, net in enumerate(simulate_rounds(engine.shoe, engine_rules, rounds, seed, engine)):
            if progress is not None and k % TICK == 0:
                progress(2 * rounds + k, 3 * rounds, f"{strategy}: round {k:,}")
            out.append(net)
        if progress is not None:
            progress(3 * rounds, 3 * rounds, f"{strategy}: done")
        return out


__all__ = ["STRATEGIES", "Spanish21", "Spanish21Rules", "solved", "table_of"]
