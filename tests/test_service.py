"""The table service without any network: configuration checks, the lobby, refusals that
change nothing, retried ids, staleness, computer and timer moves, takeover and handback,
events reproduced from the log, resync, chat, quitting, and that no event reaching a seat holds
another seat's cards."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bigtwo.engine.cards import to_mask
from bigtwo.service import (
    AlreadyApplied,
    Command,
    ConfigError,
    Group,
    Op,
    Refused,
    SeatConfig,
    TableConfig,
    TableService,
    hash_token,
)
from bigtwo.service.config import DEFAULT_BETWEEN_DEALS
from bigtwo.service.request import table_config

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][dchs])(?![A-Za-z0-9])")
HUMANS = (SeatConfig(), SeatConfig(), SeatConfig(), SeatConfig())
ONE_HUMAN = (
    SeatConfig(),
    SeatConfig("computer"),
    SeatConfig("computer", "random"),
    SeatConfig("computer"),
)


def table(seats: tuple[SeatConfig, ...] = HUMANS, **options: Any) -> TableService:
    options.setdefault("seed", 4)
    options.setdefault("deals", 1)
    return TableService(TableConfig(seats=seats, **options), "TEST")


def seat_everyone(t: TableService, now: float = 0.0) -> list[Any]:
    """Join and ready every human seat, connected; returns all events."""
    events: list[Any] = []
    for s in t.free_seats():
        events += t.apply(Command(Op.JOIN, seat=s, name=f"P{s}", token=hash_token(f"tok{s}")), now)
        t.connect(s, now)
    for s in range(len(t.seats)):
        if t.seats[s].human:
            events += t.submit(Command(Op.READY, seat=s), now)[1]
    return events


def state_of(t: TableService) -> tuple[Any, ...]:
    views = [json.dumps(t.snapshot(s)["view"]) for s in (0, 1, 2, 3, None)]
    return (t.v, t.state_v, json.dumps(t.info()), *views)


def play_out(t: TableService, now: float = 0.0, limit: int = 2000) -> list[Any]:
    """Play to the end: humans play their cheapest play (or pass), computers on their own."""
    events: list[Any] = []
    for _ in range(limit):
        if t.status != "playing":
            return events
        assert t.game is not None
        seat = t.game.deal.turn
        view = t.game.deal.view(seat)
        cards = view.legal[0].mask if view.legal else None
        events += t.submit(Command(Op.ACT, seat=seat, cards=cards, seen=t.state_v), now)[1]
    raise AssertionError("the match did not end")


# -- configuration ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ({"colour": 1}, "Unknown room option 'colour'"),
        ({"preset": "snap"}, "Unknown preset 'snap'"),
        ({"seats": ["human"] * 3}, "textbook is played by 4 players, not 3"),
        ({"seats": ["computer"] * 4}, "At least one seat must be for a human"),
        ({"seats": ["human", "robot", "human", "human"]}, "kind must be 'human' or 'computer'"),
        ({"seats": ["computer:genius"] + ["human"] * 3}, "unknown computer level 'genius'"),
        ({"deals": 0}, "'deals' must be a whole number from 1"),
        ({"turn_seconds": "soon"}, "'turn_seconds' must be a number of seconds"),
        ({"seed": 5}, "does not accept a chosen seed"),
        ({"rules": {"colour": 1}}, "unknown option 'colour'"),
        (
            {"preset": "textbook", "rules": {"deals_per_game": 10000}},
            "A room plays at most 1000 deals, not 10000",
        ),
    ],
)
def test_bad_room_requests_say_what_is_wrong(request_: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(words)):
        table_config(request_)


def test_config_round_trips_and_hides_its_seed() -> None:
    config = table_config(
        {"preset": "palm", "seats": ["human", "computer:random", "human", "computer"], "deals": 3,
         "seed": 9, "turn_seconds": 20, "title": "  Friday\x00 night "},
        allow_seed=True,
    )  # fmt: skip
    assert config.title == "Friday night" and config.seed == 9 and config.seeded
    assert TableConfig.from_json(json.loads(json.dumps(config.to_json()))) == config
    assert "seed" not in config.public_json()
    assert not table_config({}).seeded
    # a room's own number of deals decides over the rules' length of a game
    capped = table_config({"rules": {"deals_per_game": 10000}, "deals": 1000})
    assert capped.deals == 1000


# -- the lobby ------------------------------------------------------------------------------------
def test_lobby_seats_readies_and_starts() -> None:
    t = table()
    assert t.free_seats() == [0, 1, 2, 3]
    t.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("a")), 0)
    with pytest.raises(Refused, match="Seat 0 is taken"):
        t.apply(Command(Op.JOIN, seat=0, name="Bob", token=hash_token("b")), 0)
    assert t.seat_of_token("a") == 0 and t.seat_of_token("b") is None
    t.apply(Command(Op.READY, seat=0), 0)
    t.apply(Command(Op.LEAVE, seat=0), 0)
    assert t.free_seats() == [0, 1, 2, 3] and t.seat_of_token("a") is None
    events = seat_everyone(t)
    assert [e.type for e in events][-7:] == [
        "started",
        "deal",
        "hand",
        "hand",
        "hand",
        "hand",
        "turn",
    ]
    assert t.status == "playing"
    with pytest.raises(Refused, match="already started"):
        t.apply(Command(Op.JOIN, seat=0, name="Late", token=hash_token("z")), 0)


def test_a_name_already_at_the_table_is_told_apart() -> None:
    # A person called like a computer, or like someone already seated, sits as "Name (2)";
    # a seat given up frees its name again.
    t = table((SeatConfig(), SeatConfig("computer", name="Ann"), SeatConfig(), SeatConfig()))

    def join(seat: int, name: str) -> list[Any]:
        return t.apply(Command(Op.JOIN, seat=seat, name=name, token=hash_token(f"t{seat}")), 0)

    events = join(0, "ann")
    assert t.seats[0].name == "ann (2)" and events[-1].data["name"] == "ann (2)"
    join(2, "Ann")
    assert t.seats[2].name == "Ann (3)"
    t.apply(Command(Op.LEAVE, seat=0), 0)
    join(3, "ANN")
    assert t.seats[3].name == "ANN (2)"  # seat 0's "ann (2)" left
    join(0, "a" * 24)
    t.apply(Command(Op.LEAVE, seat=2), 0)
    join(2, "A" * 24)
    assert t.seats[2].name == "A" * 20 + " (2)"  # still 24 characters
    assert [s.name for s in t.seats] == ["a" * 24, "Ann", "A" * 20 + " (2)", "ANN (2)"]


def test_computer_seats_are_ready_at_once() -> None:
    t = table(ONE_HUMAN)
    assert t.free_seats() == [0]
    seat_everyone(t)
    assert t.status == "playing"


# -- refusals -----------------------------------------------------------------------------------------
def test_refused_commands_change_nothing() -> None:
    t = table()
    seat_everyone(t)
    assert t.game is not None
    turn = t.game.deal.turn
    other = (turn + 1) % 4
    view = t.game.deal.view(turn)
    before = state_of(t)
    tries = [
        (Command(Op.ACT, seat=other, cards=None, seen=t.state_v), "not_your_turn"),
        (Command(Op.ACT, seat=turn, cards=None, seen=t.state_v), "illegal"),  # a leader cannot pass
        (Command(Op.ACT, seat=turn, cards=t.game.deal.view(other).hand & -t.game.deal.view(other).hand, seen=t.state_v), "illegal"),
        (Command(Op.ACT, seat=turn, cards=view.legal[0].mask, seen=t.state_v - 1), "stale"),
        (Command(Op.ACT, seat=turn, cards=1 << 60), "bad_cards"),
        (Command(Op.ACT, seat=7, cards=None), "no_seat"),
        (Command(Op.READY, seat=turn), "started"),
        (Command(Op.HANDBACK, seat=turn), "bad_command"),
        (Command(Op.CHAT, seat=turn, text="   "), "bad_command"),
    ]  # fmt: skip
    for cmd, code in tries:
        with pytest.raises(Refused) as refused:
            t.submit(cmd, 0)
        assert refused.value.code == code, (cmd, refused.value)
        assert str(refused.value)  # a reason in words
        assert state_of(t) == before
    with pytest.raises(ValueError, match="Unknown command 'dance' \\(known: join, leave, "):
        Command("dance", seat=turn)  # type: ignore[arg-type]


def test_a_retried_action_id_is_applied_once() -> None:
    t = table()
    seat_everyone(t)
    assert t.game is not None
    turn = t.game.deal.turn
    cards = t.game.deal.view(turn).legal[0].mask
    _, events = t.submit(Command(Op.ACT, seat=turn, cards=cards, id="x1", seen=t.state_v), 0)
    after = state_of(t)
    with pytest.raises(AlreadyApplied) as again:
        t.submit(Command(Op.ACT, seat=turn, cards=cards, id="x1", seen=0), 0)
    assert again.value.v == events[0].v and state_of(t) == after


# -- playing --------------------------------------------------------------------------------------------
def test_a_match_plays_to_its_end_with_numbered_events() -> None:
    t = table(ONE_HUMAN, deals=2, seed=11)
    events = seat_everyone(t) + play_out(t)
    assert t.status == "finished" and t.game is not None and t.game.over
    numbers = [e.v for e in events]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers))) and numbers[-1] == t.v
    kinds = [e.type for e in events]
    assert kinds.count("deal") == 2 and kinds.count("deal_end") == 2 and kinds[-1] == "match_end"
    assert {e.data["by"] for e in events if e.type == "action"} >= {"player", "computer", "auto"}


def test_no_event_holds_a_card_its_audience_may_not_see() -> None:
    """Before a deal ends no event names a card its recipient may not see; ``deal_end`` then
    makes every seat's cards left public, exactly as they were."""
    for seed in (1, 2, 3):
        t = table(ONE_HUMAN, deals=2, seed=seed)
        events = seat_everyone(t) + play_out(t)
        assert t.game is not None
        dealt = {r.number: r.dealt for r in t.game.results}
        left = {r.number: r.cards_left for r in t.game.results}
        for seat in (0, 1, 2, 3, None):
            played, deal = 0, 0
            for e in events:
                if not e.reaches(seat):
                    continue
                if e.type == "deal":
                    deal, played = e.data["deal"], 0
                if e.type == "action" and e.data["cards"]:
                    played |= to_mask(e.data["cards"])
                data = e.message()
                if e.type == "deal_end":
                    # Public now, and true: what each seat held when the deal ended.
                    assert [to_mask(c) for c in data.pop("left")] == list(left[e.data["deal"]])
                own = dealt[deal][seat] if (seat is not None and deal) else 0
                for token in CARD.findall(json.dumps(data)):
                    assert to_mask(token) & (own | played), (seat, e)
                if e.type in ("hand", "turn"):
                    assert e.to == seat and seat is not None
        # The room, which anyone may read, shows cards only of deals that are over.
        assert [r["left"] for r in t.info()["results"]] == [
            e.data["left"] for e in events if e.type == "deal_end"
        ]


