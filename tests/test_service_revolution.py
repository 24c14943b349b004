"""The table service under the revolution expansion: a room of four computers plays to the
end, a person activates a function, is countered, passes and draws (all by commands, as a
client sends them), the counter window asks every other seat with its clock and computers
answer after the same pause whether or not they hold a Q, a table rebuilt from its command
log is the same table, and no event sent to a seat holds another seat's face-down draw or any
card it may not see."""

from __future__ import annotations

import io
import json
import pickle
import re
import zlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bigtwo.engine.revolution import Move, Phase
from bigtwo.engine.revolution_cards import REVOLUTION_CARDS, card_symbol, ids, parse, text
from bigtwo.match.revolution_record import read_revolution_text, write_revolution_text
from bigtwo.service import (
    AlreadyApplied,
    Command,
    ConfigError,
    Event,
    Op,
    Refused,
    SeatConfig,
    TableConfig,
    TableService,
    hash_token,
)
from bigtwo.service.commands import By
from bigtwo.service.request import RoomRequest, table_config

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][dchs]\*?)(?![A-Za-z0-9])")
COMPUTERS = tuple(SeatConfig("computer", level) for level in ("greedy", "random") * 2)
ONE_PERSON = (
    SeatConfig(),
    SeatConfig("computer", "greedy"),
    SeatConfig("computer", "random"),
    SeatConfig("computer", "greedy"),
)
# A known deal (found by trying seeds with the person's moves below): the person draws a
# Character from the Gathering, activates it, and a computer counters it.
SCENARIO_SEED = 1


def revolution_table(seats: tuple[SeatConfig, ...] = ONE_PERSON, **options: Any) -> TableService:
    options.setdefault("seed", 4)
    options.setdefault("deals", 1)
    return TableService(TableConfig(preset="revolution", seats=seats, **options), "REVO")


def seat_person(t: TableService, now: float = 0.0) -> list[Command]:
    """The person at seat 0 joins and says ready: the match starts. Returns the commands."""
    done: list[Command] = []
    join = Command(Op.JOIN, seat=0, name="Ann", token=hash_token("ann"))
    t.apply(join, now)
    done.append(join)
    t.connect(0, now)
    applied, _ = t.submit(Command(Op.READY, seat=0), now)
    return done + applied


def person_command(t: TableService) -> Command | None:
    """What the person at seat 0 does now, if anything is asked of them: take a Character
    from the Gathering after a pass (else one card from the deck, then stop), activate
    every function they can (an exchange gives their lowest card to the next seat), pass
    when they may, else make their cheapest play; decline every counter window."""
    assert t.game is not None
    deal = t.game.deal
    view = deal.view(0)
    seen = t.state_v
    if deal.phase is Phase.COUNTER:
        if 0 in t.asked_seats() and 0 not in t.answers:
            return Command(Op.DECLINE, seat=0, seen=seen)
        return None
    if view.to_act != 0 or deal.over:
        return None
    if deal.phase is Phase.DRAW:
        draws = [c for c in view.choices if c.move is Move.DRAW]
        characters = [c for c in draws if c.cards & REVOLUTION_CARDS and _character(c.cards)]
        if characters:
            return Command(Op.DRAW, seat=0, cards=characters[0].cards, seen=seen)
        deck = [c for c in draws if not c.cards]
        if deck and view.draws_taken == 0:
            return Command(Op.DRAW, seat=0, cards=None, seen=seen)
        return Command(Op.STOP, seat=0, seen=seen)
    activations = [c for c in view.choices if c.move is Move.ACTIVATE]
    if activations:
        choice = activations[0]
        give = 1 << choice.give if choice.give >= 0 else 0
        target = choice.target if choice.target >= 0 else None
        return Command(Op.ACTIVATE, seat=0, cards=choice.cards | give, target=target, seen=seen)
    if view.can_pass:
        return Command(Op.ACT, seat=0, cards=None, seen=seen)
    return Command(Op.ACT, seat=0, cards=view.legal[0].mask, seen=seen)


def _character(mask: int) -> bool:
    return (mask.bit_length() - 1 - 52) % 13 >= 8


def play_person_room(
    t: TableService, now: float = 0.0, limit: int = 3000
) -> tuple[list[Command], list[Event]]:
    """Seat the person and play to the end: their commands, the computers' on their own."""
    commands = seat_person(t, now)
    events: list[Event] = []
    for _ in range(limit):
        if t.status != "playing":
            return commands, events
        cmd = person_command(t)
        applied, caused = t.submit(cmd, now)
        if not applied:  # the counter window waits for its clock
            now += 10.0
        commands += applied
        events += caused
    raise AssertionError("the match did not end")


