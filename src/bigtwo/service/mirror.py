"""A table mirror: one recipient's picture of a table, built only from what the table sent.

A :class:`TableMirror` takes a ``sync`` (a full snapshot) and then the numbered events that
reach its seat, in order, and keeps what a front end draws: the room, the deal in play as
that seat sees it, the legal plays on its turn, the scores, the chat. The network client
keeps one per connection; the local table (:mod:`bigtwo.service.local`) feeds one per
local person. It decides nothing about legality (the table sends the legal plays with
each turn) and sees no card its recipient may not see.

At a table of Big 2 RevolutioN (preset ``revolution``) it keeps the expansion's picture too:
the actions as :class:`~bigtwo.engine.views.Action` (``moves``), the
Gathering, the deck count, the revolution marker, each seat's normal and Revolution counts,
the Character cards discarded, the phase and whose answer is awaited, what the seat may do
now (``choices``, from its ``turn`` event) and the counter window it is asked about
(``prompt``, from its ``counter`` event). :meth:`TableMirror.revolution_view` rebuilds the
seat's :class:`~bigtwo.engine.revolution.RevolutionView` from them, with every choice the
table offers it, for a screen to offer and a computer to choose from. The mirror reads a deal's
events with its game's reader, chosen once from the room's rules.
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import CardIndex, Mask, to_mask
from ..engine.errors import BigTwoError
from ..engine.plays import Catalog, Play, catalog_for
from ..engine.revolution import (
    End,
    Move,
    Phase,
    RevolutionChoice,
    RevolutionView,
)
from ..engine.revolution_cards import (
    NORMAL_CARDS,
    ids,
    parse,
)
from ..engine.revolution_cards import text as revolution_text
from ..engine.rules import BIGTWO, REVOLUTION, Rules
from ..engine.views import Action, SeatView
from ..match.settings import RuleSet, Switches
from ..match.views import TableView
from .table import TableStatus


class TableMirror:
    """One recipient's picture of a table, from a ``sync`` and then events in order."""

    def __init__(self) -> None:
        self.v = 0
        self.seat: int | None = None
        self.room: dict[str, Any] = {}
        self.status = TableStatus.WAITING
        self.rules: Rules | None = None
        self._catalog: Catalog | None = None  # the rules' catalogue of plays
        self.ruleset: RuleSet | None = None  # the rules of play above and the match's settings
        self.deal_number = 0
        self.hand = Mask(0)
        self.counts: list[int] = []
        self.turn = -1
        self.leader = -1
        self.to_beat: Play | None = None
        self.to_beat_seat = -1
        self.passes = 0
        self.locked = 0
        self.opening: CardIndex | None = None
        self.actions: list[Action] = []
        self.action_switches: list[Switches] = []  # the switches in force at each action
        self.played = Mask(0)
        self.winner: int | None = None
        self.legal: list[Play] | None = None  # None: not our turn, or not told yet
        self.can_pass = False
        self.totals: list[int] = []
        self.results: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        self.connected: dict[int, bool] = {}
        self.clock: dict[str, Any] | None = None  # the newest clock: {seat, ms[, next_deal]}
        self.next_deal: dict[str, Any] | None = None  # between deals: {deal, seconds, waiting}
        self.rematch: dict[str, Any] | None = None  # {code[, seat, token]} once there is one
        self._reader: _BigTwoReader | _RevolutionReader = _READERS[BIGTWO]  # (see _room)
        # -- Big 2 RevolutioN -----------------------------------------------------------------
        self.moves: list[Action] = []  # the hand's actions as this seat saw them
        self.revolution_counts: list[int] = []
        self.gathering: list[int] = []  # the face-up cards, by id
        self.deck_left = 0
        self.reversed = False  # the revolution marker: the order of cards is reversed
        self.phase = Phase.ACT
        self.to_act = -1  # whose answer is awaited (another seat in a counter window)
        self.pending: dict[str, Any] | None = None  # {seat, function, card, target}
        self.discards = 0  # Character cards discarded for a function or a counter
        self.end: End | None = None
        self.choices: dict[str, Any] | None = None  # what this seat may do now (its turn)
        self.prompt: dict[str, Any] | None = None  # the counter window asking this seat
        self.answered = False  # this seat has answered the open counter window

    # -- reading the wire ------------------------------------------------------------------------
    def _play(self, cards: str) -> Play:
        """A play the server sent, in the notation of the table's game."""
        assert self.rules is not None and self._catalog is not None
        play = _read_play(self._catalog, self.rules.game, cards)
        if play is None:
            raise BigTwoError(f"The server sent {cards!r}, which is not a play")
        return play

    # -- Big 2 RevolutioN ---------------------------------------------------------------------
    def _cards(self, cards: str | None) -> int:
        """Cards of the expansion from notation (a Revolution card with its star)."""
        return parse(cards) if cards else 0

    def _move(self, a: dict[str, Any]) -> Action:
        """One action of the expansion as this seat was told it."""
        cards = self._cards(a.get("cards"))
        move = Move(a["move"])
        if move is Move.PLAY:
            self.played = Mask(self.played | cards)
        elif move in (Move.ACTIVATE, Move.COUNTER):
            self.discards |= cards
        given = self._cards(a.get("given"))
        return Action(
            a["seat"],
            auto=bool(a.get("auto")),
            trick_over=bool(a.get("trick_over")),
            move=move,
            cards=cards,
            function=a.get("function", ""),
            target=a.get("target", -1),
            source=a.get("source", ""),
            given=given,
        )

    def _is_counter(self, card: int) -> bool:
        assert self.rules is not None
        options = self.rules.revolution
        return options is not None and options.card_function(card) == "counter"

    def _action(self, a: dict[str, Any]) -> Action:
        play = None if a["cards"] is None else self._play(a["cards"])
        if play is not None:
            self.played = Mask(self.played | play.mask)
            if a["seat"] == self.seat:
                self.hand = Mask(self.hand & ~play.mask)
        return Action(a["seat"], play, a["auto"], a["reason"], a["trick_over"])

    def apply(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(msg)

    def _on_sync(self, msg: dict[str, Any]) -> None:
        self.v = msg["v"]
        self.seat = msg["seat"]
        self._room(msg["room"])
        self.chat = list(msg.get("chat", []))
        if "clock" in msg:
            self.clock = msg["clock"]
        view = msg["view"]
        self.legal = None
        if view is not None:
            self._deal(view, view)

    def _room(self, room: dict[str, Any]) -> None:
        self.room = room
        self.status = TableStatus(room["status"])
        self.ruleset = RuleSet.from_mapping(room["rules"], origin="server rules")
        self.rules = self.ruleset.rules
        self._reader = _READERS[self.rules.game]
        self._catalog = catalog_for(self.rules)
        self.totals = list(room["totals"])
        self.results = list(room["results"])
        self.connected = {s["seat"]: s["connected"] for s in room["seats"]}
        self.next_deal = room.get("next_deal")
        if room.get("rematch") and (self.rematch or {}).get("code") != room["rematch"]:
            self.rematch = {"code": room["rematch"]}

    def _seat_field(self, seat: int, **fields: Any) -> None:
        for s in self.room.get("seats", []):
            if s["seat"] == seat:
                s.update(fields)

    def _on_joined(self, msg: dict[str, Any]) -> None:
        computer = msg.get("kind") == "computer"  # the host gave the seat to a computer
        self._seat_field(
            msg["seat"],
            name=msg["name"],
            taken=True,
            ready=computer,
            control="computer" if computer else "player",
            avatar=msg.get("avatar"),
            **({"kind": "computer", "level": msg.get("level")} if computer else {}),
        )

    def _on_left(self, msg: dict[str, Any]) -> None:
        self._seat_field(msg["seat"], name="", taken=False, ready=False)

    def _on_ready(self, msg: dict[str, Any]) -> None:
        self._seat_field(msg["seat"], ready=msg["ready"])

    def _on_control(self, msg: dict[str, Any]) -> None:
        self._seat_field(msg["seat"], control=msg["control"])

    def _on_quit(self, msg: dict[str, Any]) -> None:
        self._seat_field(msg["seat"], control="quit")

    def _on_presence(self, msg: dict[str, Any]) -> None:
        self.connected[msg["seat"]] = msg["connected"]
        self._seat_field(msg["seat"], connected=msg["connected"])

    def _on_started(self, msg: dict[str, Any]) -> None:
        self.status = TableStatus.PLAYING
        self.room["status"] = TableStatus.PLAYING.value

    def _on_clock(self, msg: dict[str, Any]) -> None:
        self.clock = {k: v for k, v in msg.items() if k != "type"}

    def _on_deal(self, msg: dict[str, Any]) -> None:
        self.next_deal = None
        self._deal(msg)

    def _deal(self, msg: dict[str, Any], view: dict[str, Any] | None = None) -> None:
        """A deal begins, or (``view``: a resync's) is in play as this seat sees it."""
        self.deal_number = msg["deal"]
        self.leader = msg["leader"]
        self.hand = Mask(0)
        self.played = Mask(0)
        self.opening = None
        self.to_beat_seat = -1
        self.legal = None
        self.actions = []
        self._reader.deal(self, msg, view)

    def _on_hand(self, msg: dict[str, Any]) -> None:
        cards = self._reader.cards
        self.hand = cards(msg["cards"])
        opening = msg["opening"]
        self.opening = CardIndex(cards(opening).bit_length() - 1) if opening else None

    def _on_action(self, msg: dict[str, Any]) -> None:
        self._reader.action(self, msg)

    def _on_turn(self, msg: dict[str, Any]) -> None:
        if msg["seat"] == self.seat:
            self._reader.turn(self, msg)

    def _on_counter(self, msg: dict[str, Any]) -> None:
        """A counter window asks this seat (every other seat is asked, Q or not)."""
        self.prompt = {k: v for k, v in msg.items() if k not in ("type", "v")}
        self.answered = False

    def _on_answered(self, msg: dict[str, Any]) -> None:
        if msg["seat"] == self.seat:
            self.answered = True

    def _on_deal_end(self, msg: dict[str, Any]) -> None:
        self.choices, self.prompt, self.answered = None, None, False
        if msg.get("end"):
            self.end = End(msg["end"])
        self.winner = msg["winner"]
        self.totals = list(msg["totals"])
        self.legal = None
        self.next_deal = msg.get("next_deal")
        keys = ("winner", "points", "counts", "left", "multipliers", "end")
        self.results.append({k: msg[k] for k in keys if k in msg} | {"deal": msg["deal"]})

    def _on_next(self, msg: dict[str, Any]) -> None:
        if self.next_deal is not None:
            waiting = [s for s in self.next_deal.get("waiting", []) if s != msg["seat"]]
            self.next_deal = {**self.next_deal, "waiting": waiting}

    def _on_rematch(self, msg: dict[str, Any]) -> None:
        self.rematch = {k: v for k, v in msg.items() if k not in ("type", "v")}

    def _on_match_end(self, msg: dict[str, Any]) -> None:
        self.status = TableStatus.FINISHED
        self.totals = list(msg["totals"])
        self.legal = None

    def _on_closed(self, msg: dict[str, Any]) -> None:
        self.status = TableStatus.FINISHED
        self.legal = None

    def _on_renamed(self, msg: dict[str, Any]) -> None:
        self._seat_field(msg["seat"], name=msg["name"])

    def _on_settings(self, msg: dict[str, Any]) -> None:
        options = self.room.setdefault("options", {})
        for key in ("turn_seconds", "away_seconds", "spectators", "spectator_chat", "assists"):
            if key in msg:
                options[key] = msg[key]

    def _on_autopass(self, msg: dict[str, Any]) -> None:
        options = self.room.setdefault("options", {})
        options["autopass"], options["autopass_five"] = msg["autopass"], msg["autopass_five"]

    def _on_rules(self, msg: dict[str, Any]) -> None:
        self.room["next_rules"] = msg["next_rules"]

    def _on_level(self, msg: dict[str, Any]) -> None:
        self.room["next_level"] = msg["level"]

    def _on_chat(self, msg: dict[str, Any]) -> None:
        self.chat.append(msg)

    # -- questions ------------------------------------------------------------------------------
    @property
    def my_turn(self) -> bool:
        """This seat is to act now (at a revolution table: to play, pass or draw; see
        :attr:`asked` for a counter window)."""
        return (
            self.status == TableStatus.PLAYING
            and self.seat is not None
            and self.turn == self.seat
            and self.winner is None
            and (self.choices is not None or self.legal is not None)  # (each game's own)
            and self.phase is not Phase.COUNTER
        )

    @property
    def asked(self) -> bool:
        """An open counter window asks this seat, and it has not answered yet."""
        return (
            self.status == TableStatus.PLAYING
            and self.prompt is not None
            and not self.answered
            and self.phase is Phase.COUNTER
            and self.winner is None
        )

    def revolution_view(self) -> RevolutionView:
        """The seat's view of a hand of the expansion rebuilt from the mirror, with every
        choice the table offers it now (``choices`` empty when nothing is asked of it): an
        exchange once for each other player and each normal card it may give, as the
        engine enumerates them."""
        assert self.rules is not None and self.rules.game == REVOLUTION
        seat = self.seat
        choices: list[RevolutionChoice] = []
        legal: list[Play] = []
        can_pass = False
        to_act = self.to_act
        if seat is not None and self.asked:
            assert self.prompt is not None
            choices += [
                RevolutionChoice(seat, Move.COUNTER, self._cards(c))
                for c in self.prompt.get("counters", [])
            ]
            choices.append(RevolutionChoice(seat, Move.DECLINE))
            to_act = seat
        elif seat is not None and self.my_turn:
            assert self.choices is not None
            offered = self.choices
            if self.phase is Phase.DRAW:
                choices += [
                    RevolutionChoice(seat, Move.DRAW, 0 if d == "deck" else self._cards(d))
                    for d in offered.get("draws", [])
                ]
                choices.append(RevolutionChoice(seat, Move.STOP))
            else:
                legal = [self._play(c) for c in offered.get("legal", [])]
                can_pass = bool(offered.get("can_pass"))
                choices += [RevolutionChoice(seat, Move.PLAY, p.mask) for p in legal]
                if can_pass:
                    choices.append(RevolutionChoice(seat, Move.PASS))
                for entry in offered.get("activate", []):
                    card = self._cards(entry["card"])
                    if entry.get("function") != "exchange":
                        choices.append(RevolutionChoice(seat, Move.ACTIVATE, card))
                        continue
                    for target in range(len(self.counts)):
                        if target != seat:
                            choices += [
                                RevolutionChoice(seat, Move.ACTIVATE, card, target, give)
                                for give in self.exchange_gives()
                            ]
        pending = None
        if self.pending is not None:
            p = self.pending
            aim = p.get("target")
            pending = (
                int(p["seat"]),
                str(p["function"]),
                self._cards(p["card"]).bit_length() - 1,
                -1 if aim is None else int(aim),
            )
        drawn = 0
        if self.phase is Phase.DRAW:
            for action in reversed(self.moves):
                if action.move is not Move.DRAW and action.move is not Move.REVEAL:
                    break
                drawn += action.move is Move.DRAW
        return RevolutionView(
            seat=seat,
            rules=self.rules,
            hand=self.hand,
            counts=tuple(self.counts),
            revolution_counts=tuple(self.revolution_counts),
            gathering=tuple(self.gathering),
            deck_left=self.deck_left,
            discards=self.discards,
            played=self.played,
            reversed=self.reversed,
            turn=self.turn,
            to_act=to_act,
            phase=self.phase if self.winner is None else Phase.OVER,
            leader=self.leader,
            to_beat=self.to_beat,
            to_beat_seat=self.to_beat_seat,
            passes=self.passes,
            locked=0,
            skips=0,
            pending=pending,
            functions_used=0,
            draws_taken=drawn,
            opening=self.opening,
            actions=tuple(self.moves),
            winner=self.winner,
            end=self.end,
            legal=tuple(legal),
            can_pass=can_pass,
            choices=tuple(choices),
        )

    def exchange_gives(self) -> list[int]:
        """The normal cards an exchange by this seat may give: any but the card the first
        play must include, and only while it holds two normal cards or more (the engine's
        rule: never the last one)."""
        normal = int(self.hand) & NORMAL_CARDS
        if normal.bit_count() < 2:
            return []
        return [c for c in ids(normal) if c != self.opening]

    def switches(self) -> Switches:
        """The table's autopass switches (before the match starts the options may leave
        them to the rules)."""
        assert self.ruleset is not None
        options = self.room.get("options", {})
        autopass, five = options.get("autopass"), options.get("autopass_five")
        return Switches(
            self.ruleset.match.autopass if autopass is None else bool(autopass),
            self.ruleset.match.autopass_five if five is None else bool(five),
        )

    def seat_view(self) -> TableView:
        """The seat's view rebuilt from the mirror, for a bot to choose from (or a screen to
        draw), with the autopass switches each action was made under as far as the mirror
        saw them (after a resync: those in force now)."""
        assert self.rules is not None and self.ruleset is not None
        legal = tuple(self.legal or ())
        switches = self.switches()
        view = SeatView(
            seat=self.seat,
            rules=self.rules,
            hand=self.hand,
            counts=tuple(self.counts),
            turn=self.turn,
            leader=self.leader,
            to_beat=self.to_beat,
            to_beat_seat=self.to_beat_seat,
            passes=self.passes,
            locked=self.locked,
            opening=self.opening,
            actions=tuple(self.actions),
            played=self.played,
            winner=self.winner,
            legal=legal,
            can_pass=self.can_pass and self.my_turn,
        )
        return TableView.of(
            view,
            scoring=self.ruleset.scoring,
            switches=switches,
            action_switches=tuple(self.action_switches[: len(view.actions)])
            + (switches,) * max(0, len(view.actions) - len(self.action_switches)),
        )


def _public(m: TableMirror, msg: dict[str, Any]) -> None:
    """What either game's public state says alike: whose turn, the counts, the play to beat,
    the passes since it, the winner."""
    m.turn = msg["turn"]
    m.counts = list(msg["counts"])
    table = msg["table"]
    m.to_beat = m._play(table["cards"]) if table else None
    if table:
        m.to_beat_seat = table["seat"]
    m.passes = msg["passes"]
    m.winner = msg["winner"]


class _BigTwoReader:
    """How a mirror reads the deal's events of the 52-card game."""

    def cards(self, text: str) -> Mask:
        return to_mask(text)

    def public(self, m: TableMirror, msg: dict[str, Any]) -> None:
        _public(m, msg)
        m.locked = sum(1 << s for s in msg["locked"])

    def deal(self, m: TableMirror, msg: dict[str, Any], view: dict[str, Any] | None) -> None:
        m.actions = [m._action(a) for a in msg["actions"]]
        # A resync does not say which switches earlier actions had: those in force now.
        m.action_switches = [m.switches()] * len(m.actions)
        self.public(m, msg)
        if view is None:
            return
        # Set after the actions, which would otherwise take played cards out of the hand.
        m.played, m.hand = to_mask(view["played"]), to_mask(view.get("hand", ""))
        opening = view["opening"]
        m.opening = CardIndex(to_mask(opening).bit_length() - 1) if opening else None
        if m.seat is not None and m.turn == m.seat and m.winner is None:
            m.legal = [m._play(c) for c in view["legal"]]
            m.can_pass = view["can_pass"]

    def action(self, m: TableMirror, msg: dict[str, Any]) -> None:
        m.actions.append(m._action(msg))
        m.action_switches.append(m.switches())
        self.public(m, msg)
        m.legal = None
        m.opening = None if msg["cards"] else m.opening

    def turn(self, m: TableMirror, msg: dict[str, Any]) -> None:
        m.legal = [m._play(c) for c in msg["legal"]]
        m.can_pass = msg["can_pass"]


class _RevolutionReader:
    """How a mirror reads the deal's events of Big 2 RevolutioN (its moves, phases, Gathering)."""

    def cards(self, text: str) -> Mask:
        return Mask(parse(text) if text else 0)

    def public(self, m: TableMirror, msg: dict[str, Any]) -> None:
        _public(m, msg)
        m.to_act = msg["to_act"]
        m.phase = Phase(msg["phase"])
        m.revolution_counts = list(msg["revolution_counts"])
        m.gathering = ids(m._cards(msg["gathering"]))
        m.deck_left = msg["deck_left"]
        m.reversed = bool(msg["reversed"])
        m.pending = msg["pending"]
        m.end = End(msg["end"]) if msg.get("end") else None
        if m.phase is not Phase.COUNTER:
            m.prompt, m.answered = None, False

    def deal(self, m: TableMirror, msg: dict[str, Any], view: dict[str, Any] | None) -> None:
        m.played = Mask(0)
        m.discards = 0
        m.to_beat_seat = -1
        m.choices, m.prompt, m.answered = None, None, False
        m.moves = [m._move(a) for a in msg["actions"]]
        m.action_switches = []
        self.public(m, msg)
        if view is not None:
            m.played = Mask(m._cards(view["played"]))
            m.discards = m._cards(view.get("discards"))
            m.hand = Mask(m._cards(view.get("hand")))
            opening = view["opening"]
            m.opening = CardIndex(m._cards(opening).bit_length() - 1) if opening else None
            choices = view.get("choices")
            seat = m.seat
            acting = seat is not None and seat == m.turn and m.phase is not Phase.COUNTER
            if acting and choices and m.winner is None:
                m.choices = dict(choices)
            if seat is not None and m.pending is not None and m.pending["seat"] != seat:
                # A resync in a counter window: the question again, as the table asked it.
                m.prompt = {**m.pending, "deal": m.deal_number, "seconds": None}
                m.prompt["counters"] = [
                    revolution_text(1 << c) for c in ids(int(m.hand)) if m._is_counter(c)
                ]
                # ... unless the seat has answered it already (its own answer only: the
                # view says nothing of the others' until they are applied).
                m.answered = bool(view.get("answered"))

    def action(self, m: TableMirror, msg: dict[str, Any]) -> None:
        move = m._move(msg)
        m.moves.append(move)
        m.choices = None
        if move.move is Move.PLAY:
            m.opening = None
        self.public(m, msg)

    def turn(self, m: TableMirror, msg: dict[str, Any]) -> None:
        m.choices = {k: v for k, v in msg.items() if k not in ("type", "v")}


# Each game's reader (a mirror holds the one of its table's game: see TableMirror._room).
_READERS: dict[str, _BigTwoReader | _RevolutionReader] = {
    BIGTWO: _BigTwoReader(),
    REVOLUTION: _RevolutionReader(),
}


_PLAYS: dict[tuple[Catalog, str], Play | None] = {}  # what _read_play has read
MAX_PLAYS = 1 << 16  # then it starts afresh


def _read_play(catalog: Catalog, game: str, cards: str) -> Play | None:
    """The play ``cards`` names in the notation of ``game`` under ``catalog`` (None: not a
    play), read once for every mirror: the same plays come back in each seat's events and
    prompts, and a client that plays several seats (a load test) mirrors them all."""
    key = (catalog, cards)
    try:
        return _PLAYS[key]
    except KeyError:
        pass
    play = catalog.classify(_READERS[game].cards(cards))
    if len(_PLAYS) >= MAX_PLAYS:
        _PLAYS.clear()
    _PLAYS[key] = play
    return play
