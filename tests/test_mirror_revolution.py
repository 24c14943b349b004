"""The table mirror at a table of Big 2 RevolutioN: built only from the events that reach one
seat (or the spectators), it holds exactly that seat's view of the hand as the engine has it
(cards, counts, the Gathering, the deck, the revolution marker, the phase, whose answer is
awaited) and offers exactly the choices the engine enumerates for it, the counter window's
question included; it never holds a card its seat may not see, and a resync in the middle of
a counter window asks the question again."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bigtwo.engine.revolution import Phase, RevolutionChoice
from bigtwo.engine.revolution_cards import REVOLUTION_CARDS, ids, parse
from bigtwo.engine.views import Action, Move
from bigtwo.service import Command, Op, SeatConfig, TableConfig, TableService, hash_token
from bigtwo.service.commands import By
from bigtwo.service.events import Event
from bigtwo.service.mirror import TableMirror
from bigtwo.service.table import _revolution_command

PEOPLE = (SeatConfig(),) * 4


def full_table(seed: int, players: int = 4) -> tuple[TableService, dict[int | None, TableMirror]]:
    """A revolution table of ``players`` people, all seated and ready; a mirror per seat and
    one for a spectator, each fed from its snapshot."""
    config = TableConfig(preset="revolution", seats=PEOPLE[:players], seed=seed, deals=1)
    table = TableService(config, "MIRR")
    for seat in range(players):
        table.apply(Command(Op.JOIN, seat=seat, name=f"P{seat}", token=hash_token(f"t{seat}")), 0.0)
        table.connect(seat, 0.0)
    mirrors: dict[int | None, TableMirror] = {}
    for seat in range(players):
        table.apply(Command(Op.READY, seat=seat), 0.0)
    for seat in [*range(players), None]:
        mirror = TableMirror()
        mirror.apply(table.snapshot(seat))
        mirrors[seat] = mirror
    return table, mirrors


def feed(mirrors: dict[int | None, TableMirror], events: list[Event]) -> None:
    for event in events:
        message = event.message()
        for seat, mirror in mirrors.items():
            if event.reaches(seat):
                mirror.apply(message)


def engine_choices(table: TableService, seat: int) -> set[RevolutionChoice]:
    """What the engine lets ``seat`` do now; in a counter window, what it would let the seat
    answer once the window comes to it (every asked seat is asked at once)."""
    assert table.game is not None
    deal = table.game.deal
    if deal.phase is Phase.COUNTER:
        if seat not in table.asked_seats() or seat in table.answers:
            return set()
        hand = deal.hands[seat]
        counters = [
            RevolutionChoice(seat, Move.COUNTER, 1 << c)
            for c in ids(hand & REVOLUTION_CARDS)
            if deal.function_of(c) == "counter"
        ]
        return {*counters, RevolutionChoice(seat, Move.DECLINE)}
    if deal.to_act != seat or deal.over:
        return set()
    return set(deal.choices())


def told(action: Action) -> tuple[object, ...]:
    """An action as events tell it (which of the deal's actions follow another, and which
    seats may see a card, are the engine's own bookkeeping)."""
    return tuple(action._replace(private=0, follows=False))


def check(table: TableService, mirrors: dict[int | None, TableMirror]) -> None:
    """Every mirror holds its seat's view as the engine has it."""
    assert table.game is not None
    deal = table.game.deal
    for seat, mirror in mirrors.items():
        engine = deal.view(seat)
        mine = mirror.revolution_view()
        assert mine.hand == engine.hand
        assert mine.counts == engine.counts
        assert mine.revolution_counts == engine.revolution_counts
        assert sorted(mine.gathering) == sorted(engine.gathering)
        assert mine.deck_left == engine.deck_left
        assert mine.reversed == engine.reversed
        assert mine.turn == engine.turn and mine.winner == engine.winner
        assert mine.phase == engine.phase or (engine.over and mine.phase is Phase.OVER)
        assert (mine.to_beat and mine.to_beat.mask) == (engine.to_beat and engine.to_beat.mask)
        assert mine.discards == engine.discards and mine.played == engine.played
        assert [told(a) for a in mine.actions] == [told(a) for a in engine.actions]
        if seat is None:
            assert mine.hand == 0 and not mine.choices
            continue
        assert set(mine.choices) == engine_choices(table, seat), (seat, deal.phase)
        # Nothing another seat drew face down, nor an exchange's card given elsewhere.
        for action in mine.actions:
            if action.move is Move.DRAW and action.source == "deck" and action.seat != seat:
                assert action.cards == 0
            exchange = action.move is Move.EFFECT and action.function == "exchange"
            if exchange and seat not in (action.seat, action.target):
                assert action.cards == 0


def answer_or_act(table: TableService, rng: random.Random) -> Command:
    """A random legal command by a person: a counter window's answer from a seat it asks
    (in any order: the table keeps early answers), else the move of the seat to act."""
    assert table.game is not None
    deal = table.game.deal
    if deal.phase is Phase.COUNTER:
        waiting = [s for s in table.asked_seats() if s not in table.answers]
        seat = rng.choice(waiting)
        choice = rng.choice(sorted(engine_choices(table, seat)))
    else:
        choices = deal.choices()
        # Functions and draws more often than chance would have them, to see every kind.
        special = [c for c in choices if c.move in (Move.ACTIVATE, Move.DRAW, Move.COUNTER)]
        choice = rng.choice(special if special and rng.random() < 0.5 else choices)
    return dataclasses.replace(_revolution_command(choice), by=By.PLAYER, seen=None)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_seat_mirror_is_the_engine_view_after_every_event(seed: int) -> None:
    table, mirrors = full_table(seed)
    check(table, mirrors)
    rng = random.Random(seed)
    kinds: set[Move] = set()
    for _ in range(400):
        assert table.game is not None
        if table.game.deal.over:
            break
        cmd = answer_or_act(table, rng)
        events = table.apply(cmd, 1.0)
        feed(mirrors, events)
        kinds |= {a.move for a in table.game.deal.actions}
        check(table, mirrors)
    assert {Move.ACTIVATE, Move.DRAW, Move.DECLINE, Move.PLAY, Move.PASS} <= kinds


def test_counter_window_question_and_answer() -> None:
    """The counter event asks every other seat; its answer is marked; the window closing
    clears the question; the turn comes back to the activator with its choices."""
    table, mirrors = full_table(5)
    rng = random.Random(5)
    for _ in range(400):
        assert table.game is not None
        deal = table.game.deal
        if deal.phase is Phase.COUNTER or deal.over:
            break
        choices = [c for c in deal.choices() if c.move is Move.ACTIVATE and c.target < 0]
        cmd = (
            _revolution_command(choices[0])
            if choices
            else _revolution_command(rng.choice(deal.choices()))
        )
        feed(mirrors, table.apply(dataclasses.replace(cmd, by=By.PLAYER), 1.0))
    assert table.game is not None
    deal = table.game.deal
    assert deal.phase is Phase.COUNTER and deal.pending is not None
    activator = deal.pending.seat
    asked = table.asked_seats()
    for seat in asked:
        mirror = mirrors[seat]
        assert mirror.asked and mirror.prompt is not None
        assert (
            mirror.prompt["seat"] == activator
            and mirror.prompt["function"] == deal.pending.function
        )
        assert parse(mirror.prompt["card"]) == 1 << deal.pending.card
    assert not mirrors[activator].asked and not mirrors[None].asked
    assert not mirrors[activator].my_turn  # the others answer first
    # A resync in the window puts the question again.
    again = TableMirror()
    again.apply(table.snapshot(asked[0]))
    assert again.asked and again.prompt is not None and again.prompt["seat"] == activator
    # The last seat answers first: it is told its answer is taken, nobody else is.
    last = asked[-1]
    feed(mirrors, table.apply(Command(Op.DECLINE, seat=last), 1.0))
    assert mirrors[last].answered and not mirrors[last].asked
    assert all(mirrors[s].asked for s in asked[:-1])
    for seat in asked[:-1]:
        feed(mirrors, table.apply(Command(Op.DECLINE, seat=seat), 1.0))
    assert not any(m.asked for m in mirrors.values())
    assert all(m.prompt is None for m in mirrors.values())
    assert mirrors[activator].moves[-1].move is Move.EFFECT
    assert mirrors[activator].my_turn or table.game.deal.turn != activator
    check(table, mirrors)


def test_a_resync_after_answering_does_not_ask_again() -> None:
    """A seat that answered the open window and then resyncs (a reload, a reconnect) is not
    asked again: its sync says it answered. A seat that has not answered is asked again,
    and a spectator's or the activator's resync asks nothing."""
    table, mirrors = full_table(5)
    for _ in range(400):
        assert table.game is not None
        deal = table.game.deal
        if deal.phase is Phase.COUNTER:
            break
        choices = [c for c in deal.choices() if c.move is Move.ACTIVATE and c.target < 0]
        cmd = _revolution_command(choices[0] if choices else sorted(deal.choices())[0])
        feed(mirrors, table.apply(dataclasses.replace(cmd, by=By.PLAYER), 1.0))
    assert table.game is not None
    deal = table.game.deal
    assert deal.phase is Phase.COUNTER and deal.pending is not None
    first, *_, last = table.asked_seats()
    feed(mirrors, table.apply(Command(Op.DECLINE, seat=last), 1.0))  # early: not applied yet
    assert deal.responder == first

    def resynced(seat: int | None) -> TableMirror:
        mirror = TableMirror()
        mirror.apply(table.snapshot(seat))
        return mirror

    again = resynced(last)
    assert again.answered and not again.asked and again.prompt is not None
    assert not again.revolution_view().choices and again.revolution_view().to_act == first
    asked = resynced(first)
    assert asked.asked and not asked.answered
    assert not resynced(deal.pending.seat).asked and not resynced(None).asked
    check(table, {**mirrors, last: again, first: asked})
    # The window goes on: the resynced mirrors follow it to its end as the others do.
    fresh: dict[int | None, TableMirror] = {last: again, first: asked}
    for seat in table.asked_seats()[:-1]:
        events = table.apply(Command(Op.DECLINE, seat=seat), 1.0)
        feed(mirrors, events)
        feed(fresh, events)
    assert deal.phase is not Phase.COUNTER
    assert not again.asked and not again.answered and again.prompt is None
    check(table, {**mirrors, last: again, first: asked})


def test_a_two_player_hand_in_the_mirror() -> None:
    table, mirrors = full_table(9, players=2)
    rng = random.Random(9)
    for _ in range(300):
        assert table.game is not None
        if table.game.deal.over:
            break
        feed(mirrors, table.apply(answer_or_act(table, rng), 1.0))
        check(table, mirrors)
    assert len(mirrors[0].counts) == 2