def cards_in(event: Event) -> set[int]:
    """Every card an event's wire text names."""
    return {ids(parse(token))[0] for token in CARD.findall(event.json())}


# -- configuration ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("request_", "words"),
    [
        (
            {
                "preset": "revolution",
                "seats": ["human", "computer:ppo2018", "computer", "computer"],
            },
            "Seat 1: the ppo2018 computer does not play revolution yet (levels that do: classic, "
            "expert, greedy, random, strong)",
        ),
        (
            {"preset": "revolution", "takeover_level": "learned"},
            "The takeover level: the learned computer does not play revolution yet",
        ),
        (
            {"preset": "revolution", "rules": {"revolution": {"counter_seconds": 0}}},
            "rules: counter_seconds must be at least 1",
        ),
    ],
)
def test_revolution_room_requests_are_checked_in_words(
    request_: dict[str, Any], words: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(words)):
        table_config(request_)


def test_a_revolution_room_is_made_by_its_preset_name() -> None:
    config = table_config(
        {"preset": "revolution", "seats": ["human", "computer:random", "computer", "computer"]}
    )
    assert config.preset == "revolution" and config.make_rules().rules.revolution is not None
    schema = RoomRequest.model_json_schema()
    assert "revolution" in schema["properties"]["preset"]["enum"]


# -- a room of computers --------------------------------------------------------------------------
def test_four_computers_play_a_seeded_room_to_the_end() -> None:
    def play() -> tuple[TableService, list[str]]:
        t = revolution_table(COMPUTERS, seed=11, deals=2)
        t._start(0.0)  # computers only: nobody to say ready (as a local table starts it)
        texts = []
        while t.status == "playing":
            applied, events = t.submit(None, 0.0)
            assert applied, "a table of computers never waits"
            texts += [e.json() for e in events]
        return t, texts

    t, texts = play()
    assert t.status == "finished" and t.closed_reason == "match over"
    # Each counter window took one answer from each seat asked, at most.
    asked: list[int] = []
    for kind, to in zip(t._types, t._audiences, strict=True):
        if kind == "counter":
            asked.append(int(to))
        elif kind == "answered":
            assert int(to) in asked, "a seat answered a window twice, or unasked"
            asked.remove(int(to))
    match = t.game
    assert match is not None and match.over and len(match.results) == 2
    # Every kind of move went through the service's commands.
    moves = {a.move for r in match.results for a in r.actions}
    assert {Move.PLAY, Move.PASS, Move.DRAW, Move.STOP, Move.ACTIVATE, Move.DECLINE} <= moves
    # The events told the same scores as the match, and the record replays the match.
    ends = [json.loads(x) for x in texts if json.loads(x)["type"] == "deal_end"]
    assert [e["points"] for e in ends] == [list(r.points) for r in match.results]
    assert ends[-1]["totals"] == list(match.totals) == t.info()["totals"]
    again = read_revolution_text(write_revolution_text(match))
    assert [r.points for r in again.results] == [r.points for r in match.results]
    assert [r.actions for r in again.results] == [r.actions for r in match.results]
    # Seeded: the same room plays the same match, event for event.
    assert play()[1] == texts


def test_the_hand_is_public_state_in_the_sync() -> None:
    t = revolution_table()
    seat_person(t)
    view = t.snapshot(0)["view"]
    match = t.game
    assert match is not None
    deal = match.deal
    assert view["deck_left"] == deal.deck_left == 48
    assert view["gathering"] == text(sum(1 << c for c in deal.gathering))
    assert len(view["gathering"].split()) == 4
    assert view["counts"] == deal.normal_counts() and view["revolution_counts"] == [0] * 4
    assert view["reversed"] is False and view["phase"] in ("act", "counter", "draw")
    assert "hand" in view and "hand" not in t.snapshot(None)["view"]


