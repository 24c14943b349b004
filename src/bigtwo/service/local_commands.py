"""The commands only a local table has (the server's protocol makes none of them), the Palm
game's Preferences and New game: both autopass switches, the computers' level from the next
deal, the next game's rules, the cards chosen for a deal to come, a seat's new name, the deal
just played dealt again, and taking back a play. Each changes a setting that the game's flow
reads when the next deal or game comes (undo alone changes the deal in play, through the
match): none of them starts or deals anything itself.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine.cards import CARDS, Mask, card_text, to_mask
from ..engine.errors import BigTwoError
from ..match.settings import RuleSet
from .base import Control, Refused, TableState, TableStatus
from .commands import Command
from .config import MAX_NAME, clean_text
from .events import Group, action_json, public_state


class LocalCommands(TableState):
    """A local table's settings (the Palm game's Preferences and New game)."""

    def _levels(self) -> list[str]:
        """The computer levels that play this table's rules."""
        from ..bots import bot_names  # late, as for room requests: it imports every level

        return bot_names(self.rules.game)

    def _setting(self, cmd: Command, keys: tuple[str, ...]) -> dict[str, Any]:
        value = cmd.value
        if not isinstance(value, dict) or any(k not in value for k in keys):
            raise Refused("bad_command", f"{cmd.op} needs {', '.join(keys)}")
        if self.status == TableStatus.FINISHED:
            raise Refused("finished", "The match is over")
        return value

    def _autopass(self, cmd: Command, now: float) -> None:
        """Both autopass switches, at once; the match keeps the switches each action had."""
        value = self._setting(cmd, ("autopass", "autopass_five"))
        on, five = bool(value["autopass"]), bool(value["autopass_five"])
        if self.match is not None:
            self.match.autopass = on
            self.match.autopass_five = five
        self._switches = (on, five)
        self._emit("autopass", Group.ALL, {"autopass": on, "autopass_five": five}, state=True)

    def _level_command(self, cmd: Command, now: float) -> None:
        """Every computer seat plays at a new level from the next deal (bots plan per deal)."""
        level = self._setting(cmd, ("level",))["level"]
        levels = self._levels()
        if level not in levels:
            raise Refused("bad_command", f"Unknown computer level {level!r} ({', '.join(levels)})")
        from_deal = 1 if self.match is None else self.match.deal_number + 1
        self.next_level = level
        if self.match is None:
            for seat in self.seats:
                if not seat.human:
                    seat.config = replace(seat.config, level=level)
            self.next_level = None
        self._emit("level", Group.ALL, {"level": level, "from_deal": from_deal})

    def _rules(self, cmd: Command, now: float) -> None:
        """The rules of the next game: a game is never played under two rule sets."""
        value = self._setting(cmd, ("preset",))
        options = value.get("rules") or {}
        try:
            rules = RuleSet.preset(str(value["preset"]))
            if options:
                rules = rules.replace(origin="table rules", **dict(options))
        except BigTwoError as exc:
            raise Refused("bad_command", str(exc)) from None
        if self.config.players not in rules.rules.players:
            raise Refused(
                "bad_command",
                f"{rules.name} is not played by {self.config.players}: start a new game",
            )
        self.next_rules = {"preset": str(value["preset"]), "rules": dict(options)}
        self._emit("rules", Group.ALL, {"next_rules": self.next_rules})

    def _custom(self, cmd: Command, now: float) -> None:
        """A seat's chosen cards (all or some of its hand) for a deal still to come."""
        seat = self._seat(cmd.seat)
        if self.rules.revolution is not None:
            raise Refused("bad_command", "Cards cannot be chosen for a deal of the revolution")
        value = self._setting(cmd, ("deal", "cards"))
        deal, text = value["deal"], value["cards"]
        first = 1 if self.match is None else self.match.deal_number + 1
        last = self.match.deals if self.match is not None else (self.config.deals or 1000)
        if not isinstance(deal, int) or isinstance(deal, bool) or not first <= deal <= last:
            raise Refused("bad_command", f"Cards can be chosen for deals {first} to {last}")
        try:
            mask = to_mask(str(text))
        except BigTwoError as exc:
            raise Refused("bad_cards", str(exc)) from None
        size = self.rules.hand_size(self.config.players)
        if mask.bit_count() > size:
            raise Refused("bad_cards", f"A hand holds {size} cards; {mask.bit_count()} were chosen")
        chosen = {s: m for s, m in self.custom.get(deal, {}).items() if s != seat.number}
        taken = 0
        for other in chosen.values():
            taken |= other
        if mask & taken:
            raise Refused("bad_cards", f"{card_text(Mask(mask & taken))} chosen for another seat")
        if mask:
            self.custom[deal] = {**chosen, seat.number: mask}
        elif chosen:
            self.custom[deal] = chosen
        else:
            self.custom.pop(deal, None)
        self._emit(
            "custom", seat.number, {"deal": deal, "seat": seat.number, "cards": card_text(mask)}
        )

    def _rename(self, cmd: Command, now: float) -> None:
        """A seat's new name, at once (the match's record names it so from now on)."""
        seat = self._seat(cmd.seat)
        name = clean_text(cmd.name, MAX_NAME)
        if not name:
            raise Refused("bad_command", "A name needs at least one letter")
        seat.name = name
        played = self.played_match()
        if played is not None:
            played.names[seat.number] = name
        self._emit("renamed", Group.ALL, {"seat": seat.number, "name": name})

    def _replay(self, cmd: Command, now: float) -> None:
        """Between deals: the coming deal is the one just played, with the same hands."""
        played = self.played_match()
        if self.status != TableStatus.PLAYING or self.between is None or played is None:
            raise Refused("bad_command", "A deal can be played again once it is over")
        self.replay = True
        self._emit("replay", Group.ALL, {"deal": self.between, "of": played.deal_number})

    def _undo(self, cmd: Command, now: float) -> None:
        """The one person at a table of computers takes back their last play of the deal in
        play, and every action after it (the computers' replies, automatic passes): it is
        their turn again, with those cards in hand. The computers start the rest of the deal
        afresh, as after a restore, so a table resumed from its log plays on as this one."""
        seat = self._seat(cmd.seat)
        match = self.match
        if self.revolution is not None:
            raise Refused("bad_command", "Plays cannot be taken back in the revolution")
        if self.status != TableStatus.PLAYING or match is None:
            raise Refused("bad_command", "There is no play to undo: the match is not on")
        if self.between is not None or match.deal.over:
            raise Refused("between_deals", "The deal is over: its plays stand")
        people = [s for s in self.seats if s.human]
        if people != [seat] or seat.control != Control.PLAYER:
            raise Refused("bad_command", "Undo is only for one person playing against computers")
        actions = match.deal.actions
        last = next(
            (i for i in range(len(actions) - 1, -1, -1)
             if actions[i].seat == seat.number and not actions[i].auto),
            None,
        )  # fmt: skip
        if last is None:
            raise Refused("bad_command", "You have not played in this deal yet: nothing to undo")
        taken = match.take_back(len(actions) - last)
        for other in self.seats:
            if not other.human:
                other.computer = None
        deal = match.deal
        public = deal.view(None)
        self._emit(
            "undo",
            Group.ALL,
            {
                "deal": match.deal_number,
                "seat": seat.number,
                "taken": len(taken),
                **public_state(public),
                "actions": [action_json(a) for a in public.actions],
            },
            state=True,
        )
        view = deal.view(seat.number)
        opening = None if view.opening is None else str(CARDS[view.opening])
        self._emit(
            "hand",
            seat.number,
            {"deal": match.deal_number, "cards": card_text(view.hand), "opening": opening},
        )
        self._turn(now)
