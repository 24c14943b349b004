"""A table mirror: one recipient's picture of a table, built only from what the table sent.

A :class:`TableMirror` takes a ``sync`` (a full snapshot) and then the numbered events that
reach its seat, in order, and keeps what a front end draws: the room, the deal in play as
that seat sees it, the legal plays on its turn, the scores, the chat. The network client
keeps one per connection; the local table (:mod:`bigtwo.service.local`) feeds one per
local person. It decides nothing about legality (the table sends the legal plays with
each turn) and sees no card its recipient may not see.
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import CardIndex, Mask, to_mask
from ..engine.deal import Action
from ..engine.errors import BigTwoError
from ..engine.plays import Play, catalog_for
from ..engine.rules import Rules
from ..engine.views import SeatView
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

    # -- reading the wire ------------------------------------------------------------------------
    def _play(self, cards: str | None) -> Play | None:
        if cards is None:
            return None
        assert self.rules is not None
        play = catalog_for(self.rules).classify(to_mask(cards))
        if play is None:
            raise BigTwoError(f"The server sent {cards!r}, which is not a play")
        return play

    def _public(self, msg: dict[str, Any]) -> None:
        self.turn = msg["turn"]
        self.counts = list(msg["counts"])
        to_beat = msg["table"]
        self.to_beat = self._play(to_beat["cards"]) if to_beat else None
        if to_beat:
            self.to_beat_seat = to_beat["seat"]
        self.passes = msg["passes"]
        self.locked = sum(1 << s for s in msg["locked"])
        self.winner = msg["winner"]

    def _action(self, a: dict[str, Any]) -> Action:
        play = self._play(a["cards"])
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
        if view is None:
            return
        self.deal_number = view["deal"]
        self.leader = view["leader"]
        self.actions = [self._action(a) for a in view["actions"]]
        # A resync does not say which switches earlier actions had: those in force now.
        self.action_switches = [self.switches()] * len(self.actions)
        # Set after the actions, which would otherwise take played cards out of the hand.
        self.played = to_mask(view["played"])
        self.hand = to_mask(view.get("hand", ""))
        self.to_beat_seat = -1
        self._public(view)
        opening = view["opening"]
        self.opening = CardIndex(to_mask(opening).bit_length() - 1) if opening else None
        if self.seat is not None and self.turn == self.seat and self.winner is None:
            self.legal = [p for p in (self._play(c) for c in view["legal"]) if p is not None]
            self.can_pass = view["can_pass"]

    def _room(self, room: dict[str, Any]) -> None:
        self.room = room
        self.status = TableStatus(room["status"])
        self.ruleset = RuleSet.from_mapping(room["rules"], origin="server rules")
        self.rules = self.ruleset.rules
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
        self.deal_number = msg["deal"]
        self.leader = msg["leader"]
        self.hand = Mask(0)
        self.played = Mask(0)
        self.opening = None
        self.to_beat_seat = -1
        self.legal = None
        self.actions = [self._action(a) for a in msg["actions"]]
        self.action_switches = [self.switches()] * len(self.actions)
        self._public(msg)

    def _on_hand(self, msg: dict[str, Any]) -> None:
        self.hand = to_mask(msg["cards"])
        opening = msg["opening"]
        self.opening = CardIndex(to_mask(opening).bit_length() - 1) if opening else None

    def _on_action(self, msg: dict[str, Any]) -> None:
        self.actions.append(self._action(msg))
        self.action_switches.append(self.switches())
        self._public(msg)
        self.legal = None
        self.opening = None if msg["cards"] else self.opening

    def _on_turn(self, msg: dict[str, Any]) -> None:
        if msg["seat"] == self.seat:
            self.legal = [p for p in (self._play(c) for c in msg["legal"]) if p is not None]
            self.can_pass = msg["can_pass"]

    def _on_deal_end(self, msg: dict[str, Any]) -> None:
        self.winner = msg["winner"]
        self.totals = list(msg["totals"])
        self.legal = None
        self.next_deal = msg.get("next_deal")
        keys = ("winner", "points", "counts", "left", "multipliers")
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
        return (
            self.status == TableStatus.PLAYING
            and self.seat is not None
            and self.turn == self.seat
            and self.winner is None
            and self.legal is not None
        )

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