# -- a person at the table ----------------------------------------------------------------------
def test_a_person_activates_is_countered_passes_and_draws() -> None:
    t = revolution_table(seed=SCENARIO_SEED)
    _, events = play_person_room(t)
    assert t.status == "finished"
    mine = [e.message() for e in events if e.reaches(0)]
    theirs = [e.message() for e in events if e.reaches(1)]
    moves = [
        (m["seat"], m["move"], m.get("cards"), m.get("function"))
        for m in mine
        if m["type"] == "action"
    ]
    # The person activated a revolution with 2d*; seat 3 countered it with a Revolution Q.
    at = moves.index((0, "activate", "2d*", "revolution"))
    assert moves[at + 1 : at + 4] == [
        (1, "decline", None, None),
        (2, "decline", None, None),
        (3, "counter", "Qs*", "revolution"),
    ]
    countered = [m for m in mine if m["type"] == "action" and m["move"] == "counter"][0]
    assert countered["reversed"] is False and countered["pending"] is None
    # The others were asked, each with its clock; the person is never asked about their own.
    prompts = [e for e in events if e.type == "counter" and e.message()["card"] == "2d*"]
    assert sorted(e.to for e in prompts) == [1, 2, 3]
    assert {e.message()["seconds"] for e in prompts} == {5}
    # The person passed and drew Qd* face down: only they saw the card.
    draw = next(
        m for m in mine if m["type"] == "action" and m["move"] == "draw" and m["source"] == "deck"
    )
    assert (draw["seat"], draw["cards"]) == (0, "Qd*")
    other = [
        m
        for m in theirs
        if m["type"] == "action"
        and m["move"] == "draw"
        and m["source"] == "deck"
        and m["seat"] == 0
    ]
    assert other[0]["cards"] is None and other[0]["deck_left"] == draw["deck_left"]
    hands = [m["cards"] for m in mine if m["type"] == "hand"]
    assert any("Qd*" in h.split() for h in hands)


def test_refusals_are_in_words_and_change_nothing() -> None:
    t = revolution_table(seed=SCENARIO_SEED)
    seat_person(t)
    match = t.game
    assert match is not None
    deal = match.deal
    assert deal.to_act == 0 and deal.phase is Phase.ACT
    own = ids(deal.hands[0])[0]
    before = (t.v, json.dumps(t.snapshot(0)), json.dumps(t.info()))
    tries = [
        (Command(Op.ACTIVATE, seat=0, cards=1 << own), "Only a Revolution card has a function"),
        (Command(Op.ACTIVATE, seat=0, cards=1 << 100), "Not your card"),
        (Command(Op.COUNTER, seat=0, cards=1 << 62), "There is no function to counter now"),
        (Command(Op.DECLINE, seat=0), "There is no function to answer now"),
        (Command(Op.DECLINE, seat=1), "A computer is playing seat 1 now"),
        (Command(Op.DRAW, seat=0), "Only a player who has just passed may draw"),
        (Command(Op.STOP, seat=0), "Only a player who has just passed may stop drawing"),
        (Command(Op.ACT, seat=0, cards=1 << 100), "Not your cards"),
    ]
    for cmd, words in tries:
        try:
            t.apply(cmd, 0.0)
        except Refused as exc:
            assert words in str(exc), (cmd, str(exc))
        else:
            raise AssertionError(f"{cmd} was not refused")
        assert (t.v, json.dumps(t.snapshot(0)), json.dumps(t.info())) == before
    # An activation that names no Character, or two, is refused with its reason word.
    for cards, reason in [(None, "name_a_character"), (1 << 100 | 1 << 101, "name_one_character")]:
        named = refusal(t, Command(Op.ACTIVATE, seat=0, cards=cards))
        assert (named.code, named.params) == ("illegal", {"reason": reason})


def test_undo_and_chosen_cards_are_refused_under_the_revolution() -> None:
    t = revolution_table()
    seat_person(t)
    for cmd, words in [
        (Command(Op.UNDO, seat=0), "cannot be taken back in the revolution"),
        (Command(Op.CUSTOM, seat=0, value={"deal": 2, "cards": "3d"}), "Cards cannot be chosen"),
    ]:
        try:
            t.apply(cmd, 0.0)
        except Refused as exc:
            assert words in str(exc)
        else:
            raise AssertionError(f"{cmd} was not refused")


# -- the counter window --------------------------------------------------------------------------
def _open_window(t: TableService) -> tuple[list[Event], float]:
    """Play the person's moves until they activate a function: the window is then open.
    Returns its events and the time it opened (the clock only goes forward)."""
    now = 0.0
    seat_person(t, now)
    for _ in range(2000):
        now += 5.0
        cmd = person_command(t)
        if cmd is not None and cmd.op == Op.ACTIVATE:
            return t.submit(cmd, now)[1], now
        t.submit(cmd, now)
    raise AssertionError("the person never activated a function")


