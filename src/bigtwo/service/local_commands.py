"""The commands only a local table has (the server's protocol makes none of them), the Palm
game's Preferences and New game: both autopass switches, the computers' level from the next
deal, the next game's rules, the cards chosen for a deal to come, a seat's new name and the
deal just played dealt again. Each changes a setting that the game's flow reads when the next
deal or game comes: none of them starts or deals anything itself. (Taking back a play is the
52-card game's own: see :mod:`.bigtwo_flow`.)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine.cards import Mask, card_text, to_mask
from ..engine.errors import BigTwoError
from ..match.settings import RuleSet
from .base import Refused, TableState, TableStatus
from .commands import Command
from .config import MAX_NAME, clean_text
from .events import Group


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
        self._set_switches(on, five)
        self._emit("autopass", Group.ALL, {"autopass": on, "autopass_five": five}, state=True)

    def _level_command(self, cmd: Command, now: float) -> None:
        """Every computer seat plays at a new level from the next deal (bots plan per deal)."""
        level = self._setting(cmd, ("level",))["level"]
        levels = self._levels()
        if level not in levels:
            raise Refused("bad_command", f"Unknown computer level {level!r} ({', '.join(levels)})")
        from_deal = 1 if self.game is None else self.game.deal_number + 1
        self.next_level = level
        if self.game is None:
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
        value = self._setting(cmd, ("deal", "cards"))
        deal, text = value["deal"], value["cards"]
        game = self.game
        first = 1 if game is None else game.deal_number + 1
        last = game.deals if game is not None else (self.config.deals or 1000)
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
        if self.game is not None:
            self.game.names[seat.number] = name
        self._emit("renamed", Group.ALL, {"seat": seat.number, "name": name})

    def _replay(self, cmd: Command, now: float) -> None:
        """Between deals: the coming deal is the one just played, with the same hands."""
        game = self.game
        if self.status != TableStatus.PLAYING or self.between is None or game is None:
            raise Refused("bad_command", "A deal can be played again once it is over")
        self.replay = True
        self._emit("replay", Group.ALL, {"deal": self.between, "of": game.deal_number})
