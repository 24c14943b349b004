"""A recorded deal seen again from one seat: the seat's table view before each of its turns.

The coach judges a decision only from what the seat knew when it made it, so this module
rebuilds the deal from the record (its hands, its leader, every action in order, each
checked again by the engine) and hands out :class:`~bigtwo.match.views.TableView` objects of
one seat: its own cards, the counts, the public history and the autopass switches the table
had checked before each action. The deal that holds every hand stays inside this module.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ..engine.deal import Deal
from ..engine.errors import IllegalAction
from ..engine.views import Action
from ..match.match import DealRecord
from ..match.views import OFF, TableView


class Turn(NamedTuple):
    """One action a seat chose: its place in the deal (``step`` actions came before it), the
    seat's view just before it, and the action itself."""

    step: int
    view: TableView
    action: Action


def _leader(record: DealRecord) -> int | None:
    """The leader to pass to the deal, as the match did: the previous winner where the rules
    say the winner leads (deal 2 on); else None, and the opening card decides."""
    if record.number > 1 and record.rules.rules.next_leader == "winner":
        return record.leader
    return None


def _replayed(record: DealRecord) -> Iterator[tuple[int, Deal]]:
    """The deal after each of ``0 … len(actions)`` actions (one deal object, moved on)."""
    deal = Deal(record.rules.rules, record.dealt, leader=_leader(record))
    for step, action in enumerate(record.actions):
        yield step, deal
        if step < len(deal.actions):  # the deal made it by itself (the opening card alone)
            made = deal.actions[step]
        elif action.play is None:
            made = deal.pass_(action.seat, auto=action.auto, reason=action.reason)
        else:
            made = deal.play(action.seat, action.play)
        if made.seat != action.seat or made.play != action.play:
            raise IllegalAction(f"action {step + 1} of deal {record.number} does not replay")
    yield len(record.actions), deal


def _view(record: DealRecord, deal: Deal, seat: int, step: int) -> TableView:
    switches = record.switches
    return TableView.of(
        deal.view(seat),
        scoring=record.rules.match.scoring,
        switches=switches[min(step, len(switches) - 1)] if switches else OFF,
        action_switches=tuple(switches[:step]),
    )


def seat_turns(record: DealRecord, seat: int) -> Iterator[Turn]:
    """Every action ``seat`` chose in the deal (automatic ones are the table's, not its
    own), with the seat's view just before it."""
    if not 0 <= seat < len(record.dealt):
        raise IllegalAction(f"There is no seat {seat}")
    actions = record.actions
    for step, deal in _replayed(record):
        if step < len(actions) and actions[step].seat == seat and not actions[step].auto:
            yield Turn(step, _view(record, deal, seat, step), actions[step])


def view_at(record: DealRecord, seat: int, step: int) -> TableView:
    """``seat``'s view after ``step`` actions of the deal."""
    if not 0 <= seat < len(record.dealt):
        raise IllegalAction(f"There is no seat {seat}")
    if not 0 <= step <= len(record.actions):
        raise IllegalAction(f"deal {record.number} has {len(record.actions)} actions, not {step}")
    for at, deal in _replayed(record):
        if at == step:
            return _view(record, deal, seat, step)
    raise AssertionError("unreachable: every step is replayed")