@pytest.mark.parametrize(
    ("seed", "qs", "told"),
    [
        (1, {1: [], 2: [], 3: []}, ["decline", "decline", "decline"]),
        (12, {1: [], 2: [], 3: ["Qc*"]}, ["decline", "decline", "counter"]),
    ],
)
def test_computers_answer_after_the_same_pause_whether_or_not_they_hold_a_q(
    seed: int, qs: dict[int, list[str]], told: list[str]
) -> None:
    t = revolution_table(seed=seed, computer_delay=1.0)
    events, now = _open_window(t)
    assert t.game is not None
    deal = t.game.deal
    assert deal.phase is Phase.COUNTER
    prompts = {e.to: e.message() for e in events if e.type == "counter"}
    assert sorted(prompts) == [1, 2, 3]
    assert {seat: p["counters"] for seat, p in prompts.items()} == qs
    for seat, prompt in prompts.items():  # each prompt names the Qs its seat may counter with
        qs = [c for c in ids(deal.view(seat).hand) if deal.function_of(c) == "counter"]
        assert prompt["counters"] == [text(1 << c) for c in qs]
    # Every computer answers at the same moment, Q or not: nothing before the pause.
    assert t.deadline() == now + 1.0
    assert t.submit(None, now + 0.99) == ([], [])
    applied, _ = t.submit(None, now + 1.0)
    # Each asked seat answers once, in turn order, until the first counter; then the
    # person's turn goes on.
    answers = [c for c in applied if c.op in (Op.COUNTER, Op.DECLINE)]
    seats = [c.seat for c in answers]
    assert seats == [1, 2, 3][: len(seats)] and answers[-1].op in (Op.COUNTER, Op.DECLINE)
    assert len(seats) == 3 or answers[-1].op == Op.COUNTER
    assert [c.op.value for c in answers] == told
    assert all(c.by == By.COMPUTER for c in answers)
    assert deal.phase is Phase.ACT and deal.turn == 0


@pytest.mark.parametrize("clock", [5, 2])
def test_a_person_who_does_not_answer_declines_when_the_clock_runs_out(clock: int) -> None:
    # The person sits at seat 1: a computer at seat 0 activates, the person is asked.
    seats = (
        SeatConfig("computer", "random"),
        SeatConfig(),
        SeatConfig("computer", "greedy"),
        SeatConfig("computer", "random"),
    )
    rules = {} if clock == 5 else {"revolution": {"counter_seconds": clock}}
    t = revolution_table(seats, seed=3, rules=rules)
    t.apply(Command(Op.JOIN, seat=1, name="Bo", token=hash_token("bo")), 0.0)
    t.connect(1, 0.0)
    now = 0.0
    t.submit(Command(Op.READY, seat=1), now)
    assert t.game is not None
    deal = t.game.deal
    for _ in range(3000):
        if deal.phase is Phase.COUNTER and 1 in t.asked_seats():
            break
        view = deal.view(1)
        cmd = None
        if view.to_act == 1 and deal.phase is Phase.ACT:
            cmd = Command(Op.ACT, seat=1, cards=None if view.can_pass else view.legal[0].mask)
        elif view.to_act == 1 and deal.phase is Phase.DRAW:
            cmd = Command(Op.DRAW, seat=1)
        t.submit(cmd, now)
        assert t.status == "playing"
    else:
        raise AssertionError("nobody activated a function")
    opened = t.turn_started
    prompt = [e.message() for e in t.events_since(t.v - 10, 1) or [] if e.type == "counter"]
    assert prompt and prompt[-1]["seconds"] == clock
    assert t.counter_deadline() == opened + clock
    assert (
        t.clock(opened + 1)["counter"] is True and t.clock(opened + 1)["ms"] == (clock - 1) * 1000
    )
    # Before the clock runs out the window waits for the person (whatever the others said).
    t.submit(None, opened + clock - 0.1)
    assert deal.phase is Phase.COUNTER and 1 not in t.answers
    applied, events = t.submit(None, opened + clock)
    assert Command(Op.DECLINE, seat=1, by=By.TIMER) in applied
    told = [e.message() for e in events if e.type == "action" and e.message()["seat"] == 1]
    assert told[0]["move"] == "decline" and told[0]["by"] == "timer"


