"""What the public history of a deal proves about the hands the players hold.

The table's autopass passes a seat that has no reply (to plays of fewer than five cards, or
every play with ``autopass_five``), so every pass is evidence: an automatic one shows the
seat held no reply, a chosen one (made while those switches were on) that it held a reply
and kept it. The computer players read these proofs from a seat's table view, which says
which switches the table had checked before each action; nothing here sees a hidden card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.plays import Play
    from ..engine.views import SeatView
    from ..match.views import TableView


def proven_misses(view: SeatView) -> list[tuple[int, Play]]:
    """``(seat, play)`` for every automatic pass: that seat then held no reply to ``play``.

    Automatic passes are the table's autopass (a seat with no legal reply is passed for it),
    so unlike a chosen pass each one is a fact about the hand, and it stays true of every
    later, smaller hand of that seat.
    """
    out: list[tuple[int, Play]] = []
    to_beat: Play | None = None
    for action in view.actions:
        if action.play is not None:
            to_beat = action.play
        elif action.auto and to_beat is not None and action.seat != view.seat:
            out.append((action.seat, to_beat))
        if action.trick_over:
            to_beat = None
    return out


def proven_replies(view: TableView) -> list[tuple[int, Play, int]]:
    """``(seat, play, played_since)`` for every chosen pass the table's autopass would have
    made for a seat with no reply: that seat then held a reply to ``play``, among the cards
    it holds now and ``played_since`` (the cards it has played after that pass).

    Only while the switches the table checked before a pass would have passed a seat with no
    reply (``view.action_switches``) is a pass the table did not make a choice, and a choice
    needs a reply to choose against; with autopass off a pass may be forced.
    """
    switches = view.action_switches
    played = [0] * view.players
    to_beat: Play | None = None
    passes: list[tuple[int, Play, int]] = []  # (seat, play, the cards it had played by then)
    for i, action in enumerate(view.actions):
        if action.play is not None:
            to_beat = action.play
            played[action.seat] |= action.play.mask
        elif (
            not action.auto
            and to_beat is not None
            and action.seat != view.seat
            and switches[i].passes(to_beat.size)
        ):
            passes.append((action.seat, to_beat, played[action.seat]))
        if action.trick_over:
            to_beat = None
    return [(seat, play, played[seat] & ~before) for seat, play, before in passes]