def test_timer_moves_for_a_silent_player() -> None:
    t = table(ONE_HUMAN, turn_seconds=5.0, seed=6)
    seat_everyone(t, now=100.0)
    assert t.game is not None
    while t.game.deal.turn != 0:  # computers move at once; wait for the human's turn
        t.submit(None, 100.0)
    assert t.deadline() == 105.0 and t.due(104.9) is None
    cmd = t.due(105.0)
    assert cmd is not None and cmd.op == Op.ACT and cmd.by == "timer"
    events = t.submit(None, 105.0)[1]
    assert events[0].data["by"] == "timer" and events[0].data["seat"] == 0


def test_computer_takes_over_while_away_and_hands_back() -> None:
    t = table(away_seconds=2.0)
    seat_everyone(t, now=10.0)
    t.disconnect(1, now=10.0)
    assert t.deadline() == 12.0 and t.due(11.9) is None
    cmd = t.due(12.0)
    assert cmd == Command(Op.TAKEOVER, seat=1)
    events = t.submit(None, 12.0)[1]
    assert events[0].type == "control" and events[0].data == {
        "seat": 1,
        "control": "computer",
        "reason": "away",
    }
    play_to = t.v + 200
    while (
        t.status == "playing"
        and t.v < play_to
        and not any(e.type == "action" and e.data["seat"] == 1 for e in events[1:])
    ):
        assert t.game is not None
        seat = t.game.deal.turn
        view = t.game.deal.view(seat)
        events += t.submit(
            Command(Op.ACT, seat=seat, cards=view.legal[0].mask if view.legal else None), 12.0
        )[1]
    assert any(
        e.type == "action" and e.data["seat"] == 1 and e.data["by"] == "computer" for e in events
    )
    t.connect(1, now=13.0)
    back = t.submit(None, 13.0)[1]
    assert back[0].type == "control" and back[0].data["control"] == "player"


