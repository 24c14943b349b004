"""The table's pace for people: a computer's play waits the table's pace after the move
before it, and the lead after a trick won waits longer, so a trick's last plays can be read
before the next trick begins (in the browser and in the terminal alike)."""

from __future__ import annotations

from bigtwo.service import Command, Op
from bigtwo.service.clocks import TRICK_HOLD
from test_service import ONE_HUMAN, seat_everyone, table


def test_a_computer_leading_after_a_trick_waits_longer() -> None:
    t = table(ONE_HUMAN, computer_delay=1.0, seed=6, away_seconds=None)
    seat_everyone(t, now=0.0)
    now, plays_seen, lead_seen = 0.0, False, False
    for _ in range(400):
        game = t.game
        assert game is not None and t.status == "playing"
        deal = game.deal
        if deal.over:
            break
        if deal.turn == 0:
            view = deal.view(0)
            cards = view.legal[0].mask if view.legal else None
            t.submit(Command(Op.ACT, seat=0, cards=cards, seen=t.state_v), now)
            continue
        after_trick = bool(deal.actions) and deal.actions[-1].trick_over
        wait = t.deadline()
        assert wait is not None
        paces = TRICK_HOLD if after_trick else 1
        assert wait == t.turn_started + paces * 1.0
        assert t.due(wait - 0.01) is None and t.due(wait) is not None
        lead_seen |= after_trick
        plays_seen |= not after_trick
        now = wait
        t.submit(None, now)
        if lead_seen and plays_seen:
            break
    assert lead_seen and plays_seen and TRICK_HOLD == 3
