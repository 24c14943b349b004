"""The ``ppo2018`` bot adapter: views into the 2018 network's inputs and legal plays into its
actions, under its own rules and, translated, under others.

Tests that need the network's data take the ``ppo2018_data`` fixture (``conftest.py``): found
through ``$BIGTWO_PPO2018_DIR``; skipped without it, except on CI, where they fail.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bigtwo.bots import ppo2018_net as net
from bigtwo.bots.ppo2018 import (
    Ppo2018Bot,
    Ppo2018GreedyBot,
    _encodable,
    action_of,
    encode_view,
    history_of,
    legal_actions,
    stand_in,
)
from bigtwo.engine import Deal, Kind, Rules, classify, parse_cards
from bigtwo.engine.cards import card_indices
from bigtwo.engine.views import SeatView
from bigtwo.match import RuleSet, TableView

CW = Rules.preset("charlesworth2018")


def view_of(deal: Deal, seat: int) -> TableView:
    """A seat's view of a deal played without a match (its preset's scoring, no autopass)."""
    return TableView.of_deal(deal, seat, scoring=RuleSet.preset(deal.rules.name).scoring)


PALM = Rules.preset("palm")


def mask(text: str) -> int:
    return parse_cards(text).mask


def test_stand_ins_are_plays_the_2018_rules_know() -> None:
    hand = mask("3s 5c 6d 9h Kd")
    for text in ("Ad 2c 3h 4d 5s", "2d 3c 4h 5d 6s", "7d 7c 7h 7s 9d"):
        play = mask(text)
        assert not _encodable(play)
        proxy = stand_in(play, hand)
        assert proxy and _encodable(proxy) and not proxy & hand
        cards = card_indices(proxy)
        if text.startswith("7"):
            assert sorted(c >> 2 for c in cards).count(4) == 3  # a full house on the 7s
        else:
            assert cards[2] >> 2 == card_indices(play)[2] >> 2  # the same middle card
    for text in ("3d", "8c 8h", "9d 9c 9s", "3d 4d 5d 6d 7d", "4c 5d 6h 7s 8c", "9d 9c 9s Kd Kh"):
        assert _encodable(mask(text))


def test_five_card_four_of_a_kind_maps_to_the_networks_four() -> None:
    hand = mask("7d 7c 7h 7s 9d Jc")
    play = classify(mask("7d 7c 7h 7s 9d"), PALM)
    assert play is not None and play.kind is Kind.FOUR_OF_A_KIND
    assert action_of(hand, play) == net.action_index(hand, mask("7d 7c 7h 7s"))


def test_history_uses_stand_ins_and_keeps_passes() -> None:
    hands = [
        mask("3d 4d 5c 6h Ac 2d 9s"),
        mask("7d 7c 7h 7s 9d 3c 4c"),
        mask("Td Tc Jh Qs Kd 5d 5h"),
        mask("8d 8c 8h Jd Jc Qd Qh"),
    ]
    deal = Deal(PALM, hands)
    deal.play(0, "Ac 2d 3d 4d 5c")
    deal.pass_(1)
    view = view_of(deal, 2)
    history = history_of(view)
    assert history[1] == (1, None)
    assert _encodable(history[0][1] or 0)
    bits = set(net.encode_bits(2, view.hand, history, view.counts))
    x = encode_view(view)
    on = {i for i in range(net.INPUT_SIZE) if x[i]}
    # the card-based inputs come from the real cards: Ac and 2d played by seat 0, which sits
    # opposite seat 2 (opponent B, block 313)
    assert 313 + 13 + 1 in on and 313 + 13 + 4 in on
    assert {367 + 45 - 36, 367 + 48 - 36} <= on
    card_bits = set(range(313 + 13, 313 + 21)) | set(range(367, 383))
    assert on - card_bits == bits - card_bits


@pytest.mark.usefixtures("ppo2018_data")
def test_worked_example_1_through_the_bot() -> None:
    # ENCODING.md example 1: our seats are the document's minus one
    acting = "3s 4d 5d 6h 7s 8s 9c 9h Td Qs Ah As 2c"
    rng = random.Random(0)
    rest = [c for c in range(52) if not mask(acting) >> c & 1 and c != 0]
    rng.shuffle(rest)
    hands = [0, 0, 1, mask(acting)]  # seat 2 (document seat 3) holds 3d
    for seat, count in ((0, 13), (1, 13), (2, 12)):
        for _ in range(count):
            hands[seat] |= 1 << rest.pop()
    deal = Deal(CW, hands)
    assert deal.turn == 3 and str(deal.actions[0].play) == "3d"
    view = view_of(deal, 3)
    x = encode_view(view)
    expected = (
        "0 16 20 21 23 35 42 46 57 64 69 81 86 92 104 108 109 115 126 130 131 138 146 149 152 "
        "160 169 171 174 183 189 196 207 214 219 231 235 237 253 258 259 263 276 278 298 325 "
        "351 383 396 401 409"
    )
    assert [i for i in range(net.INPUT_SIZE) if x[i]] == [int(b) for b in expected.split()]
    assert str(Ppo2018GreedyBot().choose(view, random.Random(0))) == "3s"
    probs = Ppo2018Bot().probabilities(view)
    assert str(probs[0][0]) == "3s" and probs[0][1] == pytest.approx(0.9859, abs=1e-3)


def self_play_views(rules: Rules, label: str, games: int, rng: random.Random) -> Iterator[SeatView]:
    """Every view with a choice in ``games`` seeded deals the sampling network plays against
    itself (drawing from ``rng``)."""
    bot = Ppo2018Bot()
    for game in range(games):
        deal = Deal.from_seed(rules, f"{label}:{game}", 4)
        while not deal.over:
            view = view_of(deal, deal.turn)
            if not view.legal:
                deal.pass_(deal.turn)
                continue
            yield view
            move = bot.choose(view, rng)
            if move is None:
                deal.pass_(deal.turn)
            else:
                deal.play(deal.turn, move)


@pytest.mark.usefixtures("ppo2018_data")
@pytest.mark.parametrize("preset", ["charlesworth2018", "palm", "taiwan", "pusoy-dos"])
def test_every_legal_play_has_an_action_and_moves_are_legal(preset: str) -> None:
    sampled, greedy = Ppo2018Bot(), Ppo2018GreedyBot()
    rng = random.Random(preset)
    for view in self_play_views(Rules.preset(preset), "ppo", 6, rng):
        actions = legal_actions(view)
        assert {p.mask for p in actions.values() if p is not None} <= {p.mask for p in view.legal}
        fours = sum(1 for p in view.legal if p.kind is Kind.FOUR_OF_A_KIND and p.size == 5)
        offered = [p for p in view.legal if not net.never_offered(view.hand, p.mask)]
        plays = len(actions) - (1 if view.can_pass else 0)
        assert plays == len(offered) or fours  # only kickers share an action
        if preset == "charlesworth2018":
            assert sorted(actions) == sorted(set(actions))
        for bot in (sampled, greedy):
            move = bot.choose(view, rng)
            assert move is None and view.can_pass or move in view.legal


def test_the_dcs_triple_of_a_four_of_a_kind_is_never_offered() -> None:
    # ENCODING.md 3.1: from a rank held four times the original generator offered three of
    # its four triples, never the ♦♣♠ one, nor any full house built on it.
    hand = mask("3d 7d 7c 7h 7s 9d 9c Jd Qd Kd Ad 2d 2s")
    others = [
        "3c 3h 3s 4d 4c 4h 4s 5d 5c 5h 5s 6d 6c",
        "6h 6s 8d 8c 8h 8s 9h 9s Tc Th Ts Jc Jh",
        "Td Js Qc Qh Qs Kc Kh Ks Ac Ah As 2c 2h",
    ]
    deal = Deal(CW, [hand, *(mask(h) for h in others)])
    deal.pass_(deal.turn)  # the 3♦ opened; the next three pass, so seat 0 leads
    deal.pass_(deal.turn)
    deal.pass_(deal.turn)
    view = view_of(deal, 0)
    assert view.to_beat is None and view.seat == 0
    offered = {p.mask for p in legal_actions(view).values() if p is not None}
    dcs = mask("7d 7c 7s")
    assert dcs in {p.mask for p in view.legal} and dcs not in offered
    assert mask("7d 7c 7h") in offered and mask("7c 7h 7s") in offered
    assert mask("7d 7c 7s 9d 9c") not in offered and mask("7d 7h 7s 9d 9c") in offered
    assert net.never_offered(hand, dcs) and not net.never_offered(mask("7d 7c 7s"), dcs)
    assert not net.never_offered(hand, mask("7d 7c 7h 7s"))


@pytest.mark.usefixtures("ppo2018_data")
def test_under_its_own_rules_the_moves_are_exactly_the_originals() -> None:
    # every legal action the adapter offers is the original engine's, and none is missing
    states = 0
    for view in self_play_views(CW, "mask", 40, random.Random(2018)):
        assert sorted(legal_actions(view)) == net.legal_indices_charlesworth(
            view.hand, history_of(view)
        )
        states += 1
    assert states > 1000


@pytest.mark.usefixtures("ppo2018_data")
def test_choices_are_seeded() -> None:
    deal = Deal.from_seed(CW, 4)
    view = view_of(deal, deal.turn)
    bot = Ppo2018Bot()
    first = [bot.choose(view, random.Random(s)) for s in range(5)]
    assert first == [bot.choose(view, random.Random(s)) for s in range(5)]
    greedy = Ppo2018GreedyBot()
    assert len({str(greedy.choose(view, random.Random(s))) for s in range(5)}) == 1


@pytest.mark.usefixtures("ppo2018_data")
def test_three_players_fall_back_to_the_strong_player() -> None:
    rules = Rules.preset("deduction")
    deal = Deal.from_seed(rules, 1, 3)
    view = view_of(deal, deal.turn)
    assert Ppo2018GreedyBot().choose(view, random.Random(0)) in view.legal