def test_computers_wait_while_nobody_is_at_the_table() -> None:
    t = table(ONE_HUMAN, away_seconds=None, seed=2)
    seat_everyone(t)
    t.disconnect(0, now=1.0)
    assert t.due(50.0) is None and t.deadline() is None
    t.connect(0, now=60.0)
    assert t.game is not None
    if t.game.deal.turn != 0:
        assert t.due(60.0) is not None


# -- the log, resync -----------------------------------------------------------------------------
def test_the_log_rebuilds_the_same_events() -> None:
    config = TableConfig(seats=ONE_HUMAN, seed=13, deals=2, away_seconds=1.0)
    t = TableService(config, "TEST", resync_gap=10**9)
    log: list[Command] = []
    cmd = Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t"))
    t.apply(cmd, 0)
    log.append(cmd)
    t.connect(0, 0)
    for cmd in (Command(Op.READY, seat=0), Command(Op.CHAT, seat=0, text="hi <there>")):
        log += t.submit(cmd, 0)[0]
    while t.status == "playing":
        assert t.game is not None
        view = t.game.deal.view(0)
        cmd = Command(
            Op.ACT, seat=0, cards=view.legal[0].mask if view.legal else None, id=f"a{t.v}"
        )
        log += t.submit(cmd, 0)[0]
    stored = [Command.from_log(json.loads(json.dumps(c.to_log()))) for c in log]
    again = TableService.restore(config, "TEST", stored, now=0, resync_gap=10**9)
    t.disconnect(0, 0)  # presence is not stored: a restored table starts with nobody there
    assert again.v == t.v and again.state_v == t.state_v and again.info() == t.info()
    for seat in (0, 1, 2, 3, None):
        live = t.events_since(0, seat)
        rebuilt = again.events_since(0, seat)
        assert live and rebuilt and [e.json() for e in live] == [e.json() for e in rebuilt]
    with pytest.raises(AlreadyApplied):  # the memory of applied ids is rebuilt too
        again.apply(next(c for c in stored if c.id), 0)