def _four_people_at_a_window(t: TableService) -> int:
    """Four people sit down and play (pass or the cheapest play, one card drawn after a
    pass) until one may activate a function, which they do: the window is then open, and
    nobody has answered it. Returns the seat that activated it."""
    for s in range(4):
        t.apply(Command(Op.JOIN, seat=s, name=f"P{s}", token=hash_token(f"t{s}")), 0.0)
        t.connect(s, 0.0)
    for s in range(4):
        t.submit(Command(Op.READY, seat=s), 0.0)
    assert t.game is not None
    deal = t.game.deal
    # Everyone passes (or plays the cheapest) and draws one card until someone can activate.
    for _ in range(2000):
        if deal.phase is Phase.ACT and deal.activations(deal.turn):
            break
        seat = deal.to_act
        view = deal.view(seat)
        if deal.phase is Phase.DRAW:
            cmd = (
                Command(Op.DRAW, seat=seat)
                if view.draws_taken == 0 and deal.deck_left > 1
                else Command(Op.STOP, seat=seat)
            )
        elif deal.phase is Phase.COUNTER:
            cmd = Command(Op.DECLINE, seat=seat)
        else:
            cmd = Command(Op.ACT, seat=seat, cards=None if view.can_pass else view.legal[0].mask)
        t.submit(cmd, 0.0)
    else:
        raise AssertionError("nobody could activate a function")
    actor = deal.turn
    card, function = deal.activations(actor)[0]
    target = (actor + 1) % 4 if function == "exchange" else None
    give = 1 << deal.exchange_choices(actor)[0] if function == "exchange" else 0
    t.submit(Command(Op.ACTIVATE, seat=actor, cards=1 << card | give, target=target), 0.0)
    assert deal.phase is Phase.COUNTER and not t.answers
    return actor


def four_people(seed: int = SCENARIO_SEED) -> TableService:
    return revolution_table((SeatConfig(),) * 4, seed=seed)


def refusal(t: TableService, cmd: Command) -> Refused:
    """The refusal of ``cmd``, which changes nothing, not even a seat's sync."""
    everyone = (0, 1, 2, 3, None)
    before = (t.v, [json.dumps(t.snapshot(s)) for s in everyone])
    try:
        t.apply(cmd, 0.0)
    except Refused as exc:
        assert (t.v, [json.dumps(t.snapshot(s)) for s in everyone]) == before
        return exc
    raise AssertionError(f"{cmd} was not refused")


def test_an_early_answer_waits_for_its_turn_and_tells_only_its_seat() -> None:
    t = four_people()
    actor = _four_people_at_a_window(t)
    assert t.game is not None
    deal = t.game.deal
    first, second, third = t.asked_seats()
    # The last seat asked answers first: only it is told, and the engine still asks the first.
    _, events = t.submit(Command(Op.DECLINE, seat=third), 0.0)
    assert [(e.type, e.to) for e in events] == [("answered", third)]
    assert deal.responder == first
    again = refusal(t, Command(Op.DECLINE, seat=third))
    assert "answered this function already" in str(again)
    # The first and second decline: the third's answer is applied in its turn, and it stands.
    t.submit(Command(Op.DECLINE, seat=first), 0.0)
    _, events = t.submit(Command(Op.DECLINE, seat=second), 0.0)
    told = [(e.message()["seat"], e.message()["move"]) for e in events if e.type == "action"]
    assert told[:3] == [(second, "decline"), (third, "decline"), (actor, "effect")]
    assert deal.phase is not Phase.COUNTER


def test_the_service_s_own_refusals_of_an_answer_name_their_reason() -> None:
    """The refusals the table makes itself in a counter window carry a reason word and its
    params (docs/protocol.md, "Refusals in any language"), as the engine's do, so a client
    words them in its player's language."""
    t = four_people(seed=16)  # seat 0 activates an exchange; seat 3, asked last, holds Qs*
    actor = _four_people_at_a_window(t)
    assert t.game is not None
    deal = t.game.deal
    assert deal.pending is not None and actor == 0 and t.asked_seats() == [1, 2, 3]
    own = refusal(t, Command(Op.DECLINE, seat=actor))
    assert (own.code, own.params) == ("illegal", {"reason": "own_function", "function": "exchange"})
    assert str(own) == "You activated the function: the other players answer it"
    # Before the engine comes to seat 3: a counter naming no card, or two, and one naming a
    # card that is no Revolution Q (the engine's reason, with the card).
    hand = ids(deal.hands[3])
    queen = next(c for c in hand if deal.function_of(c) == "counter")
    other = next(c for c in hand if deal.function_of(c) != "counter")
    assert text(1 << queen) == "Qs*"
    for cards in (None, 1 << queen | 1 << other):
        named = refusal(t, Command(Op.COUNTER, seat=3, cards=cards))
        assert (named.code, named.params) == ("illegal", {"reason": "name_one_card"})
        assert str(named) == "Name one card"
    no_q = refusal(t, Command(Op.COUNTER, seat=3, cards=1 << other))
    assert (no_q.code, no_q.params) == (
        "illegal",
        {"reason": "only_q_counters", "card": card_symbol(other)},
    )
    # Seat 3 counters early; a second answer, of either kind, is refused with its own.
    t.submit(Command(Op.COUNTER, seat=3, cards=1 << queen), 0.0)
    for again in (Command(Op.DECLINE, seat=3), Command(Op.COUNTER, seat=3, cards=1 << queen)):
        twice = refusal(t, again)
        assert (twice.code, twice.params) == (
            "illegal",
            {"reason": "answered_already", "answer": "counter"},
        )
        assert str(twice) == "You have answered this function already"


