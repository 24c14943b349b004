"""A network table as the table screen drives it: the same questions as a local game.

:class:`NetGame` answers what the table screen asks of a
:class:`~bigtwo.tui.controller.GameController` (the view, whose turn, the trick, play, pass,
hints) from the :class:`~bigtwo.service.mirror.TableMirror` that a
:class:`~bigtwo.client.TableClient` keeps of a server's table, so a network room is
drawn by the same screen as a local game. The server plays the computers and paces the
deals, so nothing here waits or schedules: a person's play is sent, and the screen is told
(:attr:`NetGame.changed`) whenever a message from the server changed the picture. The server's
refusals reach the screen in words through :attr:`NetGame.refused`. It also keeps what only
a network table has: the chat, the other players' presence, and the state of the link.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from ..client import ConnectionLost, TableClient
from ..engine.cards import Mask, card_symbols, card_text
from ..engine.errors import BigTwoError, IllegalAction, NotYourTurn
from ..engine.plays import Play
from ..engine.revolution_cards import parse, starred_text
from ..engine.views import Action
from ..match.views import TableView
from ..service.mirror import TableMirror
from ..service.table import TableStatus
from .mirrored import Hint, MirroredTable, hint_for

# How many lines of chat and table notices are kept for the screen.
CHAT_LINES = 50


class NetGame(MirroredTable):
    """One network table (a seat, or a spectator's place) for the table screen."""

    hot_seat = False
    computer_to_act = False  # the server plays the computers
    talks = True  # a network table has a chat

    def __init__(self, client: TableClient, *, server: str = "", link: str = "") -> None:
        self.client = client
        self.server = server
        self.link = link  # the room's share link, for the waiting screen
        self.changed: Callable[[], None] = lambda: None  # the picture changed
        self.refused: Callable[[str], None] = lambda message: None  # an action was refused
        self.lines: list[str] = []  # chat and table notices, oldest first
        self.last_auto: list[Action] = []
        self.reconnecting = False
        self.gone = False  # the link is lost for good
        self.links = 0  # times the link came back
        self.sheets_shown = 0  # score sheets shown: one per deal result
        self.sheets_read = 0  # the deals whose sheet the player answered (Next deal)
        self._tasks: set[asyncio.Task[Any]] = set()
        client.on_message = self._message
        client.on_connection = self._connection

    # -- the picture -------------------------------------------------------------------------
    @property
    def mirror(self) -> TableMirror:
        return self.client.state

    @property
    def code(self) -> str:
        return str(self.mirror.room.get("code", ""))

    @property
    def seat(self) -> int | None:
        return self.mirror.seat

    @property
    def humans(self) -> list[int]:
        """The people at this screen: our seat, or nobody when we watch."""
        return [] if self.seat is None else [self.seat]

    @property
    def viewer(self) -> int | None:
        return self.seat

    @property
    def home(self) -> int:
        return self.seat if self.seat is not None else 0

    def is_human(self, seat: int) -> bool:
        return seat == self.seat

    @property
    def players(self) -> int:
        return len(self.mirror.room.get("seats", [])) or 4

    @property
    def names(self) -> list[str]:
        return [
            str(s.get("name") or f"Seat {s['seat'] + 1}") for s in self.mirror.room.get("seats", [])
        ]

    @property
    def started(self) -> bool:
        return self.mirror.status != TableStatus.WAITING and bool(self.mirror.counts)

    @property
    def totals(self) -> list[int]:
        return list(self.mirror.totals) or [0] * self.players

    @property
    def deal_over(self) -> bool:
        return self.started and self.mirror.winner is not None

    @property
    def game_over(self) -> bool:
        return self.mirror.status == TableStatus.FINISHED

    @property
    def human_to_act(self) -> int | None:
        return self.seat if self.mirror.my_turn else None

    def needs_cover(self) -> bool:
        return False

    def cover_for(self) -> int | None:
        return None

    def asked(self) -> list[int]:
        """Our seat while a counter window asks it (the server keeps the clock)."""
        return [self.seat] if self.seat is not None and self.mirror.asked else []

    # The server moves the computers: nothing is ever due here.
    def think_request(self) -> None:
        return None

    def deadline(self, delay: float) -> float | None:
        return None

    def computer_step(self) -> list[Action]:
        return []

    def run_computers(self, limit: int = 1000) -> list[Action]:
        return []

    def thought(self, request: Any, answer: Any, bot: Any) -> list[Action]:
        return []

    def view(self, seat: int | None = None) -> TableView:
        return self.mirror.seat_view()

    def hand(self) -> Mask:
        return self.mirror.hand

    def hint(self, seat: int | None = None) -> Hint:
        return hint_for(self.view())

    def presence(self, seat: int) -> str:
        """A seat's player in words when not simply here: away, or a computer in their place."""
        for s in self.mirror.room.get("seats", []):
            if s["seat"] != seat or s.get("kind") == "computer" or not s.get("taken"):
                continue
            if s.get("control") == "quit":
                return "left the game"
            if s.get("control") == "computer":
                return "away: computer"
            if not s.get("connected", True):
                return "away"
        return ""

    @property
    def connection_note(self) -> str:
        if self.reconnecting:
            return "Connection lost: reconnecting…"
        if self.gone:
            return "Disconnected from the table (q to leave)"
        return ""

    @property
    def room_line(self) -> str:
        """The room's code and share link, shown at the table all along: the way back to it
        (the lobby lists it under your rooms too) and the link to send to other people."""
        if not self.code:
            return ""
        link = self.link or (f"{self.server.rstrip('/')}/r/{self.code}" if self.server else "")
        return f"Room {self.code}" + (f" · {link}" if link else "")

    def waiting_note(self) -> str:
        """Before the match: who is still to come."""
        seats = self.mirror.room.get("seats", [])
        free = sum(1 for s in seats if s.get("kind") != "computer" and not s.get("taken"))
        text = f"Table {self.code}: waiting for "
        text += f"{free} more player{'s' if free != 1 else ''}" if free else "everyone to be ready"
        if self.link:
            text += f"  (share {self.link})"
        return text

    # -- acting --------------------------------------------------------------------------------
    def _check(self, seat: int) -> None:
        if self.deal_over:
            raise IllegalAction("The deal is over")
        if not self.mirror.my_turn or seat != self.seat:
            name = self.names[self.turn] if 0 <= self.turn < len(self.names) else "someone"
            raise NotYourTurn(f"Not your turn: {name} is to play")

    def play(self, seat: int, cards: Mask | Play) -> list[Action]:
        """Send a play; a play the table would refuse is refused here at once, in the words
        the engine uses (the table sent the legal plays), and the server has the last word."""
        self._check(seat)
        mask = cards.mask if isinstance(cards, Play) else Mask(cards)
        if mask not in self.kind.plays(self.mirror):
            raise IllegalAction(self._why_not(mask))
        message = {"type": "play", "cards": card_text(mask), "v": self.client.seen}
        self._send(self.client.request(message, resend=True))  # a Revolution card with its star
        return []

    def _why_not(self, mask: Mask) -> str:
        from ..engine.plays import catalog_for

        play = catalog_for(self.rules).classify(mask)
        if play is None:
            return f"{card_symbols(mask)} is not a play"
        to_beat = self.kind.to_beat(self.mirror)
        if to_beat is not None:
            return f"{play.symbols()} does not beat {to_beat.symbols()}"
        opening = self.mirror.opening if self.kind.opens_with_card else None
        if opening is not None and not mask >> opening & 1:
            return f"The first play must include {card_symbols(Mask(1 << opening))}"
        return f"{play.symbols()} cannot be played now"

    # -- the moves of Big 2 RevolutioN: sent to the server, which has the last word ---------------
    def _move(self, message: dict[str, Any]) -> None:
        # Sent again after a reconnect, with its id, as a play is: the server applies it once.
        self._send(self.client.request({**message, "v": self.client.seen}, resend=True))

    def activate(self, seat: int, card: int, target: int | None = None, give: int = -1) -> None:
        self._check(seat)
        message: dict[str, Any] = {"type": "activate", "card": starred_text(card)}
        if target is not None:
            message["target"] = target
        if give >= 0:
            message["give"] = starred_text(give)
        self._move(message)

    def counter(self, seat: int, card: int) -> None:
        if not self.mirror.asked:
            raise IllegalAction("There is no function to counter now")
        self._move({"type": "counter", "card": starred_text(card)})

    def decline(self, seat: int) -> None:
        if not self.mirror.asked:
            raise IllegalAction("There is no function to answer now")
        self._move({"type": "decline"})

    def draw(self, seat: int, card: int | None) -> None:
        self._check(seat)
        self._move({"type": "draw", "source": "deck" if card is None else starred_text(card)})

    def stop(self, seat: int) -> None:
        self._check(seat)
        self._move({"type": "stop"})

    def pass_(self, seat: int) -> list[Action]:
        self._check(seat)
        if not self.kind.can_pass(self.mirror):
            raise IllegalAction("You lead this trick: you cannot pass")
        self._send(self.client.pass_())
        return []

    def history_text(self, scope: str) -> str:
        """The history as this screen saw it: every finished deal's result (``scope``
        "game") and the plays of the deal in play, or of the one just over. The server keeps
        the whole record; it gives every hand once the match is over (see the app)."""
        names = self.names
        lines: list[str] = []
        if scope == "game":
            for result in self.mirror.results:
                winner = names[result["winner"]] if result["winner"] < len(names) else "?"
                lines.append(f"=== Deal {result['deal']} of {self.deals}: {winner} went out ===")
                left = result.get("left") or [""] * len(names)
                for seat, name in enumerate(names):
                    points = result.get("points", [0] * len(names))[seat]
                    cards = card_symbols(Mask(parse(left[seat]))) if left[seat] else ""
                    lines.append(f"  {name:<12} {points:>+5}  {cards}".rstrip())
                lines.append("")
        if self.started:
            kind = self.kind
            lines.append(f"=== Deal {self.deal_number} of {self.deals}: {kind.deal_heading} ===")
            lines += kind.deal_lines(self.mirror, names) or ["(no play yet)"]
        return "\n".join(lines).strip("\n") + "\n" if lines else "Nothing has been played yet\n"

    def undo_off(self) -> str:
        """Undo is never on at a network table."""
        return "Undo is off at a network table: the other players have seen your play"

    def undo(self) -> None:
        raise IllegalAction(self.undo_off())

    def next_deal(self) -> None:
        """Between deals: we have read the score sheet."""
        if self.seat is not None and not self.game_over and self.mirror.next_deal is not None:
            self.sheets_read = len(self.mirror.results)
            self._send(self.client.next_deal())

    def waits_for_us(self) -> bool:
        """Between deals, the table waits for our seat to read the last deal's sheet (as the
        browser's ``sheetAfterSync`` reads a sync)."""
        mirror, next_deal = self.mirror, self.mirror.next_deal
        if not mirror.results or self.game_over or next_deal is None or self.seat is None:
            return False
        return bool(
            next_deal.get("deal") == mirror.results[-1]["deal"] + 1
            and self.seat in next_deal.get("waiting", [])
        )

    def _sheet_after_sync(self) -> None:
        """Back at the table (a new run of the app, or the link back): the sheet of the deal
        the table waits on us to read comes up, unless it is up now (our Next deal, sent as
        the link went, was lost: it comes up again); an older deal's sheet never does
        (rejoined in the middle of a later deal)."""
        dealt = len(self.mirror.results)
        if not self.waits_for_us():
            self.sheets_shown = max(self.sheets_shown, dealt)
        elif self.sheets_shown < dealt or self.sheets_read >= dealt:
            self.sheets_shown = dealt - 1  # never shown here, or our answer was lost

    def say(self, text: str) -> None:
        """A line of chat to the table."""
        if text.strip():
            self._send(self.client.chat(text.strip()))

    def ready(self) -> None:
        if self.seat is not None and self.mirror.status == TableStatus.WAITING:
            self._send(self.client.ready())

    def set_assists(self, on: bool) -> None:
        """The host turns the coach's assists on or off for every player (the room's
        ``settings`` command, its other settings as they are)."""
        if self.seat is None or self.mirror.room.get("host") != self.seat:
            raise IllegalAction("Only the table's host turns the assists on or off")
        options = self.mirror.room.get("options") or {}
        message = {
            "type": "settings",
            "turn_seconds": options.get("turn_seconds"),
            "away_seconds": options.get("away_seconds"),
            "spectators": bool(options.get("spectators", True)),
            "spectator_chat": bool(options.get("spectator_chat", False)),
            "assists": on,
        }
        self._send(self.client.request(message))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.client.close()

    def _send(self, request: Any) -> None:
        """Send in the background; a refusal or a lost connection is said in words."""

        links = self.links

        async def run() -> None:
            try:
                await request
            except (BigTwoError, TimeoutError) as exc:
                lost = isinstance(exc, (TimeoutError, ConnectionLost))
                if lost and self.links != links and not self.reconnecting:
                    return  # the link came back since: the table's own picture says what holds
                text = (
                    str(exc) if not isinstance(exc, TimeoutError) else "No answer from the server"
                )
                if isinstance(exc, ConnectionLost):
                    text = "The connection to the table was lost"
                self.refused(text)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- hearing the table ----------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        names = self.names
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"

    def _note(self, line: str) -> None:
        self.lines = [*self.lines, line][-CHAT_LINES:]

    def _message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "chat":
            self._note(f"{msg.get('name') or 'spectator'}: {msg.get('text', '')}")
        elif kind == "sync":
            self.lines = [
                f"{m.get('name') or 'spectator'}: {m.get('text', '')}" for m in self.mirror.chat
            ][-CHAT_LINES:]
            self._sheet_after_sync()
        elif kind == "welcome":  # the link back: the missed messages follow, or a sync
            self._sheet_after_sync()
        elif kind == "presence" and msg.get("seat") != self.seat:
            back = msg.get("connected")
            self._note(f"* {self._name(msg['seat'])} {'is back' if back else 'is away'}")
        elif kind == "control":
            who = self._name(msg["seat"])
            you = msg["seat"] == self.seat
            if msg["control"] == "computer":
                self._note(f"* A computer plays for {'you' if you else who} while away")
            elif msg["control"] == "player":
                self._note(f"* {'You play' if you else who + ' plays'} again")
        elif kind == "joined":
            self._note(f"* {msg.get('name') or 'A player'} sits down")
        elif kind == "quit":
            self._note(f"* {self._name(msg['seat'])} left the game")
        elif kind == "closed":
            self._note(f"* The table closed: {msg.get('reason', '')}")
        elif kind == "action" and msg.get("auto") and msg.get("seat") == self.seat:
            if self.mirror.actions:
                self.last_auto = [*self.last_auto, self.mirror.actions[-1]]
        elif kind == "deal":
            self.last_auto = []
        elif kind == "error" and msg.get("id") is None:
            self.refused(str(msg.get("message", "")))
        self.changed()

    def _connection(self, state: str) -> None:
        """The link to the table: "lost" (the client reconnects), "back", or "gone"."""
        self.reconnecting = state == "lost"
        self.gone = self.gone or state == "gone"
        if state == "gone":
            self._note("* Disconnected from the table")
        elif state == "back":
            self.links += 1
            self._note("* Reconnected")
            self.refused("")  # what the lost link made fail ("No answer from the server") is over
        self.changed()


def room_of(text: str) -> tuple[str, str, str]:
    """(server, code, invite) of a room code or a share link (``…/r/CODE``,
    ``…/?room=CODE&invite=KEY``, ``…/r/CODE?invite=KEY``); server "" when only a code."""
    from urllib.parse import parse_qs, urlsplit

    text = text.strip()
    if "://" not in text:
        return "", text.upper(), ""
    parts = urlsplit(text)
    query = parse_qs(parts.query)
    code = query.get("room", [""])[0] or parts.path.rstrip("/").rsplit("/", 1)[-1]
    invite = query.get("invite", [""])[0]
    return f"{parts.scheme}://{parts.netloc}", code.upper(), invite


__all__ = ["NetGame", "room_of"]


def net_score_text(net: NetGame) -> str:
    """The score sheet of a network table's last deal, from what the server sent."""
    mirror = net.mirror
    names = net.names
    lines = []
    result = mirror.results[-1] if mirror.results else None
    if result is not None:
        winner = names[result["winner"]] if result["winner"] < len(names) else "?"
        lines.append(f"Deal {result['deal']}: {winner} went out")
        lines.append("")
        lines.append(f"{'Player':<14}{'Cards left':>11}{'Points':>8}{'Total':>8}")
        for seat, name in enumerate(names):
            left = result.get("counts", [0] * len(names))[seat]
            points = result.get("points", [0] * len(names))[seat]
            total = mirror.totals[seat] if seat < len(mirror.totals) else 0
            lines.append(f"{name[:13]:<14}{left:>11}{points:>+8}{total:>+8}")
    waiting = (mirror.next_deal or {}).get("waiting", [])
    if waiting and not net.game_over:
        lines.append("")
        lines.append("Waiting for: " + ", ".join(names[s] for s in waiting if s < len(names)))
    return "\n".join(lines)
