"""One computer seat chooses for a computer everywhere: the same policy, the same randomness."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bigtwo.arena import play_deal
from bigtwo.autoplay import play_out
from bigtwo.bots import make_bot
from bigtwo.bots.base import Bot
from bigtwo.bots.seat import ComputerSeat, position_rng
from bigtwo.engine.deal import Deal
from bigtwo.engine.errors import BigTwoError
from bigtwo.engine.plays import Play
from bigtwo.match.match import Match
from bigtwo.match.settings import RuleSet
from bigtwo.match.views import TableView
from bigtwo.service import Command, Op, SeatConfig, TableConfig, TableService, hash_token

PALM = RuleSet.preset("palm")


class Broken(Bot):
    name = "broken"

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        raise RuntimeError("the bot fell over")


class Leads(Bot):
    """Passes even at a lead: an illegal move."""

    name = "leads"

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        return None


class Draws(Bot):
    """A random legal play; remembers the first number it drew at each position."""

    name = "draws"

    def __init__(self) -> None:
        self.draws: dict[int, float] = {}

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        self.draws[len(view.actions)] = rng.random()
        return view.legal[int(self.draws[len(view.actions)] * len(view.legal))]


def lead_view() -> TableView:
    match = Match(PALM, seed=4, deals=1)
    return match.view(match.deal.turn)


def test_a_lenient_seat_plays_the_fallback_when_its_bot_fails_or_cheats() -> None:
    view = lead_view()
    assert ComputerSeat.of(Broken(), view.turn).choose(view) == view.legal[0]
    assert ComputerSeat.of(Leads(), view.turn).choose(view) == view.legal[0]
    assert ComputerSeat.fallback(view) == view.legal[0]


def test_a_strict_seat_says_what_went_wrong() -> None:
    view = lead_view()
    with pytest.raises(RuntimeError, match="fell over"):
        ComputerSeat.of(Broken(), view.turn, strict=True).choose(view)
    with pytest.raises(BigTwoError, match="leads in seat .* passed at a lead"):
        ComputerSeat.of(Leads(), view.turn, strict=True).choose(view)


def test_the_arena_is_strict() -> None:
    hands = Deal.from_seed(PALM.rules, 5).dealt
    bots: list[Bot] = [Leads(), Leads(), Leads(), Leads()]
    with pytest.raises(BigTwoError, match="passed at a lead"):
        play_deal(PALM, bots, hands, "k")


def test_randomness_comes_from_the_position_not_the_order_of_asking() -> None:
    view = lead_view()
    a, b = Draws(), Draws()
    ComputerSeat.of(a, 0).choose(view, key=9, deal_number=2)
    ComputerSeat.of(b, 0).choose(lead_view(), key=9, deal_number=2)  # a fresh seat, later
    assert a.draws == b.draws
    assert a.draws[0] == position_rng(9, 2, 0).random()
    other = Draws()
    ComputerSeat.of(other, 0).choose(view, key=9, deal_number=3)
    assert other.draws != a.draws


def test_an_unknown_level_plays_greedy_at_a_table_and_fails_in_the_arena() -> None:
    assert ComputerSeat("no-such-level", 1).bot.name == "greedy"
    with pytest.raises(BigTwoError, match="Unknown computer player"):
        _ = ComputerSeat("no-such-level", 1, strict=True).bot


def _service_game(seed: int, level: str) -> list[tuple[int, Any]]:
    """Every action of a table of computers and one person who plays the cheapest play."""
    seats = (SeatConfig(), *(SeatConfig("computer", level) for _ in range(3)))
    table = TableService(TableConfig(preset="palm", seats=seats, seed=seed, deals=1), "T")
    table.apply(Command(Op.JOIN, seat=0, name="You", token=hash_token("t")), 0.0)
    table.connect(0, 0.0)
    table.submit(Command(Op.READY, seat=0), 0.0)
    assert table.game is not None
    while not table.game.deal.over:
        view = table.game.deal.view(0)
        assert view.turn == 0
        cards = view.legal[0].mask if view.legal else None
        table.submit(Command(Op.ACT, seat=0, cards=cards), 0.0)
    return [(a.seat, a.play) for a in table.game.deal.actions]


def test_autoplay_and_a_table_choose_alike_for_the_same_seed() -> None:
    """A table's computers and autoplay's (a greedy seat for the person) make one game."""
    seed = 21
    match = Match(PALM, ["You", "B", "C", "D"], seed=seed, deals=1)
    play_out(match, [make_bot("greedy"), *(make_bot("random") for _ in range(3))])
    assert [(a.seat, a.play) for a in match.deal.actions] == _service_game(seed, "random")