@pytest.mark.parametrize(("seed", "answer"), [(SCENARIO_SEED, Op.DECLINE), (16, Op.COUNTER)])
def test_a_seat_s_sync_says_its_own_answer_to_the_open_window_only(seed: int, answer: Op) -> None:
    """A seat that reloads in a counter window it has answered is told so by its sync (so
    it is not asked again); no other seat's sync, nor the spectators', changes at all (it
    says neither that the seat answered nor how, so nothing tells who holds a Q) until the
    engine comes to that seat in turn order."""
    t = four_people(seed)
    actor = _four_people_at_a_window(t)
    assert t.game is not None
    deal = t.game.deal
    first, second, third = t.asked_seats()
    everyone: list[int | None] = [0, 1, 2, 3, None]

    def views() -> dict[int | None, dict[str, Any]]:
        return {s: t.snapshot(s)["view"] for s in everyone}

    before = views()
    assert {s: before[s]["answered"] for s in range(4)} == dict.fromkeys(range(4))
    assert "answered" not in before[None]  # spectators answer nothing
    queens = [c for c in ids(deal.hands[third]) if deal.function_of(c) == "counter"]
    cards = 1 << queens[0] if answer == Op.COUNTER else None
    t.submit(Command(answer, seat=third, cards=cards), 0.0)
    after = views()
    assert after[third]["answered"] == answer.value
    assert {k: v for k, v in after[third].items() if k != "answered"} == {
        k: v for k, v in before[third].items() if k != "answered"
    }
    for s in everyone:  # every other view is exactly what it was
        if s != third:
            assert json.dumps(after[s]) == json.dumps(before[s]), s
    # The first seat asked declines: its own sync says so, the others' still nothing.
    t.submit(Command(Op.DECLINE, seat=first), 0.0)
    mid = views()
    assert (mid[first]["answered"], mid[second]["answered"]) == ("decline", None)
    assert (mid[third]["answered"], mid[actor]["answered"]) == (answer.value, None)
    # The second declines: the third's answer is applied, the window closes, no sync says
    # any answer any more.
    t.submit(Command(Op.DECLINE, seat=second), 0.0)
    assert deal.phase is not Phase.COUNTER
    moves = [(a.seat, a.move) for a in deal.actions[-4:]]
    assert (third, Move(answer.value)) in moves
    assert [views()[s]["answered"] for s in range(4)] == [None] * 4


# -- durability -------------------------------------------------------------------------------------
def test_a_table_rebuilt_from_its_log_is_the_same_table() -> None:
    t = revolution_table(seed=SCENARIO_SEED, deals=2)
    commands, _ = play_person_room(t)
    stored = [Command.from_log(json.loads(json.dumps(c.to_log()))) for c in commands]
    again = TableService.restore(t.config, "REVO", stored, 0.0)
    again.connect(0, 0.0)  # presence is not stored: the person is back
    assert again.status == t.status == "finished"
    assert again.v == t.v and again.state_v == t.state_v
    assert json.dumps(again.info()) == json.dumps(t.info())
    for seat in (0, 1, 2, 3, None):
        assert json.dumps(again.snapshot(seat)) == json.dumps(t.snapshot(seat))
        mine = t.events_since(0, seat)
        assert mine is not None or t.events_since(t.v - 50, seat) is not None
    assert again._texts == t._texts
    assert again.game is not None and t.game is not None
    assert write_revolution_text(again.game) == write_revolution_text(t.game)


def test_a_snapshot_thaws_into_the_same_revolution_table() -> None:
    t = revolution_table(seed=SCENARIO_SEED)
    seat_person(t)
    for _ in range(40):
        t.submit(person_command(t), 0.0)
    thawed = TableService.thaw(t.freeze(), t.config, "REVO")
    thawed.connect(0, 0.0)  # presence is not in a snapshot
    for seat in (0, 1, None):
        assert json.dumps(thawed.snapshot(seat)) == json.dumps(t.snapshot(seat))