def test_events_since_or_resync() -> None:
    t = TableService(TableConfig(seats=ONE_HUMAN, seed=1, deals=1), "T", resync_gap=5)
    seat_everyone(t)
    play_out(t)
    assert t.events_since(t.v, 0) == []
    assert t.events_since(t.v + 3, 0) is None  # ahead of the table: resync
    assert t.events_since(0, 0) is None  # too far behind: resync
    recent = t.events_since(t.v - 3, 0)
    assert recent is not None and [e.v for e in recent] == [t.v - 2, t.v - 1, t.v]
    snapshot = t.snapshot(2)
    assert snapshot["v"] == t.v and snapshot["view"]["seat"] == 2 and "hand" in snapshot["view"]
    assert "hand" not in t.snapshot(None)["view"]


# -- chat and quitting ------------------------------------------------------------------------------
def test_chat_is_cleaned_and_addressed() -> None:
    t = table()
    seat_everyone(t)
    [line] = t.apply(
        Command(Op.CHAT, seat=2, text="  <script>alert(1)</script>\x07 " + "x" * 400), 0
    )
    # Plain text, not HTML: whoever shows it escapes it.
    assert line.to == Group.ALL and line.data["text"].startswith("<script>alert(1)</script> x")
    assert len(line.data["text"]) < 330
    [aside] = t.apply(Command(Op.CHAT, seat=None, name="Watcher", text="hello"), 0)
    assert aside.to == Group.SPECTATORS and not aside.reaches(0) and aside.reaches(None)


