"""The lobby of a game server in the terminal: open rooms, a new room, join, watch.

:class:`LobbyScreen` lists a server's open rooms a page at a time
(:meth:`~bigtwo.client.Lobby.rooms_page`), creates a room from :class:`NewRoomForm`,
and takes a seat (or a spectator's place) in a room chosen from the list, or named by its
code or a share link (``…/r/CODE``, ``…?invite=KEY``). Once connected it hands the app a
:class:`~bigtwo.tui.netgame.NetGame`, which the same table screen as local play draws. Every
refusal from the server is said in words; so is a server that cannot be reached.

A seat taken is remembered between runs (its token, per server and room, in the local
preferences). The rooms those seats are still at (the server says which:
:meth:`~bigtwo.client.Lobby.mine`) are listed at the top of the lobby, each with Rejoin, after a
``q`` from the table as after a restart, which also offers the first of them at once (and
the host may close one there); joining such a room again sits down at that seat, not a new one.
A player signed in there (``bigtwo login``: the session is kept beside the seats) is named in
the title line with their rating, and each seat they take is kept with their account too, so
it follows them to another terminal or browser.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, cast

import httpx
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Input, Label, Static

from ..client import ActionRefused, Lobby, ServerError, TableClient
from ..engine.errors import BigTwoError
from ..engine.rules import Rules
from .forms import Choice
from .netgame import NetGame, room_of
from .prefs import PLAYABLE_PRESETS, SPEEDS, levels_for
from .storage import kept_session

_Asking = Callable[[Lobby], Awaitable[dict[str, Any]]]  # a request to a server's lobby

if TYPE_CHECKING:
    from .host import LobbyHost

PAGE = 10  # rooms per page
MINE_ASKED = 10  # remembered seats asked about at once (each unknown code costs a lookup)
SEATS_PREF = "network_seats"  # the seats taken at game servers: "server code" -> seat


def unreachable(server: str, exc: BaseException) -> str:
    reason = str(exc) or type(exc).__name__
    return f"Cannot reach the server at {server}: {reason}"


class LobbyScreen(Screen[None]):
    """A server's open rooms; Enter joins the one under the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,f5", "refresh", "Refresh"),
        Binding("n", "new_room", "New room"),
        Binding("j", "join_selected", "Join"),
        Binding("w", "watch_selected", "Watch"),
        Binding("right_square_bracket", "page(1)", "Next page"),
        Binding("left_square_bracket", "page(-1)", "Previous page"),
        Binding("q", "quit", "Quit"),
    ]
    DEFAULT_CSS = """
    LobbyScreen { background: $background; }
    #lobby-title { height: 1; background: $primary-darken-2; padding: 0 1; text-style: bold; }
    #rooms { height: 1fr; }
    #lobby-message { height: auto; max-height: 3; padding: 0 1; color: $warning; }
    #lobby-join { height: 3; }
    #lobby-join Input { width: 1fr; }
    #lobby-join Button, #lobby-buttons Button { margin: 0 1; }
    #lobby-buttons { height: 1; }
    #my-rooms { height: auto; max-height: 7; display: none; }
    #my-rooms.-some { display: block; }
    #my-rooms-title { height: 1; padding: 0 1; text-style: bold; color: $accent; }
    .my-room { height: 1; }
    .my-room Static { width: 1fr; padding: 0 1; }
    .my-room Button { margin: 0 1; }
    """

    def __init__(self, server: str, *, name: str = "") -> None:
        super().__init__()
        self.server = server.rstrip("/")
        self.player_name = name
        self.lobby = Lobby(self.server, timeout=5.0)
        self.cursors: list[int | None] = [None]  # the cursor of each page seen, this one last
        self.next_cursor: int | None = None
        self.rooms: list[dict[str, Any]] = []
        self.mine: list[dict[str, Any]] = []  # the rooms our remembered seats are still at
        self.busy = False

    @property
    def bigtwo(self) -> LobbyHost:
        """The app that pushed the lobby (what the lobby needs of it: :mod:`.host`)."""
        return cast("LobbyHost", self.app)

    def compose(self) -> ComposeResult:
        yield Static(Text(self.title_line()), id="lobby-title")
        with Vertical(id="my-rooms"):
            yield Static("Your rooms: still being played, with your seat kept", id="my-rooms-title")
        table: DataTable[Text] = DataTable(id="rooms", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="lobby-message")
        with Horizontal(id="lobby-join"):
            yield Input(placeholder="Room code or share link", id="room-input")
            yield Button("Join", id="btn-join", compact=True, variant="success")
            yield Button("Watch", id="btn-watch", compact=True)
        with Horizontal(id="lobby-buttons"):
            yield Button("New room", id="btn-new", compact=True, variant="primary")
            yield Button("Refresh", id="btn-refresh", compact=True)
            yield Button("< Page", id="btn-prev", compact=True)
            yield Button("Page >", id="btn-next", compact=True)
        yield Footer()

    def title_line(self, you: dict[str, Any] | None = None) -> str:
        """The title: the server, and who is signed in there with their rating."""
        line = f"Big Two  -  open rooms at {self.server}"
        if you is None:
            return line
        if not you.get("signed_in"):
            return f"{line}  -  session ended: bigtwo login"
        rating = (you.get("ratings") or {}).get("bigtwo") or {}
        games = int(rating.get("games", 0))
        played = f" ({games} rated game{'s' if games != 1 else ''})" if games else ""
        return f"{line}  -  signed in as {you.get('name')}, rating {rating.get('rating')}{played}"

    def _session(self, server: str) -> str:
        storage = self.bigtwo.storage
        return kept_session(storage.store, server) if storage is not None else ""

    async def load_account(self) -> None:
        """Who is signed in at this server (``bigtwo login``), in the title line."""
        if not self.lobby.session:
            return
        try:
            you = await self.lobby.account()
        except (ServerError, httpx.HTTPError, OSError):
            return  # the list of open rooms says what is wrong
        self.query_one("#lobby-title", Static).update(Text(self.title_line(you)))

    async def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Code", "Title", "Rules", "Seats", "Deals", "Status")
        self.lobby.session = self._session(self.server)
        await self.action_refresh()
        if not self.bigtwo.room:  # a room named at start-up is entered at once instead
            await self.offer_rejoin()

    # -- seats remembered between runs -----------------------------------------------------------
    def _seats(self) -> dict[str, dict[str, Any]]:
        storage = self.bigtwo.storage
        value = storage.get_pref(SEATS_PREF, {}) if storage is not None else {}
        return value if isinstance(value, dict) else {}

    @staticmethod
    def _key(server: str, code: str) -> str:
        return f"{server.rstrip('/')} {code.upper()}"

    def remembered(self, server: str, code: str) -> dict[str, Any] | None:
        """The seat we took at room ``code`` of ``server`` in an earlier run, if any."""
        seat = self._seats().get(self._key(server, code))
        if isinstance(seat, dict) and seat.get("ws") and seat.get("token"):
            return seat
        return None

    def remember(self, server: str, code: str, seat: dict[str, Any]) -> None:
        storage = self.bigtwo.storage
        if storage is not None:
            kept = {"ws": str(seat["ws"]), "token": str(seat["token"]), "seat": seat.get("seat"),
                    "link": str(seat.get("link", ""))}  # fmt: skip
            storage.set_pref(SEATS_PREF, {**self._seats(), self._key(server, code): kept})

    def forget(self, server: str, code: str) -> None:
        storage = self.bigtwo.storage
        seats = self._seats()
        if storage is not None and seats.pop(self._key(server, code), None) is not None:
            storage.set_pref(SEATS_PREF, seats)

    async def offer_rejoin(self) -> None:
        """Offer the first of our rooms (a seat we sat at in an earlier run, at a room of this
        server still being played) at once."""
        if not self.mine:
            return
        from .dialogs import Confirm

        room = self.mine[0]["room"]
        code = str(room["code"])
        question = f"You have a seat at room {code}{_where(room)}, which is still being played. "
        question += "Rejoin it?"

        async def answered(yes: bool | None) -> None:
            if yes:
                await self.enter(code)

        self.app.push_screen(Confirm(question, yes="Rejoin", no="Not now"), answered)

    async def load_mine(self) -> None:
        """List the rooms of this server our remembered seats are still at (the server checks
        each seat's token), each with Rejoin; seats that hold nothing now are forgotten."""
        prefix = self._key(self.server, "")
        asked = [
            (key[len(prefix) :], str(seat["token"]))
            for key, seat in self._seats().items()
            if key.startswith(prefix) and isinstance(seat, dict) and seat.get("token")
        ][-MINE_ASKED:]  # the newest: a preference keeps the order seats were remembered in
        rooms: list[dict[str, Any]] = []
        if asked:
            try:
                answer = await self.lobby.mine(asked)
            except (ServerError, httpx.HTTPError, OSError):
                answer = {"rooms": [], "gone": []}  # the list of open rooms says what is wrong
            for code in answer.get("gone", []):
                self.forget(self.server, str(code))
            rooms = list(answer.get("rooms", []))
        box = self.query_one("#my-rooms", Vertical)
        await box.remove_children(".my-room")
        await box.mount_all(_my_room_row(held) for held in rooms)
        box.set_class(bool(rooms), "-some")
        self.mine = rooms  # (once drawn)

    async def on_unmount(self) -> None:
        await self.lobby.close()

    def say(self, message: str) -> None:
        self.query_one("#lobby-message", Static).update(message)

    # -- the list --------------------------------------------------------------------------------
    async def action_refresh(self) -> None:
        """The rooms again, and the rating (back from a table, a rated game may have moved it)."""
        await self.load_account()
        await self.load_mine()
        await self._load(self.cursors[-1])

    async def action_page(self, step: int) -> None:
        if step > 0:
            if self.next_cursor is None:
                self.say("This is the last page")
                return
            self.cursors.append(self.next_cursor)
        elif len(self.cursors) > 1:
            self.cursors.pop()
        else:
            self.say("This is the first page")
            return
        await self._load(self.cursors[-1])

    async def _load(self, cursor: int | None) -> None:
        try:
            page = await self.lobby.rooms_page(PAGE, cursor)
        except ServerError as exc:
            self.say(str(exc))
            return
        except (httpx.HTTPError, OSError) as exc:
            self.say(unreachable(self.server, exc))
            return
        self.rooms = list(page["rooms"])
        self.next_cursor = page.get("next")
        table = self.query_one(DataTable)
        table.clear()
        for room in self.rooms:
            table.add_row(*self.row(room), key=room["code"])
        number = len(self.cursors)
        total = page.get("total", len(self.rooms))
        if self.rooms:
            self.say(
                f"Page {number}: {len(self.rooms)} of {total} open rooms. Enter joins, w watches."
            )
        else:
            self.say("No open rooms: n makes a new one, or type a room's code below")

    @staticmethod
    def row(room: dict[str, Any]) -> list[Text]:
        """A room's cells: Text, so what people typed is never read as markup."""
        seats = room["seats"]
        taken = sum(1 for s in seats if s["taken"] or s["kind"] == "computer")
        cells = [room["code"], room.get("title", "") or "-", room["preset"]]
        cells += [f"{taken}/{len(seats)}", str(room["deals"]), room["status"]]
        return [Text(str(cell)) for cell in cells]

    def _selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not self.rooms or table.cursor_row < 0 or table.cursor_row >= len(self.rooms):
            self.say("Choose a room first (arrows), or type its code below")
            return None
        return str(self.rooms[table.cursor_row]["code"])

    async def action_join_selected(self) -> None:
        code = self._selected()
        if code is not None:
            await self.enter(code)

    async def action_watch_selected(self) -> None:
        code = self._selected()
        if code is not None:
            await self.enter(code, watch=True)

    @on(DataTable.RowSelected)
    async def _row_chosen(self, event: DataTable.RowSelected) -> None:
        await self.action_join_selected()

    # -- a room by code or link -------------------------------------------------------------------
    @on(Input.Submitted, "#room-input")
    async def _typed(self) -> None:
        await self._typed_room(watch=False)

    async def _typed_room(self, *, watch: bool) -> None:
        text = self.query_one("#room-input", Input).value.strip()
        if not text:
            self.say("Type a room's code (such as ABCDEF) or paste its share link")
            return
        server, code, invite = room_of(text)
        if not code.isalnum():
            self.say(f"{text!r} is neither a room code nor a share link")
            return
        await self.enter(code, watch=watch or bool(invite), invite=invite, server=server)

    @on(Button.Pressed)
    async def _button(self, event: Button.Pressed) -> None:
        which = event.button.id
        if which == "btn-join":
            await self._typed_room(watch=False)
        elif which == "btn-watch":
            await self._typed_room(watch=True)
        elif which == "btn-new":
            await self.action_new_room()
        elif which == "btn-refresh":
            await self.action_refresh()
        elif which in ("btn-prev", "btn-next"):
            await self.action_page(1 if which == "btn-next" else -1)
        elif which is not None and which.startswith("rejoin-"):
            await self.enter(which.removeprefix("rejoin-"))
        elif which is not None and which.startswith("close-"):
            self.ask_close(which.removeprefix("close-"))

    def ask_close(self, code: str) -> None:
        """As the host of room ``code``: close it for everyone, once asked to make sure."""
        from .dialogs import Confirm

        kept = self.remembered(self.server, code)
        if kept is None:
            return

        async def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                await self.lobby.close_room(code, str(kept["token"]))
            except ServerError as exc:
                self.say(f"Room {code} was not closed: {exc}")
            except (httpx.HTTPError, OSError) as exc:
                self.say(unreachable(self.server, exc))
            else:
                self.say(f"Room {code} is closed: it has ended for everyone")
            await self.load_mine()

        question = f"Close room {code} for everyone? Its match ends where it stands."
        self.app.push_screen(Confirm(question, yes="Close it", no="Keep it"), answered)

    # -- a new room --------------------------------------------------------------------------------
    async def action_new_room(self) -> None:
        """The new-room form, offering the computer levels this server has."""
        try:
            levels = [str(level) for level in (await self.lobby.info())["levels"]]
        except ServerError as exc:
            self.say(str(exc))
            return
        except (httpx.HTTPError, OSError) as exc:
            self.say(unreachable(self.server, exc))
            return
        prefs = getattr(self.app, "prefs", None)
        pace = prefs.delay if prefs is not None else SPEEDS["medium"]
        self.app.push_screen(NewRoomForm(levels, pace), self._create)

    async def _create(self, body: dict[str, Any] | None) -> None:
        if body is None:
            return
        try:
            made = await self.lobby.create_room(**body)
        except ServerError as exc:
            self.say(f"The server did not make the room: {exc}")
            return
        except (httpx.HTTPError, OSError) as exc:
            self.say(unreachable(self.server, exc))
            return
        code = str(made["code"])
        await self.enter(code, link=str(made.get("link", "")))

    # -- taking a seat -------------------------------------------------------------------------
    async def enter(
        self,
        code: str,
        *,
        watch: bool = False,
        invite: str = "",
        server: str = "",
        link: str = "",
    ) -> NetGame | None:
        """Sit down at (or watch) room ``code``; the app then shows its table."""
        if self.busy:
            return None
        self.busy = True
        try:
            return await self._enter(code, watch, invite, server or self.server, link)
        finally:
            self.busy = False

    async def _enter(
        self, code: str, watch: bool, invite: str, server: str, link: str
    ) -> NetGame | None:
        if not watch:
            kept = self.remembered(server, code)
            if kept is not None:  # our seat from an earlier run: sit down there again
                try:
                    return await self._connect(code, kept, False, server, link, quiet=True)
                except ActionRefused:
                    self.forget(server, code)  # the seat is ours no more: take a new one
        self.say(f"{'Watching' if watch else 'Joining'} {code}…")
        name = self.player_name or self.bigtwo.player_name()
        seat = await self._ask(
            server,
            f"Room {code}",
            lambda lobby: lobby.watch(code, invite) if watch else lobby.join(code, name),
        )
        if seat is None:
            return None
        if not watch:
            self.remember(server, code, seat)
            await self._keep_seat(server, str(seat.get("code") or code), str(seat["token"]))
        return await self._connect(code, seat, watch, server, link)

    async def _keep_seat(self, server: str, code: str, token: str) -> None:
        """Keep a seat taken with the account signed in at ``server`` (if one is)."""
        if not self._session(server):
            return

        async def keep(lobby: Lobby) -> dict[str, Any]:
            return await lobby.keep_seat(code, token)

        await self._ask(server, "Your seat was not kept with your account", keep)

    async def _ask(self, server: str, refused: str, ask: _Asking) -> dict[str, Any] | None:
        """A seat asked of ``server``'s lobby; None once a refusal (``refused``: what it is
        said of) or an unreachable server is said."""
        if server.rstrip("/") == self.server:
            lobby = self.lobby
        else:
            lobby = Lobby(server, timeout=5.0, session=self._session(server))
        try:
            return await ask(lobby)
        except ServerError as exc:
            self.say(f"{refused}: {exc}")
        except (httpx.HTTPError, OSError) as exc:
            self.say(unreachable(server, exc))
        finally:
            if lobby is not self.lobby:
                await lobby.close()
        return None

    async def rematch(self, code: str, token: str, server: str) -> NetGame | None:
        """A new game for the players of finished room ``code`` (asked with our seat's token
        there; asked again, or by another player first, it is the same new table): sit down
        at our seat in it."""
        self.say(f"A new game after room {code}…")
        seat = await self._ask(
            server, f"No new game after room {code}", lambda lobby: lobby.rematch(code, token)
        )
        if seat is None:
            return None
        new = str(seat["code"])
        self.forget(server, code)
        self.remember(server, new, seat)
        await self._keep_seat(server, new, str(seat["token"]))
        return await self._connect(new, seat, False, server, str(seat.get("link", "")))

    async def _connect(
        self,
        code: str,
        seat: dict[str, Any],
        watch: bool,
        server: str,
        link: str,
        *,
        quiet: bool = False,
    ) -> NetGame | None:
        """Open the table with a seat's (or a spectator's) token and show it; ``quiet``: a
        refusal is raised, not said (a remembered seat that is gone is replaced by a new
        one)."""
        client = TableClient(str(seat["ws"]), str(seat["token"]), watch=watch)
        net = NetGame(client, server=server, link=link or str(seat.get("link", "")))
        try:
            await client.connect(timeout=5.0)
        except ActionRefused as exc:
            if quiet:
                raise
            self.say(f"Room {code}: {exc}")
            return None
        except (OSError, TimeoutError, BigTwoError) as exc:
            self.say(f"Cannot connect to room {code}: {exc or type(exc).__name__}")
            return None
        net.ready()
        self.say("")
        self.bigtwo.sit(net)
        # What came before the table was shown: the sheet the table waits on us to read.
        self.app.call_after_refresh(net.changed)
        return net

    def action_quit(self) -> None:
        self.app.exit()