# -- nothing leaks ----------------------------------------------------------------------------------
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), person=st.booleans())
def test_no_event_holds_a_card_its_recipient_may_not_see(seed: int, person: bool) -> None:
    """Each event sent to a seat (or the spectators) names only cards that the recipient's
    own view shows at that moment or showed before: never another seat's face-down draw,
    an exchange's card given elsewhere, or a card in another hand, until the hand is over."""
    t = revolution_table(ONE_PERSON if person else COMPUTERS, seed=seed)
    recipients: list[int | None] = [0, 1, 2, 3, None]
    known: dict[int | None, set[int]] = {r: set() for r in recipients}
    if person:
        seat_person(t)
    else:
        t._start(0.0)
    assert t.game is not None

    def learn() -> None:
        deal = t.game.deal  # type: ignore[union-attr]
        for r in recipients:
            view = deal.view(r)
            shown = view.hand | view.played | view.discards
            shown |= sum(1 << c for c in view.gathering)
            for a in view.actions:
                shown |= a.cards | a.given
            known[r] |= set(ids(shown))

    learn()
    for _ in range(5000):
        if t.status != "playing":
            break
        cmd = person_command(t) if person else None
        if cmd is None:
            cmd = t.due(1e9)
        assert cmd is not None
        events = t.apply(cmd, 1e9)
        learn()
        for event in events:
            if event.type in ("deal_end", "match_end"):
                continue  # the hand is over: what every seat held is public now
            for r in recipients:
                if event.reaches(r):
                    hidden = cards_in(event) - known[r]
                    assert not hidden, (event.json(), r, hidden)
    assert t.status == "finished"


def test_a_snapshot_from_before_revolution_tables_still_thaws() -> None:
    """A 52-card table's snapshot stored before the expansion's state existed."""
    from bigtwo.service.table import SNAPSHOT_FORMAT, _SnapshotPickler, _SnapshotUnpickler

    t = TableService(TableConfig(seed=2, deals=1), "OLD")
    data = t.freeze()
    fmt, state = _SnapshotUnpickler(io.BytesIO(zlib.decompress(data))).load()
    for key in ("revolution", "answers", "window_v"):
        del state[key]
    out = io.BytesIO()
    _SnapshotPickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump((SNAPSHOT_FORMAT, state))
    old = TableService.thaw(zlib.compress(out.getvalue()), t.config, "OLD")
    assert old.game is None and old.answers == {}
    assert json.dumps(old.snapshot(0)) == json.dumps(t.snapshot(0))


def test_a_revolution_snapshot_from_before_the_one_catalogue_still_thaws() -> None:
    """A revolution table frozen (31 of the person's commands in, Js on the table) by bigtwo
    before the expansion's plays joined the one catalogue: it thaws into the table the same
    commands make now, and plays on to the end as that table does."""
    from pathlib import Path

    from bigtwo.engine.plays import Catalog

    data = (
        Path(__file__).parent / "golden/revolution-snapshot-before-one-catalogue.bin"
    ).read_bytes()
    t = revolution_table(seed=SCENARIO_SEED)
    seat_person(t)
    for _ in range(31):
        t.submit(person_command(t), 0.0)
    old = TableService.thaw(data, t.config, "REVO")
    old.connect(0, 0.0)  # presence is not in a snapshot
    assert old.game is not None and isinstance(old.game.deal.cards, Catalog)
    assert str(old.game.deal.to_beat) == "Js"
    for seat in (0, 1, None):
        assert json.dumps(old.snapshot(seat)) == json.dumps(t.snapshot(seat))
    for table in (old, t):
        for _ in range(2000):
            if table.status != "playing":
                break
            table.submit(person_command(table), 0.0)
    assert old.status == t.status == "finished"
    assert old.game is not None and t.game is not None
    assert write_revolution_text(old.game) == write_revolution_text(t.game)