def test_quitting() -> None:
    t = table(ONE_HUMAN[:1] + (SeatConfig(),) + ONE_HUMAN[2:], seed=8)
    t.apply(Command(Op.JOIN, seat=0, name="A", token=hash_token("a")), 0)
    [left, host] = t.apply(Command(Op.QUIT, seat=0), 0)
    assert left.type == "left" and left.data["reason"] == "left" and t.free_seats() == [0, 1]
    assert host.type == "host" and host.data["seat"] is None and t.host is None
    seat_everyone(t)
    [quit_] = t.apply(Command(Op.QUIT, seat=1), 0)
    assert quit_.type == "quit" and t.seats[1].control == "quit" and t.seat_of_token("tok1") is None
    play_out(t)  # a computer plays seat 1 to the end
    assert t.status == "finished" and t.closed_reason == "match over"
    t2 = table(ONE_HUMAN)
    seat_everyone(t2)
    events = t2.apply(Command(Op.QUIT, seat=0), 0)
    assert [e.type for e in events] == ["quit", "host", "closed"] and t2.status == "finished"


# -- what the score sheet needs, avatars, the clock ----------------------------------------------
def test_deal_end_shows_cards_left_and_multipliers() -> None:
    """Palm doubles a loser left with ten or more cards: ``deal_end`` and the room say so, as
    the scoring computed it, beside the cards each seat still held."""
    from bigtwo.match.scoring import score_deal

    found = False
    for seed in range(1, 400):
        t = table(ONE_HUMAN, preset="palm", seed=seed)
        events = seat_everyone(t) + play_out(t)
        [end] = [e for e in events if e.type == "deal_end"]
        assert t.game is not None
        result = t.game.results[0]
        score = score_deal(t.ruleset, result.cards_left, result.winner)
        assert end.data["multipliers"] == list(score.multipliers)
        assert end.data["counts"] == [len(c.split()) for c in end.data["left"]]
        [room] = t.info()["results"]
        assert room["multipliers"] == end.data["multipliers"] and room["left"] == end.data["left"]
        if 2 in end.data["multipliers"]:
            found = True
            break
    assert found, "no seed gave a DOUBLE!"


def test_avatars_are_kept_per_seat_and_checked() -> None:
    t = table()
    [joined] = t.apply(Command(Op.JOIN, seat=1, name="Ann", token=hash_token("a"), avatar=5), 0)
    assert joined.data == {"seat": 1, "name": "Ann", "avatar": 5}
    assert t.info()["seats"][1]["avatar"] == 5 and t.info()["seats"][0]["avatar"] is None
    for bad in (8, -1, True):
        with pytest.raises(Refused, match="avatar"):
            t.apply(Command(Op.JOIN, seat=2, name="Bo", token=hash_token("b"), avatar=bad), 0)  # type: ignore[arg-type]
    assert Command.from_log(Command(Op.JOIN, seat=1, avatar=5).to_log()).avatar == 5
    t.apply(Command(Op.LEAVE, seat=1), 0)
    assert t.info()["seats"][1]["avatar"] is None


def test_clock_for_the_turn_in_a_resync() -> None:
    t = table(ONE_HUMAN, turn_seconds=20.0, seed=6)
    seat_everyone(t, now=100.0)
    assert t.game is not None
    while t.game.deal.turn != 0:
        t.submit(None, 100.0)
    assert t.clock(105.5) == {"seat": 0, "ms": 14500}
    assert t.snapshot(0, now=105.5)["clock"] == {"seat": 0, "ms": 14500}
    assert "clock" not in t.snapshot(0)  # no clock asked for, none given
    assert table(ONE_HUMAN).clock(0.0) is None  # no timer


# -- between deals ---------------------------------------------------------------------------------
def finish_deal(t: TableService, now: float) -> list[Any]:
    """Play the deal in progress to its end (humans' cheapest plays)."""
    events: list[Any] = []
    assert t.game is not None
    number = t.game.deal_number
    while t.game.deal_number == number and not t.game.deal.over:
        seat = t.game.deal.turn
        view = t.game.deal.view(seat)
        cards = view.legal[0].mask if view.legal else None
        events += t.submit(Command(Op.ACT, seat=seat, cards=cards, seen=t.state_v), now)[1]
    return events