def _where(room: dict[str, Any]) -> str:
    """A room's title and how far its match is, as words after its code."""
    title = f" ({room['title']})" if room.get("title") else ""
    deal = f", deal {room['deal']} of {room['deals']}" if room.get("deal") else ""
    return title + deal


def _my_room_row(held: dict[str, Any]) -> Horizontal:
    """One of our rooms in the lobby: where it stands, our seat, and Rejoin."""
    room = held["room"]
    code = str(room["code"])
    state = "waiting for players" if room.get("status") == "waiting" else "playing"
    host = " (host)" if room.get("host") == held["seat"] else ""
    text = Text(f"{code}{_where(room)}: {state}, your seat {held['seat'] + 1}{host}")
    buttons = [Button("Rejoin", id=f"rejoin-{code}", compact=True)]
    if host:  # the host may close the room for everyone
        buttons.append(Button("Close", id=f"close-{code}", compact=True, variant="error"))
    return Horizontal(Static(text), *buttons, classes="my-room")


class NewRoomForm(ModalScreen[dict[str, Any] | None]):
    """A new room: rule set, who sits at each seat, deals, public or private, and the
    computers' pace (the server's pause before each of their moves: at a network table no key
    skips it, so it is chosen here, the terminal's pace first, "none" for no pause)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "create", "Create"),
    ]
    DEFAULT_CSS = """
    NewRoomForm { align: center middle; }
    #new-room { width: 60; height: auto; border: thick $primary; background: $surface;
                padding: 0 1; }
    #new-room Input { height: 1; border: none; margin: 0 0 0 1; }
    #new-room-buttons { height: 1; margin-top: 1; }
    #new-room-buttons Button { margin-right: 2; }
    #new-room-note { color: $warning; height: auto; }
    """

    def __init__(self, levels: list[str], pace: float = SPEEDS["medium"]) -> None:
        super().__init__()
        self.levels = levels
        self.pace = pace

    def compose(self) -> ComposeResult:
        seat_options: list[tuple[Any, str]] = [("human", "a person")]
        seat_options += [(f"computer:{level}", f"computer ({level})") for level in self.levels]
        with Vertical(id="new-room"):
            yield Label("New room   (Tab moves, arrows change, ctrl+s creates)")
            yield Choice("Rule set", [(r, r) for r in PLAYABLE_PRESETS], "palm", id="room-rules")
            for i in range(4):
                options = seat_options + ([("none", "no seat")] if i >= 2 else [])
                first = "human" if i == 0 else f"computer:{self.levels[0]}"
                yield Choice(f"Seat {i + 1}", options, first, id=f"room-seat-{i}")
            yield Choice("Who may see it", [(True, "public: listed"), (False, "private: by link")],
                         True, id="room-public")  # fmt: skip
            paces = [(delay, f"{speed}: {delay:g} s a move") for speed, delay in SPEEDS.items()]
            paces.append((0.0, "none: at once"))
            pace = self.pace if self.pace in dict(paces) else SPEEDS["medium"]
            yield Choice("Computers' pace", paces, pace, id="room-pace")
            yield Input(placeholder="Deals (blank: the rule set's)", id="room-deals")
            yield Input(placeholder="Title (optional)", id="room-title")
            yield Static(id="new-room-note")
            with Horizontal(id="new-room-buttons"):
                yield Button("Create", id="room-create", compact=True, variant="success")
                yield Button("Cancel", id="room-cancel", compact=True)

    def request(self) -> dict[str, Any] | str:
        """The room to ask for, or what is wrong with the form, in words."""
        preset = str(self.query_one("#room-rules", Choice).value)
        seats = [str(self.query_one(f"#room-seat-{i}", Choice).value) for i in range(4)]
        seats = [s for s in seats if s != "none"]
        players = Rules.preset(preset).players
        if len(seats) not in players:
            counts = " or ".join(str(n) for n in players)
            return f"{preset} is played by {counts} players, not {len(seats)}"
        playing = levels_for(preset, self.levels)
        for seat in seats:
            level = seat.partition(":")[2]
            if level and level not in playing:
                return f"The {level} computer does not play {preset}: {', '.join(playing)} do"
        body: dict[str, Any] = {
            "preset": preset,
            "seats": seats,
            "public": bool(self.query_one("#room-public", Choice).value),
            "computer_delay": float(self.query_one("#room-pace", Choice).value),
        }
        deals = self.query_one("#room-deals", Input).value.strip()
        if deals:
            if not deals.isdigit() or int(deals) < 1:
                return f"Deals must be a whole number of at least 1, not {deals!r}"
            body["deals"] = int(deals)
        title = self.query_one("#room-title", Input).value.strip()
        if title:
            body["title"] = title
        return body

    def action_create(self) -> None:
        answer = self.request()
        if isinstance(answer, str):
            self.query_one("#new-room-note", Static).update(answer)
            return
        self.dismiss(answer)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        if event.button.id == "room-create":
            self.action_create()
        else:
            self.action_cancel()


__all__ = ["LobbyScreen", "NewRoomForm", "unreachable"]