def test_a_snapshot_names_the_tables_values_where_the_first_snapshots_did() -> None:
    """A snapshot names the classes in it by module path: the table's own values (its status,
    a seat and who controls it) keep ``bigtwo.service.table``, where the first snapshots
    found them, so that the snapshots of every version (and the servers of a cluster that
    run two versions at once) read each other's."""
    from bigtwo.service.table import _SnapshotUnpickler

    named: set[tuple[str, str]] = set()

    class Reader(_SnapshotUnpickler):
        def find_class(self, module: str, name: str) -> Any:
            named.add((module, name))
            return super().find_class(module, name)

    t = revolution_table(seed=SCENARIO_SEED)
    seat_person(t)
    for _ in range(40):
        t.submit(person_command(t), 0.0)
    plain = TableService(TableConfig(seats=ONE_PERSON, seed=2, deals=1), "OLD")
    plain.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t")), 0.0)
    plain.submit(Command(Op.READY, seat=0), 0.0)
    for table in (t, plain):
        Reader(io.BytesIO(zlib.decompress(table.freeze()))).load()
    ours = {(module, name) for module, name in named if module.startswith("bigtwo.service")}
    assert {"Seat", "Control", "TableStatus"} <= {
        name for module, name in ours if module == "bigtwo.service.table"
    }
    assert {module for module, _ in ours} <= {
        "bigtwo.service.table",
        "bigtwo.service.commands",
        "bigtwo.service.config",
        "bigtwo.service.events",
    }


def test_an_action_id_names_one_action() -> None:
    """Retried, an id is applied once; used again for another move, it is refused."""
    t = revolution_table(seed=SCENARIO_SEED)
    seat_person(t)
    assert t.game is not None
    deal = t.game.deal
    for _ in range(200):  # on to the person's first pass: they may draw
        if deal.phase is Phase.DRAW and deal.turn == 0:
            break
        t.submit(person_command(t), 0.0)
    else:
        raise AssertionError("the person never passed")
    first = t.submit(Command(Op.STOP, seat=0, id="x1"), 0.0)[1]
    try:
        t.apply(Command(Op.STOP, seat=0, id="x1"), 0.0)
    except AlreadyApplied as exc:
        assert exc.v == first[0].v
    else:
        raise AssertionError("a retried id was applied again")
    for other in (Command(Op.DECLINE, seat=0, id="x1"), Command(Op.ACT, seat=0, id="x1")):
        try:
            t.apply(other, 0.0)
        except Refused as exc:
            assert exc.code == "id_reused", exc
        else:
            raise AssertionError(f"{other} reused an id")


def test_the_table_is_of_its_game_and_holds_one_match() -> None:
    """``TableService(config)`` makes the table of the config's game, whose one ``game`` is
    the match it plays; the snapshot keeps it under the key of the first snapshots."""
    from bigtwo.match.revolution import RevolutionMatch
    from bigtwo.service.table import BigTwoService, RevolutionService, _SnapshotUnpickler

    t = revolution_table(COMPUTERS)
    plain = TableService(TableConfig(seats=COMPUTERS), "PLAIN")
    assert type(t) is RevolutionService and type(plain) is BigTwoService
    t._start(0.0)
    assert isinstance(t.game, RevolutionMatch)
    _, state = _SnapshotUnpickler(io.BytesIO(zlib.decompress(t.freeze()))).load()
    assert state["revolution"] is not None and state["match"] is None and "game" not in state
    thawed = TableService.thaw(t.freeze(), t.config, "REVO")
    assert type(thawed) is RevolutionService and thawed.game is not None


def _played_out(t: TableService, limit: int = 5000) -> None:
    for _ in range(limit):
        cmd = t.due(1e9)
        if cmd is None:
            return
        t.apply(cmd, 1e9)


def test_a_finished_revolution_table_opens_a_new_game() -> None:
    """A rematch is announced at a finished revolution table, as at any other."""
    t = revolution_table(COMPUTERS)
    t._start(0.0)
    _played_out(t)
    assert t.status == "finished"
    events = t.apply(Command(Op.REMATCH, seat=0, text="NEW123"), 0.0)
    assert [(e.type, e.data["code"]) for e in events] == [("rematch", "NEW123")]


def test_a_new_computer_level_plays_from_the_next_hand_of_the_revolution() -> None:
    """A level chosen mid-match (a local table's Preferences) is told as from the next hand,
    and the computers play at it from then on, as at a table of the 52-card game."""
    t = revolution_table(COMPUTERS, deals=2, between_deals_seconds=None)
    t._start(0.0)
    events = t.apply(Command(Op.LEVEL, value={"level": "classic"}), 0.0)
    assert [(e.type, e.data["from_deal"]) for e in events] == [("level", 2)]
    assert t.seats[1].config.level == "random"
    for _ in range(5000):
        if t.between is not None:
            break
        cmd = t.due(1e9)
        assert cmd is not None
        t.apply(cmd, 1e9)
    t.apply(Command(Op.DEAL), 1e9)
    assert t.game is not None and t.game.deal_number == 2
    assert [s.config.level for s in t.seats] == ["classic"] * 4
    assert all(s.computer is None or s.computer.level == "classic" for s in t.seats)