def test_between_deals_defaults() -> None:
    assert table_config({"turn_seconds": 30}).between_deals_seconds == DEFAULT_BETWEEN_DEALS
    assert DEFAULT_BETWEEN_DEALS >= 60  # time to read the sheet; "next" from all starts it sooner
    # One person with computers: the score sheet waits for their "Next deal", timer or not.
    alone = {"seats": ["human", "computer", "computer", "computer"], "turn_seconds": 30}
    assert table_config(alone).between_deals_seconds is None
    # Without a timer the next deal waits for the players' "next", however long they read.
    assert table_config({"turn_seconds": None}).between_deals_seconds is None
    # A public room has a turn timer by default, so it waits between deals too.
    assert table_config({}).between_deals_seconds == DEFAULT_BETWEEN_DEALS
    assert table_config({"public": False}).between_deals_seconds is None
    assert table_config({"between_deals_seconds": 0}).between_deals_seconds == 0.0
    assert table_config({"between_deals_seconds": None}).between_deals_seconds is None
    assert table_config({"between_deals_seconds": 3}).between_deals_seconds == 3.0
    with pytest.raises(ConfigError, match="between_deals_seconds"):
        table_config({"between_deals_seconds": -1})
    # A configuration stored before the option existed plays as it did: no pause.
    stored = TableConfig(seats=HUMANS).to_json()
    del stored["between_deals_seconds"]
    assert TableConfig.from_json(stored).between_deals_seconds == 0.0


def test_the_next_deal_waits_for_every_player_or_the_time() -> None:
    t = table(HUMANS[:2] + ONE_HUMAN[2:], deals=3, turn_seconds=30.0, between_deals_seconds=8.0)
    seat_everyone(t, now=0.0)
    events = finish_deal(t, now=1.0)
    [end] = [e for e in events if e.type == "deal_end"]
    assert end.data["next_deal"] == {"deal": 2, "seconds": 8.0, "waiting": [0, 1]}
    assert events[-1].type == "deal_end"  # no deal yet: the score sheet is being read
    assert t.turn_deadline() is None and t.clock(3.0) == {"seat": None, "ms": 6000, "next_deal": 2}
    assert t.deadline() == 9.0 and t.due(8.9) is None
    assert t.info()["next_deal"]["waiting"] == [0, 1]
    with pytest.raises(Refused) as refused:
        t.apply(Command(Op.ACT, seat=0, cards=None), 2.0)
    assert refused.value.code == "between_deals"
    _, said = t.submit(Command(Op.NEXT, seat=0), 2.0)
    assert [e.type for e in said] == ["next"] and said[0].data == {"seat": 0, "deal": 2}
    assert t.info()["next_deal"]["waiting"] == [1]
    applied, started = t.submit(Command(Op.NEXT, seat=1), 3.0)  # the last one: the deal starts
    assert [c.op for c in applied][:2] == ["next", "deal"]
    assert [e.type for e in started][:3] == ["next", "deal", "hand"]
    assert t.between is None and t.info()["next_deal"] is None
    with pytest.raises(Refused, match="not waiting"):
        t.apply(Command(Op.NEXT, seat=0), 3.0)
    # Deal 2: nobody says next; after 8 seconds the table deals on. A player who is away
    # (not connected) is not waited for.
    finish_deal(t, now=10.0)
    t.disconnect(1, 10.0)
    assert t.due(17.9) is None
    assert t.due(18.0) == Command("deal")
    assert [e.type for e in t.submit(None, 18.0)[1]][:2] == ["deal", "hand"]


def test_the_pause_between_deals_replays_from_the_log() -> None:
    config = TableConfig(seats=ONE_HUMAN, seed=3, deals=2, between_deals_seconds=5.0)
    t = TableService(config, "T", resync_gap=10**9)
    log = [Command(Op.JOIN, seat=0, name="A", token=hash_token("a"), avatar=2)]
    t.apply(log[0], 0)
    t.connect(0, 0)
    log += t.submit(Command(Op.READY, seat=0), 0)[0]
    while t.between is None:
        assert t.game is not None
        view = t.game.deal.view(0)
        log += t.submit(
            Command(Op.ACT, seat=0, cards=view.legal[0].mask if view.legal else None), 0
        )[0]
    log += t.submit(Command(Op.NEXT, seat=0), 1)[0]
    assert t.between is None and t.game is not None and t.game.deal_number == 2
    again = TableService.restore(config, "T", log, now=0, resync_gap=10**9)
    t.disconnect(0, 0)
    assert again.v == t.v and again.info() == t.info()
    assert [e.json() for e in again.events_since(0, 0) or []] == [
        e.json() for e in t.events_since(0, 0) or []
    ]


