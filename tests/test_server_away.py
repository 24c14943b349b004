"""A player whose connection is gone does not stall the table: once the table has waited a
few seconds for them (their turn), a computer takes over their seat, which stays theirs and
is handed back when they return; back in the pause between deals, their resync carries the
score sheet the others have."""

from __future__ import annotations

from bigtwo.service import Command, Op
from bigtwo.service.clocks import GONE_GRACE
from test_service import finish_deal, seat_everyone, table


def test_a_gone_players_turn_is_played_after_a_few_seconds() -> None:
    t = table(turn_seconds=30.0, away_seconds=60.0, seed=6)
    seat_everyone(t, now=0.0)
    assert t.game is not None
    turn = t.game.deal.turn
    t.disconnect(turn, now=10.0)  # the tab closed at their turn
    assert GONE_GRACE <= 5.0
    assert t.deadline() == 10.0 + GONE_GRACE  # not the 30 s timer, nor the 60 s away time
    assert t.due(10.0 + GONE_GRACE - 0.1) is None
    assert t.due(10.0 + GONE_GRACE) == Command(Op.TAKEOVER, seat=turn)
    events = t.submit(None, 10.0 + GONE_GRACE)[1]
    assert events[0].type == "control" and events[0].data["seat"] == turn
    moved = [e for e in events if e.type == "action" and e.data["seat"] == turn]
    assert moved and moved[0].data["by"] == "computer"
    assert t.seats[turn].taken  # the seat stays theirs
    t.connect(turn, now=20.0)
    back = t.submit(None, 20.0)[1]
    assert back[0].type == "control" and back[0].data["control"] == "player"


def test_a_gone_player_waits_for_their_turn_before_a_computer_plays() -> None:
    """Gone while another plays: nothing until their turn comes, then the grace from there."""
    t = table(turn_seconds=30.0, away_seconds=60.0, seed=6)
    seat_everyone(t, now=0.0)
    assert t.game is not None
    gone = (t.game.deal.turn + 1) % 4
    t.disconnect(gone, now=1.0)
    assert t.deadline() == 30.0  # the turn timer of the seat to act
    seat = t.game.deal.turn
    view = t.game.deal.view(seat)
    t.submit(Command(Op.ACT, seat=seat, cards=view.legal[0].mask, seen=t.state_v), 12.0)
    assert t.game.deal.turn == gone
    assert t.deadline() == 12.0 + GONE_GRACE
    assert t.due(12.0 + GONE_GRACE) == Command(Op.TAKEOVER, seat=gone)


def test_back_in_the_pause_between_deals_the_score_sheet_is_there() -> None:
    t = table(between_deals_seconds=60.0, deals=2, away_seconds=60.0, seed=6)
    seat_everyone(t, now=0.0)
    t.disconnect(2, now=1.0)
    finish_deal(t, 1.0)
    now = 2.0
    assert t.between == 2
    t.connect(2, now=now)
    t.submit(None, now)
    sync = t.snapshot(2, now)
    sheet = sync["room"]["next_deal"]
    assert sheet is not None and sheet["deal"] == 2
    assert sync["room"]["results"][-1]["deal"] == 1
    assert sync["clock"] is not None and sync["clock"].get("next_deal") == 2
