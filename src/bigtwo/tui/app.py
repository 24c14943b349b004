"""The Textual app: starts or resumes a game, and moves between the table and every page.

:class:`BigTwoApp` owns the storage, the preferences and the current
:class:`~bigtwo.tui.controller.GameController`; the table screen drives play, and the app
decides what follows a deal (score sheet, next deal, final score, high scores, a new game),
opens pages and forms, and saves the game whenever it waits for a person and on quitting
(also when the terminal goes away), so a quit game resumes at the next start. Tests pass
``delay=0`` (computer moves at once), a temporary ``db_path`` and fewer ``deals``. No
exception from bad input reaches the screen as a traceback: refusals are shown as messages.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App
from textual.binding import Binding
from textual.css.query import NoMatches

from ..bots.levels import level_label
from ..engine.errors import BigTwoError
from ..engine.rules import BIGTWO, REVOLUTION, Rules
from ..match.history import score_table
from ..match.settings import RuleSet
from ..store.matches import MatchStore
from .coaching import assists_on
from .controller import GameController, GameSetup
from .dialogs import (
    Cover,
    FinalScore,
    Menu,
    ResumeOffer,
    ScoreSheet,
    score_sheet_text,
)
from .games import game_of
from .hangup import watch_for_hang_up
from .mirrored import shown_names
from .prefs import Prefs, load_prefs, save_prefs
from .revolution_table import RevolutionTable
from .startup import PROBE as STARTUP_PROBE
from .storage import Saved, SavedRevolution, TuiStorage
from .table import BigTwoTable, TableScreen
from .widgets import fit

if TYPE_CHECKING:
    from .forms import ChosenCards, NewGameRequest
    from .host import LobbyHost, TableHost
    from .lobby import LobbyScreen
    from .netgame import NetGame
    from .seating import Game

# The deals a custom deal form offers at most (a long game's later deals wait for later).
MAX_CHOSEN_DEALS = 20
_ASCII_KEYS = {"⏎": "Enter", "↑": "Up", "↓": "Down", "←": "Left", "→": "Right", "⌫": "Bksp"}


def default_export_dir() -> Path:
    """Where the game history is exported unless told otherwise: a ``bigtwo`` folder in the
    player's documents folder (``$BIGTWO_EXPORT_DIR`` when set), never the folder the game
    happened to be started from."""
    chosen = os.environ.get("BIGTWO_EXPORT_DIR")
    if chosen:
        return Path(chosen).expanduser()
    import platformdirs

    return Path(platformdirs.user_documents_dir()) / "bigtwo"


class BigTwoApp(App[None]):
    """Big Two in the terminal, the Palm game's features and more."""

    TITLE = "Big Two"
    ENABLE_COMMAND_PALETTE = False  # ctrl+p would shadow nothing useful and costs start-up time
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]
    CSS = """
    .-ascii SeatPanel { border: ascii $secondary; }
    .-ascii SeatPanel.-turn { border: ascii $warning; }
    .-ascii TrickView { border: ascii $primary; }
    .-ascii #sheet, .-ascii #final, .-ascii #resume, .-ascii #menu, .-ascii #cover {
        border: ascii $warning;
    }
    /* Scrollbars are drawn with block glyphs; in ASCII mode pages scroll by keys only. */
    Screen.-too-small > * { display: none; }  /* a terminal too small: only TooSmall shows */
    Screen.-too-small > TooSmall { display: block; }
    .-ascii VerticalScroll { scrollbar-size: 0 0; }
    """

    def __init__(
        self,
        *,
        db_path: str | Path | None = None,
        rules: str | None = None,
        seed: int | None = None,
        ascii_only: bool = False,
        delay: float | None = None,
        deals: int | None = None,
        export_dir: str | Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        store: MatchStore | None = None,
        server: str | None = None,
        room: str | None = None,
        watch: bool = False,
        name: str = "",
    ) -> None:
        """``server``: play at that game server (its lobby opens; ``room``, a code or share
        link, is entered at once, watched with ``watch``) instead of at a local table."""
        super().__init__()
        if rules is not None:
            Rules.preset(rules)  # an unknown preset fails here, in words, before the screen
        self.db_path = db_path
        self.rules_override = rules
        self.seed = seed
        self.ascii_only = ascii_only
        self.delay_override = delay
        self.deals_override = deals
        self.export_dir = Path(export_dir) if export_dir is not None else default_export_dir()
        self.clock = clock
        self.store = store
        self.storage: TuiStorage | None = None
        self.prefs = Prefs()
        self.game: GameController | None = None
        self.table: TableScreen | None = None
        self.ready = False  # the table is up and playable (start-up timing and tests)
        self.server = server
        self.room = room
        self.watch_room = watch
        self.name_override = name
        self.net: NetGame | None = None  # the network table being played, if any
        self.lobby: LobbyScreen | None = None
        # Set by ``bigtwo bench startup``: where to note the time the table first took a key.
        self.startup_probe = os.environ.get(STARTUP_PROBE) or None

    # -- start-up ---------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, lambda _: self.call_later(self._fit))
        if not self.is_headless:  # a real terminal, which can go away under the game
            watch_for_hang_up(self.hang_up)
        store = self.store or _open_store(self.db_path, self.report)
        self.storage = TuiStorage(store, self.report)
        self.prefs = load_prefs(self.storage)
        if self.ascii_only:
            self.add_class("-ascii")
        if self.server is not None:
            self._open_lobby(self.server)
            return
        self.table = TableScreen(ascii_only=self.ascii_only)
        self.push_screen(self.table)
        saved = self.storage.unfinished()
        if saved is not None:
            self.push_screen(ResumeOffer(saved.summary()), lambda yes: self._resume(saved, yes))
            return
        self.start_game(self.new_setup())

    def on_resize(self) -> None:
        self.call_later(self._fit)

    def _fit(self) -> None:
        """Every screen says at once when the terminal is too small (dialogs, pages and forms
        as the table), and is drawn again when it grows."""
        for screen in self.screen_stack:
            fit(screen, *self.size)

    # -- network play ------------------------------------------------------------------------------
    def _open_lobby(self, server: str) -> None:
        from .lobby import LobbyScreen

        self.lobby = LobbyScreen(server, name=self.name_override)
        self.push_screen(self.lobby)
        if self.room:
            room, lobby = self.room, self.lobby

            async def enter() -> None:
                from .netgame import room_of

                where, code, invite = room_of(room)
                await lobby.enter(code, watch=self.watch_room or bool(invite), invite=invite,
                                  server=where)  # fmt: skip

            self.call_after_refresh(enter)

    def player_name(self) -> str:
        """The name to sit down with: ``--name``, else the first name in Preferences."""
        return self.name_override or (self.prefs.names[0] if self.prefs.names else "")

    def sit(self, net: NetGame) -> None:
        """Show a network table, joined or watched, on the table screen."""
        self.net = net
        table = TableScreen(ascii_only=self.ascii_only)
        self.table = table

        def changed() -> None:
            if self.net is net and table.drawn:
                with contextlib.suppress(NoMatches):  # the table is being taken down
                    table.redraw()
                    table.advance()
                    if len(net.mirror.results) > net.sheets_shown:
                        self.deal_finished()  # a deal ended, even if the next began at once

        net.changed = changed
        net.refused = lambda message: table.say(message, "error")
        table.attach(net, _part_for(net))
        self.push_screen(table)
        self.ready = True
        table.advance()

    async def leave_table(self) -> None:
        """Back to the lobby from a network table (the seat stays ours on the server until
        the table gives it to a computer)."""
        net, self.net = self.net, None
        if net is not None:
            await net.close()
        while (
            self.lobby is not None and self.screen is not self.lobby and len(self.screen_stack) > 1
        ):
            self.pop_screen()
        if self.lobby is not None:
            await self.lobby.action_refresh()

    def _net_deal_finished(self, net: NetGame) -> None:
        """The score sheet of each deal the server finished, once (the next deal may have
        begun already: the sheet is of the deal that ended)."""
        shown = len(net.mirror.results)
        if self.screen is not self.table or shown <= net.sheets_shown:
            return
        net.sheets_shown = shown
        number = net.mirror.results[-1]["deal"]
        over = net.game_over or number >= net.deals  # the match's end may come just after
        if over:
            title, button = "Score: the match is over", "Leave the table"
        else:
            title, button = f"Score of deal {number} of {net.deals}", "Next deal"
        from .netgame import net_score_text

        text = Text(net_score_text(net))
        rematch = over and net.seat is not None  # a player, not a spectator
        review = net.seat is not None and assists_on(net.mirror)  # the server's, for a player
        sheet = ScoreSheet(
            text, title=title, button=button, deals=None, again=False, rematch=rematch,
            review=review,
        )  # fmt: skip
        self.push_screen(sheet, lambda answer: self._after_net_sheet(net, answer))

    async def _after_net_sheet(self, net: NetGame, answer: str | None) -> None:
        if net is not self.net:
            return
        last = bool(net.mirror.results) and net.mirror.results[-1]["deal"] >= net.deals
        if answer == "rematch" and self.lobby is not None:
            code, token = net.code, net.client.token or ""
            await self.leave_table()
            await self.lobby.rematch(code, token, net.server or self.lobby.server)
            return
        if answer not in (None, "next", "again", "quit"):
            net.sheets_shown -= 1  # the sheet comes back when the page closes
            self.open_page(answer, then=self.deal_finished)
            return
        if answer == "quit" or net.game_over or last:
            await self.leave_table()
            return
        net.next_deal()
        assert self.table is not None
        self.table.redraw()

    def report(self, message: str) -> None:
        """A storage problem: say it and play on (the game is then not saved)."""
        self.notify(message, title="Not saved", severity="error", timeout=8)

    def _resume(self, saved: Saved | SavedRevolution, yes: bool | None) -> None:
        """The answer to the resume offer: the game left, or the New game form (the game
        left is set aside only once a new one starts; the form's Cancel asks again)."""
        storage = self.storage
        assert storage is not None
        game = storage.load(saved, clock=self.clock) if yes else None
        if game is not None:
            self.attach(game)
            return
        if yes:  # it could not be read back: a new game, as nothing is left to continue
            saved.set_aside(storage)
            self.start_game(self.new_setup())
            return
        from . import forms

        def chosen(request: NewGameRequest | None) -> None:
            if request is None:
                self.push_screen(ResumeOffer(saved.summary()), lambda y: self._resume(saved, y))
                return
            saved.set_aside(storage)
            self._new_game_chosen(request)

        left = saved.summary().split("\n", 1)[0]
        self.push_screen(forms.NewGameForm(self.prefs, _levels(), playing=left), chosen)

    def new_setup(self, **changes: Any) -> GameSetup:
        return GameSetup.from_prefs(
            self.prefs,
            rules=changes.pop("rules", None) or self.rules_override,
            seed=self.seed,
            deals=self._deals(),
            **changes,
        )

    def _deals(self) -> int | None:
        """Deals per game: ``--deals``, else the New game choice, else the rule set's."""
        return self.deals_override or self.prefs.deals or None

    def start_game(self, setup: GameSetup) -> None:
        try:
            game = GameController(setup, store=self._tables(), clock=self.clock)
        except BigTwoError as exc:
            self.notify(str(exc), severity="error")
            game = GameController(
                self.new_setup(rules="palm"), store=self._tables(), clock=self.clock
            )
        self.attach(game)

    def _tables(self) -> Any:
        """Where local tables keep their command logs: beside the games, in one file."""
        return self.storage.tables if self.storage is not None else None

    def attach(self, game: GameController) -> None:
        self.game = game
        assert self.table is not None
        self.table.attach(game, _part_for(game))
        self.ready = True
        self.table.advance()

    def turn_delay(self) -> float:
        """Seconds each computer move waits: the speed preference, unless a test set it."""
        if self.delay_override is not None:
            return self.delay_override
        return self.prefs.delay

    # -- saving -------------------------------------------------------------------------------
    def autosave(self) -> None:
        """Keep the game in progress; called whenever the game waits for a person."""
        # A finished game is kept too until its final score is taken, so quitting on the
        # last score sheet resumes there.
        if self.game is not None and self.storage is not None:
            self.storage.save_game(self.game)

    async def action_quit(self) -> None:
        if self.net is not None and self.lobby is not None:
            await self.leave_table()  # from a network table, q goes back to the lobby
            return
        self.autosave()
        self.exit()

    def hang_up(self) -> None:
        """The terminal went away (window closed, link dropped): keep the game and quit."""
        self.autosave()
        self.exit()

    def on_unmount(self) -> None:
        if self.storage is not None:
            self.storage.close()

    def set_sort(self, order: str) -> None:
        self.prefs = replace(self.prefs, sort=order)
        save_prefs(self.storage, self.prefs)

    # -- after a deal --------------------------------------------------------------------------
    def deal_finished(self) -> None:
        if self.net is not None:
            self._net_deal_finished(self.net)
            return
        game = self.game
        if game is None or not game.deal_over or self.screen is not self.table:
            # Not over: a new game was started from a page opened over the sheet. Not at the
            # table: the sheet is up already, or a form opened from it is still in use.
            return
        self.autosave()
        played = game.played
        result = played.results[-1]
        scored = played.ruleset.scoring.per_card != "none"
        text = score_sheet_text(
            game.score_rows(),
            number=result.number,
            deals=played.deals,
            show_cards_left=self.prefs.show_cards_left,
            ascii_only=self.ascii_only,
            scored=scored,
            rules=game.rules,
        )
        text = game.kind.sheet_note(text, game)
        title = "Score" if not game.game_over else "Score: last deal of the game"
        button = "Final score" if game.game_over else "Next deal"
        deals = score_table(played) if scored else None  # type: ignore[arg-type]
        waiting = game.local.waiting_for_next()
        if game.hot_seat and waiting and not game.game_over:
            # The table waits for every person's "next": each reads the sheet in turn.
            title = f"Score   {game.names[waiting[0]]}, press Next deal when you have read it"
        sheet = ScoreSheet(
            text,
            title=title,
            button=button,
            deals=deals,
            again=not game.game_over,
            cards=not game.kind.cards_off,
            review=assists_on(game.mirror),
        )
        self.push_screen(sheet, self._after_sheet)

    def _after_sheet(self, answer: str | None) -> None:
        game = self.game
        if game is None:
            return
        if answer == "quit":
            self.call_next(self.action_quit)
            return
        if answer == "menu":
            self.push_screen(
                Menu(), lambda choice: self.open_page(choice or "", then=self.deal_finished)
            )
            return
        if answer == "cards" and not game.game_over:
            if game.kind.cards_off:
                assert self.table is not None
                self.table.say(game.kind.cards_off, "error")
                self.deal_finished()
                return
            self.choose_cards(then=self.deal_finished)
            return
        if answer not in (None, "next", "again"):
            self.open_page(answer, then=self.deal_finished)
            return
        if game.game_over:
            self._final_score()
            return
        if answer == "again":
            game.replay_deal()  # the next deal is this one, dealt again
        waiting = game.local.waiting_for_next()
        if game.hot_seat and waiting:
            game.next_deal(waiting[0])
            if game.local.between is not None:  # someone else has still to read it
                self.deal_finished()
                return
        else:
            game.next_deal()
        assert self.table is not None
        self.table.say("")
        self.table.redraw()
        self.table.advance()

    def _final_score(self) -> None:
        game = self.game
        assert game is not None and self.storage is not None
        self.storage.finish(game)
        totals = game.played.totals
        order = sorted(range(game.players), key=lambda s: (-totals[s], s))
        standings = [(game.names[s], totals[s]) for s in order]
        # High scores of every rule set share one list, each labelled by its rules.
        entries = [
            (seat, game.names[seat], totals[seat])
            for seat in game.humans
            if self.storage.qualifies(totals[seat])
        ]
        final = FinalScore(
            standings,
            entries,
            deals=len(game.played.results),
            replay=lambda: self.replay_game(game),
            save=self._keep_high_scores,
        )
        self.push_screen(final, self._after_final)

    def _keep_high_scores(self, names: dict[int, str]) -> None:
        game = self.game
        assert game is not None and self.storage is not None
        for seat, name in names.items():
            self.storage.add_high_score(game, seat, name)

    def _after_final(self, names: dict[int, str] | None) -> None:
        game = self.game
        assert game is not None
        self._keep_high_scores(names or {})
        self.attach(game.new_game())

    # -- hot seat ------------------------------------------------------------------------------
    def show_cover(self, seat: int) -> None:
        game = self.game
        if game is None or isinstance(self.screen, Cover):
            return
        self.autosave()
        note = ""
        if seat in game.asked():
            pending = game.mirror.pending or {}
            names = shown_names(game.names, hot_seat=True, viewer=None)
            who = names[int(pending.get("seat", 0))]
            note = f"{who} activated a function: {names[seat]} may counter it"

        def uncovered(_: None) -> None:
            assert self.table is not None
            game.reveal(seat)
            self.table.redraw()
            self.table.advance()

        name = shown_names(game.names, hot_seat=True, viewer=None)[seat]
        self.push_screen(Cover(name, note=note), uncovered)

    # -- pages and forms ---------------------------------------------------------------------
    def open_menu(self) -> None:
        self.push_screen(Menu(), lambda choice: self.open_page(choice) if choice else None)

    def open_page(self, what: str, then: Callable[[], None] | None = None) -> None:
        from . import forms, pages, review, server_review
        from .helptext import KEYS_HELP, rules_help

        game = self.game
        assert self.storage is not None

        body: str | Text

        def closed(_: Any = None) -> None:
            if then is not None:
                then()

        if what == "quit":
            self.call_next(self.action_quit)
        elif what == "new" and self.net is not None:
            assert self.table is not None
            self.table.say("A new game is made in the lobby: q leaves this table first", "error")
            closed()
        elif what == "help":
            if self.net is not None and self.net.mirror.ruleset is not None:
                ruleset = self.net.mirror.ruleset
            else:
                ruleset = (
                    game.played.ruleset if game is not None else RuleSet.preset(self.prefs.rules)
                )
            body = rules_help(ruleset, ascii_only=self.ascii_only) + "\n\n" + KEYS_HELP
            body += game_of(ruleset.rules).reference(ruleset.rules, ascii_only=self.ascii_only)
            self.push_screen(pages.Page(body, title="Help: rules and keys   (Esc back)"), closed)
        elif what == "history" and self.net is not None:
            net = self.net
            page = pages.HistoryPage(net.history_text, self.export_history, scope="game")
            self.push_screen(page, closed)
            if net.game_over:  # the server's record, every hand face up, now nothing is hidden
                self.run_worker(self._server_history(net, page), exit_on_error=False)
        elif what == "history" and game is not None:
            self.push_screen(
                pages.HistoryPage(
                    lambda scope: pages.history_text(game, scope, ascii_only=self.ascii_only),
                    self.export_history,
                    replay=lambda: self.replay_game(game),
                ),
                closed,
            )
        elif what == "review" and self.net is not None:  # the server's review of the deal
            server_review.open_net_review(self, self.net, closed)
        elif what == "review" and game is not None:
            review.open_review(self, game, closed)
        elif what == "tracker" and (table := self.net or game) is not None:
            body = table.kind.tracker_text(table.mirror, table.hand(), table.rules, self.ascii_only)
            self.push_screen(pages.TrackerPage(body), closed)
        elif what == "scores":
            body = pages.high_scores_text(self.storage.high_scores())
            self.push_screen(pages.Page(body, title="High scores   (Esc back)"), closed)
        elif what == "stats":
            storage = self.storage
            self.push_screen(pages.StatsPage(storage.stats, storage.reset_stats), closed)
        elif what == "prefs":

            def prefs_saved(prefs: Prefs | None) -> None:
                self._prefs_saved(prefs)
                closed()

            self.push_screen(forms.PrefsForm(self.prefs, _levels()), prefs_saved)
        elif what == "new":

            def new_game_chosen(request: NewGameRequest | None) -> None:
                self._new_game_chosen(request)
                closed()

            form = forms.NewGameForm(self.prefs, _levels(), playing=self._playing())
            self.push_screen(form, new_game_chosen)
        else:
            closed()

    async def _server_history(self, net: NetGame, page: Any) -> None:
        from ..client import Lobby
        from .pages import ASCII_SUITS

        try:
            async with Lobby(net.server, timeout=5.0) as lobby:
                response = await lobby.http.get(f"{lobby.url}/api/rooms/{net.code}/history")
        except Exception as exc:  # the server went away: the page keeps what was seen here
            page.note(f"The server's history could not be read: {exc or type(exc).__name__}")
            return
        if response.status_code == 200 and page.is_mounted:
            text = response.text
            page.make_text = lambda scope: text
            page.set_body(text.translate(ASCII_SUITS) if self.ascii_only else text)
            page.note("The whole match, every hand, as the server recorded it")

    def replay_game(self, game: GameController) -> str:
        """Open the replay of ``game`` (its deals that are over) from its stored record; why
        not, in words, when it cannot be ("" when it opened)."""
        from .pages import ReplayPage
        from .review import open_stored_review

        assert self.storage is not None
        if not game.game_over:
            self.autosave()  # the record as the game stands now
        if game.match_id is None:
            return "This game is not stored, so it cannot be replayed"
        match = self.storage.stored_match(game.match_id)
        if match is None:
            return "The game's record cannot be read, so it cannot be replayed"
        if not match.results:
            return "No deal is over yet: a deal can be replayed once it is over"
        see = partial(open_stored_review, self, game, match)
        self.push_screen(ReplayPage(match, ascii_only=self.ascii_only, review=see))
        return ""

    def export_history(self, scope: str, text: str) -> Path:
        """Write the history to a text file (the Palm game exported to the Memo pad)."""
        game = self.game
        number = game.played.deal_number if game is not None else 0
        stamp = time.strftime("%Y%m%d-%H%M%S")
        which = f"deal{number}" if scope == "deal" else "game"
        self.export_dir.mkdir(parents=True, exist_ok=True)
        path = self.export_dir / f"bigtwo-history-{stamp}-{which}.txt"
        path.write_text(text, encoding="utf-8")
        return path

    def _prefs_saved(self, prefs: Prefs | None) -> None:
        if prefs is None:
            return
        old = self.prefs
        self.prefs = prefs
        save_prefs(self.storage, prefs)
        game = self.game
        assert self.table is not None
        if game is not None:
            notes = []
            if prefs.rules != game.next_rules:
                if game.set_rules(prefs.rules):
                    notes.append(f"Rules {prefs.rules} apply from the next game")
                else:
                    notes.append(f"{prefs.rules} needs another number of players: start a new game")
            game.set_autopass(prefs.autopass, prefs.autopass_five)
            if prefs.bot_level() != old.bot_level():
                game.set_level(prefs.bot_level())
                level = level_label(prefs.bot_level())
                notes.append(f"Computer level {level} from the next deal")
            game.set_names(prefs.names)
            self.table.say("; ".join(notes) or "Preferences saved")
            self.table.redraw()
            self.autosave()

    def _playing(self) -> str | None:
        """The game a new one would set aside, in words; None when there is none to lose."""
        game = self.game
        if game is None or game.game_over:
            return None
        return f"deal {game.played.deal_number} of {game.played.deals}"

    def _new_game_chosen(self, request: NewGameRequest | None) -> None:
        if request is None:
            return
        from .forms import CustomDealForm

        self.prefs = replace(
            self.prefs,
            rules=request.rules,
            players=request.players,
            humans=request.humans,
            names=request.names,
            level=request.level,
            deals=request.deals,
        ).checked()
        save_prefs(self.storage, self.prefs)

        def setup_of(custom: tuple[tuple[int, ...], ...]) -> GameSetup:
            return GameSetup.from_prefs(
                self.prefs,
                rules=request.rules,
                seed=self.seed,
                deals=self._deals(),
                players=request.players,
                humans=request.humans,
                custom=custom,
            )

        if not request.custom:
            self._replace_game(setup_of(()))
            return
        rules = RuleSet.preset(request.rules)
        deals = self._deals() or rules.match.deals_per_game
        people = [i for i in range(request.players) if request.humans[i]]

        def chosen(cards: ChosenCards | None) -> None:
            if cards is not None:
                self._replace_game(setup_of(tuple(cards.commands())))

        self.push_screen(
            CustomDealForm(
                request.names[: request.players],
                rules.rules,
                rules.rules.hand_size(request.players),
                deals=range(1, min(deals, MAX_CHOSEN_DEALS) + 1),
                seat=people[0] if people else 0,
                ascii_only=self.ascii_only,
            ),
            chosen,
        )

    def choose_cards(self, then: Callable[[], None]) -> None:
        """Between deals: choose any seat's cards for the deals to come, then ``then``."""
        from .forms import CustomDealForm

        game = self.game
        assert game is not None and self.table is not None
        first = game.local.between or game.deal_number + 1
        last = min(game.match.deals, first + MAX_CHOSEN_DEALS - 1)
        table = self.table

        def chosen(cards: ChosenCards | None) -> None:
            notes = []
            for deal, seat, mask in cards.commands() if cards is not None else ():
                try:
                    game.choose_cards(seat, mask, deal=deal)
                except BigTwoError as exc:
                    notes.append(f"Deal {deal}, {game.names[seat]}: {exc}")
            if cards is not None:
                chosen_deals = sorted(cards.deals)
                if notes:
                    table.say("; ".join(notes), "error")
                elif chosen_deals:
                    which = ", ".join(str(d) for d in chosen_deals)
                    table.say(f"Cards chosen for deal {which}")
                self.autosave()
            then()

        people = game.humans
        self.push_screen(
            CustomDealForm(
                game.names,
                game.rules,
                game.rules.hand_size(game.players),
                deals=range(first, last + 1),
                seat=people[0] if people else 0,
                ascii_only=self.ascii_only,
            ),
            chosen,
        )

    def _replace_game(self, setup: GameSetup) -> None:
        assert self.storage is not None
        if self.game is not None and not self.game.game_over:
            self.storage.abandon(self.game.match_id)
        self.start_game(setup)

    # -- looks ------------------------------------------------------------------------------
    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        if self.ascii_only and not shown.isascii():
            return _ASCII_KEYS.get(shown, binding.key)
        return shown


# The table screen's part for each game (a rules' game): what it draws and does its own way.
_PARTS: dict[str, type[BigTwoTable]] = {BIGTWO: BigTwoTable, REVOLUTION: RevolutionTable}


def _part_for(game: Game) -> type[BigTwoTable]:
    """The table screen's part for the game: what it draws and does its own way."""
    return _PARTS[game.rules.game]


def _levels() -> list[str]:
    """The computer levels a player may choose, from the weakest to the strongest."""
    from ..bots import bot_names
    from ..bots.levels import by_strength

    return by_strength(bot_names())


def _open_store(path: str | Path | None, report: Callable[[str], None]) -> MatchStore:
    """The store at ``path``; when it cannot be opened, say why and play on in memory."""
    try:
        return MatchStore(path)
    except BigTwoError as exc:
        report(f"{exc} - playing without saving")
        return MatchStore(":memory:")


if TYPE_CHECKING:  # the app is what its screens ask of it (checked by mypy, never run)

    def _hosts(app: BigTwoApp) -> tuple[TableHost, LobbyHost]:
        return app, app