def test_a_rematch_is_announced_once_the_match_is_over() -> None:
    t = table(ONE_HUMAN)
    seat_everyone(t)
    with pytest.raises(Refused) as early:
        t.apply(Command(Op.REMATCH, seat=0, text="NEWONE"), 0)
    assert early.value.code == "not_over"
    play_out(t)
    [event] = t.apply(Command(Op.REMATCH, seat=0, text="NEWONE"), 0)
    assert event.type == "rematch" and event.data == {"code": "NEWONE", "by": 0}
    assert event.to == Group.ALL and t.info()["rematch"] == "NEWONE"
    with pytest.raises(Refused, match="already"):
        t.apply(Command(Op.REMATCH, seat=0, text="OTHER1"), 0)


# -- computers thinking elsewhere ---------------------------------------------------------------
def test_offloaded_computers_think_through_requests() -> None:
    """With ``offload``, a computer's move is never computed inside ``submit``: the runner asks
    for a request, decides elsewhere, and brings the choice back; a choice for a position the
    table has left is thrown away."""
    t = TableService(
        TableConfig(seats=ONE_HUMAN, seed=9, deals=1, computer_delay=1.0),
        "T",
        offload=lambda level: level != "random",
    )
    seat_everyone(t, now=0.0)
    assert t.game is not None
    moved, now = 0, 0.0
    while t.status == "playing" and moved < 30:
        now += 5.0  # later than any computer delay
        seat = t.game.deal.turn
        if seat == 0:
            view = t.game.deal.view(0)
            t.submit(Command(Op.ACT, seat=0, cards=view.legal[0].mask if view.legal else None), now)
            continue
        if t.seats[seat].config.level == "random":  # thinks here, as before
            assert t.think_request() is None and t.due(now) is not None
            t.submit(None, now)
            continue
        assert t.due(now) is None and t.deadline() is None
        request = t.think_request()
        assert request is not None and request.seat == seat and request.view.seat == seat
        choice = request.bot.choose(request.view, request.rng)
        command = t.think_command(request, None if choice is None else choice.mask)
        assert command is not None and command.by == "computer"
        t.submit(command, now)
        moved += 1
        # The same request again is stale now.
        assert t.think_command(request, None if choice is None else choice.mask) is None
    assert moved >= 5


def test_palm_computer_players_are_told_which_seats_people_hold() -> None:
    from bigtwo.bots.classic import ClassicBot

    seats = (
        SeatConfig("computer", "classic"),
        SeatConfig("computer", "classic"),
        SeatConfig(),
        SeatConfig("computer", "greedy"),
    )
    t = table(seats)
    seat_everyone(t)
    bot = t.computer_of(t.seats[0]).bot
    assert isinstance(bot, ClassicBot) and bot.humans == frozenset({2})
    play_out(t)
    assert t.status == "finished"


def test_the_legal_plays_are_worked_out_once_for_each_state(monkeypatch: Any) -> None:
    """The seat's prompt and its timer read the same legal plays: the deal works them out
    once for each state, and afresh after every action (never the ones of a state gone)."""
    from bigtwo.engine.cards import card_text
    from bigtwo.engine.trick import Trick

    worked_out = [0]
    legal_plays = Trick.legal_plays  # what the deal asks when it has not worked them out

    def counted(deal: Trick, seat: int | None = None) -> Any:
        worked_out[0] += 1
        return legal_plays(deal, seat)

    monkeypatch.setattr(Trick, "legal_plays", counted)
    t = table(turn_seconds=5.0, autopass=False)
    seat_everyone(t, now=100.0)
    assert t.game is not None
    worked_out[0] = 0
    cmd = t.due(105.0)  # the timer's move: the cheapest of the legal plays already told
    assert cmd is not None and cmd.by == "timer" and worked_out[0] == 0
    events = t.submit(None, 105.0)[1]
    assert worked_out[0] == 1  # the next seat's prompt, for the new state
    turn = next(e for e in events if e.type == "turn")
    deal = t.game.deal
    assert turn.data["seat"] == deal.turn
    assert turn.data["legal"] == [card_text(p.mask) for p in legal_plays(deal, deal.turn)]
