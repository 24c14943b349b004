"""What a client's message asks of its table (:func:`bigtwo.server.wire.command_of`), on its
own: known messages become exactly their commands, and malformed or misplaced ones are refused
in exactly the words the server sends. Messages are checked by the protocol first, as the
runner does, so each is what a client's frame really becomes."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bigtwo.engine.cards import Mask, parse_cards
from bigtwo.engine.revolution_cards import parse as revolution_parse
from bigtwo.protocol import MESSAGE_TYPES, parse_message
from bigtwo.server.wire import Refusal, Sender, command_of
from bigtwo.service.commands import Command, Op

SEATED = Sender(seat=2, name="Ann")
REVOLUTION = Sender(seat=2, name="Ann", game="revolution")
WATCHING = Sender(seat=None, name="Bob")
WATCHING_MAY_CHAT = Sender(seat=None, name="Bob", spectator_chat=True)


def message(**fields: Any) -> dict[str, Any]:
    """A client's message as the protocol checks it off the wire."""
    return parse_message(json.dumps(fields))


def masked(text: str) -> Mask:
    return parse_cards(text).mask


@pytest.mark.parametrize(
    ("fields", "command"),
    [
        (
            {"type": "play", "id": "a1", "v": 7, "cards": "3d 3h"},
            Command(Op.ACT, seat=2, cards=masked("3d 3h"), id="a1", seen=7),
        ),
        (
            {"type": "play", "id": "a2", "v": 8, "cards": ["3d", "3h"], "seat": 2},
            Command(Op.ACT, seat=2, cards=masked("3d 3h"), id="a2", seen=8),
        ),
        (
            {"type": "pass", "id": "p1", "v": 3},
            Command(Op.ACT, seat=2, cards=None, id="p1", seen=3),
        ),
        ({"type": "ready", "id": "r"}, Command(Op.READY, seat=2, ready=True)),
        ({"type": "ready", "ready": False}, Command(Op.READY, seat=2, ready=False)),
        ({"type": "next"}, Command(Op.NEXT, seat=2)),
        ({"type": "kick", "seat": 1}, Command(Op.KICK, seat=2, target=1)),
        (
            {"type": "computer", "seat": 3, "level": "expert"},
            Command(Op.COMPUTER, seat=2, target=3, text="expert"),
        ),
        ({"type": "computer", "seat": 3}, Command(Op.COMPUTER, seat=2, target=3, text="")),
        (
            {"type": "settings", "turn_seconds": 30, "away_seconds": None, "spectators": False},
            Command(
                Op.SETTINGS,
                seat=2,
                value={
                    "turn_seconds": 30,
                    "away_seconds": None,
                    "spectators": False,
                    "spectator_chat": False,
                },
            ),
        ),
        ({"type": "chat", "text": "hi"}, Command(Op.CHAT, seat=2, name="Ann", text="hi")),
        ({"type": "quit", "id": "q"}, Command(Op.QUIT, seat=2)),
    ],
)
def test_a_seated_players_messages_are_their_commands(
    fields: dict[str, Any], command: Command
) -> None:
    assert command_of(message(**fields), SEATED) == command


@pytest.mark.parametrize(
    ("fields", "refusal"),
    [
        (
            {"type": "play", "id": "a1", "v": 7, "cards": "3d", "seat": 1},
            Refusal("wrong_seat", "You sit at seat 2; you cannot act for seat 1"),
        ),
        (
            {"type": "pass", "id": "p1", "v": 7, "seat": 0},
            Refusal("wrong_seat", "You sit at seat 2; you cannot act for seat 0"),
        ),
        (
            {"type": "play", "id": "a1", "v": 7, "cards": "3d 1x"},
            Refusal("bad_cards", "'1x' is not a card (write it like 3d, Th, 10h or 3♦)"),
        ),
        (
            {"type": "play", "id": "a1", "v": 7, "cards": "Qs*"},
            Refusal("bad_cards", "'Qs*' is not a card (write it like 3d, Th, 10h or 3♦)"),
        ),
        (
            {"type": "play", "id": "a1", "v": 7, "cards": ""},
            Refusal("bad_cards", "Name the cards to play (or send 'pass')"),
        ),
        (
            {"type": "play", "id": "a1", "v": 7, "cards": []},
            Refusal("bad_cards", "Name the cards to play (or send 'pass')"),
        ),
        (
            {"type": "activate", "id": "a1", "v": 7, "card": "3d"},
            Refusal("bad_command", "'activate' is a move of the revolution only"),
        ),
        (
            {"type": "stop", "id": "s1", "v": 7},
            Refusal("bad_command", "'stop' is a move of the revolution only"),
        ),
        (  # the seat is checked before the table's rules
            {"type": "draw", "id": "d1", "v": 7, "source": "deck", "seat": 3},
            Refusal("wrong_seat", "You sit at seat 2; you cannot act for seat 3"),
        ),
        ({"type": "hello", "protocol": 1}, Refusal("bad_message", "Already said hello")),
    ],
)
def test_a_seated_players_wrong_messages_are_refused_in_the_servers_words(
    fields: dict[str, Any], refusal: Refusal
) -> None:
    assert command_of(message(**fields), SEATED) == refusal


