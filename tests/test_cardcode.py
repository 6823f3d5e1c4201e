"""One card code (issue 29 item 2): ``exactodds.game.cardcode`` and the readers that parse into it.

* the code of a suited card is its index into ``FACES`` (built here from ``Card``, not from
  the module), ``ABSENT`` the one "no card", ``RANK_ONLY`` flags a card logged by rank;
* every spelling a hand log accepts (``T``/``10``, either case, suit letters or symbols)
  parses to the same code, and ``code_text`` reads back;
* a simulated hand log, written and read back, gives the simulator's own settler slots
  (``baccarat_slots`` of its faces) card for card: one code from the dealer to the settler;
* the cards of a log settle through the one ``RoundSettler``: the cross-check's counts of
  card-level wagers are the simulator's own counts of the same rounds, and the study reads
  each dealt round's result through the same grouping (against the level read round by round).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.game.cardcode import (
    ABSENT,
    CODE_RANK,
    CODE_SUIT,
    CODE_VALUE,
    NO_SUIT,
    RANK_ONLY,
    VALID,
    card_code,
    code_text,
    face_of,
    parse_code,
    rank_only,
)
from exactodds.game.cards import FACES, POINT_VALUE, RANKS, SUITS, Card, Shoe
from exactodds.simulation.audit import CardWagers
from exactodds.simulation.handlog import LogFile, read_file, render_log
from exactodds.simulation.settle import RoundSettler, baccarat_slots
from exactodds.simulation.simulate import simulate

EIGHT = Shoe.standard(8)
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def test_a_suited_card_is_its_face_index_and_absent_is_one_value() -> None:
    for i, card in enumerate(FACES):
        assert card_code(card.rank, card.suit) == i
        assert int(CODE_RANK[i]) == RANKS.index(card.rank) and SUITS[int(CODE_SUIT[i])] == card.suit
        assert int(CODE_VALUE[i]) == card.value == POINT_VALUE[card.rank]
    assert ABSENT == len(FACES) and ABSENT not in VALID and int(CODE_VALUE[ABSENT]) == 0
    assert len(VALID) == 52 + 13 and max(VALID) < 128


def test_a_rank_only_card_is_flagged_and_reads_as_its_ranks_spade() -> None:
    for rank in RANKS:
        code = card_code(rank, None)
        assert code & RANK_ONLY and int(CODE_SUIT[code]) == NO_SUIT
        assert int(CODE_RANK[code]) == RANKS.index(rank) and int(CODE_VALUE[code]) == POINT_VALUE[rank]
        assert FACES[int(face_of(np.array([code]))[0])] == Card(rank, "S")
        assert code_text(code) == rank
    codes = np.array([card_code("K", None), card_code("K", "S"), ABSENT])
    assert rank_only(codes).tolist() == [True, False, False]
    assert face_of(codes).tolist() == [card_code("K", "S"), card_code("K", "S"), ABSENT]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RANKS), st.sampled_from((*SUITS, None)), st.booleans(), st.booleans(), st.booleans())
def test_every_spelling_parses_to_one_code(rank: str, suit: str | None, ten_as_t: bool, lower: bool,
                                           symbol: bool) -> None:
    text = ("T" if ten_as_t and rank == "10" else rank) + ("" if suit is None else SYMBOL[suit] if symbol else suit)
    if lower:
        text = text.lower()
    code = parse_code(text)
    assert code == card_code(rank, suit)
    assert parse_code(code_text(code)) == code


def _slots_of_log(path: Path) -> np.ndarray:
    data = read_file(path)
    assert isinstance(data, LogFile)
    rows = [np.concatenate([ch.player, ch.banker], axis=1) for ch in data.chunks()]
    return np.concatenate(rows).astype(np.int64)


def test_a_simulated_log_reads_back_as_the_settlers_slots(tmp_path: Path) -> None:
    sim = simulate(3000, "shoe", EIGHT, seed=29, keep_hands=True)
    assert sim.log is not None
    path = tmp_path / "log.csv"
    path.write_text(render_log(sim.log, {"decks": 8}))
    read = _slots_of_log(path)
    assert read.shape == (3000, 6)
    assert (read == baccarat_slots(sim.log.faces, sim.log.codes)).all()


def test_a_log_without_suits_flags_every_card(tmp_path: Path) -> None:
    path = tmp_path / "ranks.csv"
    path.write_text("# decks=8\nround,player,banker\n1,K 9,T 3 4\n2,QH 5,2 7D\n")
    read = _slots_of_log(path)
    expect = [[card_code("K", None), card_code("9", None), ABSENT,
               card_code("10", None), card_code("3", None), card_code("4", None)],
              [card_code("Q", "H"), card_code("5", None), ABSENT, card_code("2", None), card_code("7", "D"), ABSENT]]
    assert read.tolist() == expect


def test_the_cards_of_a_log_settle_as_the_simulator_settled_them(tmp_path: Path) -> None:
    pairs = [("player-pair", "11to1"), ("perfect-pairs-player", "A"), ("dragon-7", "40to1")]
    sim = simulate(4000, "fresh", EIGHT, seed=31, keep_hands=True, settler=RoundSettler.of(pairs))
    assert sim.log is not None and sim.settled is not None
    path = tmp_path / "log.csv"
    path.write_text(render_log(sim.log, {"decks": 8}))
    data = read_file(path)
    assert isinstance(data, LogFile)
    cards = CardWagers(pairs)
    for ch in data.chunks():
        cards.feed(ch.player, ch.banker, np.ones(len(ch), dtype=bool), np.zeros(len(ch), dtype=bool))
    assert cards.families(False) == sim.settled.families(0)
    assert sum(cards.families(False)[("player-pair", "11to1")].values()) == 4000


def test_keeping_some_pairs_keeps_their_counts() -> None:
    pairs = [("player-pair", "11to1"), ("perfect-pairs-player", "A"), ("banker-pair", "11to1")]
    sim = simulate(2000, "fresh", EIGHT, seed=7, keep_hands=True)
    assert sim.log is not None
    slots = baccarat_slots(sim.log.faces, sim.log.codes)
    whole, part = RoundSettler.of(pairs), RoundSettler.of([pairs[0], pairs[2]])
    whole.feed(slots[:1000])
    whole.keep([0, 2])
    whole.feed(slots[1000:])
    part.feed(slots)
    assert whole.families() == part.families()


def test_the_study_reads_each_rounds_result_as_the_level_reads_that_round() -> None:
    """``result_indices`` (the settler's grouping, which the study weighs rounds by) against
    every round read one by one by the level's own ``from_deal``, at every baccarat level."""
    from exactodds.engine.levels import LEVELS
    from exactodds.simulation.settle import hands, result_indices

    sim = simulate(600, "shoe", EIGHT, seed=13, keep_hands=True)
    assert sim.log is not None
    slots = baccarat_slots(sim.log.faces, sim.log.codes)
    for level in LEVELS.values():
        if not level.baccarat:
            continue
        one_by_one = [level.result_index[level.from_deal(*hands(row))] for row in slots.tolist()]
        assert result_indices(level, slots).tolist() == one_by_one, level.name