@pytest.mark.parametrize(
    ("fields", "command"),
    [
        (
            {"type": "play", "id": "a1", "v": 7, "cards": "Qs*"},
            Command(Op.ACT, seat=2, cards=Mask(revolution_parse("Qs*")), id="a1", seen=7),
        ),
        (
            {"type": "activate", "id": "a1", "v": 7, "card": "3d"},
            Command(Op.ACTIVATE, seat=2, cards=Mask(revolution_parse("3d")), id="a1", seen=7),
        ),
        (
            {"type": "activate", "id": "a2", "v": 7, "card": "3d", "give": "9h", "target": 1},
            Command(
                Op.ACTIVATE,
                seat=2,
                cards=Mask(revolution_parse("3d 9h")),
                target=1,
                id="a2",
                seen=7,
            ),
        ),
        (
            {"type": "counter", "id": "c1", "v": 9, "card": "Qs*"},
            Command(Op.COUNTER, seat=2, cards=Mask(revolution_parse("Qs*")), id="c1", seen=9),
        ),
        (
            {"type": "draw", "id": "d1", "v": 4, "source": "deck"},
            Command(Op.DRAW, seat=2, cards=None, id="d1", seen=4),
        ),
        (
            {"type": "draw", "id": "d2", "v": 4, "source": "5c", "seat": 2},
            Command(Op.DRAW, seat=2, cards=Mask(revolution_parse("5c")), id="d2", seen=4),
        ),
        ({"type": "decline", "id": "n", "v": 5}, Command(Op.DECLINE, seat=2, id="n", seen=5)),
        ({"type": "stop", "id": "s", "v": 6}, Command(Op.STOP, seat=2, id="s", seen=6)),
    ],
)
def test_at_a_revolution_table_its_moves_are_their_commands(
    fields: dict[str, Any], command: Command
) -> None:
    assert command_of(message(**fields), REVOLUTION) == command


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "activate", "id": "a1", "v": 7, "card": "1x"},
        {"type": "activate", "id": "a1", "v": 7, "card": "3d", "give": "1x", "target": 1},
        {"type": "counter", "id": "c1", "v": 7, "card": "1x"},
        {"type": "draw", "id": "d1", "v": 7, "source": "1x"},
        {"type": "play", "id": "p1", "v": 7, "cards": "3d 1x"},
    ],
)
def test_at_a_revolution_table_a_card_it_does_not_know_is_refused(fields: dict[str, Any]) -> None:
    words = "'1x' is not a card (write it like 3d, Th or Qs*, a * for a Revolution card)"
    assert command_of(message(**fields), REVOLUTION) == Refusal("bad_cards", words)


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "play", "id": "a1", "v": 7, "cards": "3d"},
        {"type": "pass", "id": "p1", "v": 7},
        {"type": "ready"},
        {"type": "next"},
        {"type": "kick", "seat": 1},
        {"type": "computer", "seat": 1},
        {"type": "settings", "turn_seconds": None, "away_seconds": None, "spectators": True},
        {"type": "activate", "id": "a1", "v": 7, "card": "3d"},
        {"type": "draw", "id": "d1", "v": 7, "source": "deck"},
    ],
)
def test_a_spectator_cannot_act(fields: dict[str, Any]) -> None:
    refusal = Refusal("not_seated", "Spectators cannot act at the table")
    assert command_of(message(**fields), WATCHING) == refusal
    assert command_of(message(**fields), WATCHING_MAY_CHAT) == refusal


def test_a_spectator_chats_only_where_the_host_allows_it() -> None:
    line = message(type="chat", text="hello all")
    assert command_of(line, WATCHING) == Refusal(
        "not_seated", "Spectators may not chat at this table (the host has not allowed it)"
    )
    assert command_of(line, WATCHING_MAY_CHAT) == Command(
        Op.CHAT, seat=None, name="Bob", text="hello all"
    )
    assert command_of(message(type="hello", protocol=1, watch=True), WATCHING) == Refusal(
        "bad_message", "Already said hello"
    )


@pytest.mark.parametrize("sender", [SEATED, WATCHING, REVOLUTION])
def test_pings_and_resyncs_ask_nothing_of_the_table(sender: Sender) -> None:
    assert command_of(message(type="ping", id="x"), sender) is None
    assert command_of(message(type="sync"), sender) is None


def test_a_spectators_quit_asks_nothing_of_the_table_and_a_players_is_a_command() -> None:
    assert command_of(message(type="quit"), WATCHING) is None
    assert command_of(message(type="quit"), SEATED) == Command(Op.QUIT, seat=2)


def test_every_message_type_has_an_answer_and_the_message_is_left_as_it_was() -> None:
    """Every type the protocol knows is a command, a refusal or nothing for the table, for a
    player and a spectator alike, and the function changes nothing it is given."""
    samples = {
        "hello": {"protocol": 1},
        "play": {"id": "a", "v": 1, "cards": "3d"},
        "pass": {"id": "a", "v": 1},
        "activate": {"id": "a", "v": 1, "card": "3d"},
        "counter": {"id": "a", "v": 1, "card": "Qs*"},
        "decline": {"id": "a", "v": 1},
        "draw": {"id": "a", "v": 1, "source": "deck"},
        "stop": {"id": "a", "v": 1},
        "chat": {"text": "hi"},
        "kick": {"seat": 1},
        "computer": {"seat": 1},
        "settings": {"turn_seconds": None, "away_seconds": None, "spectators": True},
    }
    assert set(samples) <= set(MESSAGE_TYPES)
    for kind in MESSAGE_TYPES:
        msg = message(type=kind, **samples.get(kind, {}))
        before = copy.deepcopy(msg)
        for sender in (SEATED, REVOLUTION, WATCHING, WATCHING_MAY_CHAT):
            first = command_of(msg, sender)
            assert first is None or isinstance(first, Command | Refusal), kind
            assert command_of(msg, sender) == first, kind
        assert msg == before, kind
