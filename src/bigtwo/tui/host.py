"""What the screens ask of the app, as protocols: the table's host and the lobby's host.

The table screen and the lobby are pushed by :class:`~bigtwo.tui.app.BigTwoApp`, and each
needs a few things back from it (the preferences, the game speed, what follows a deal, the
cover of a hot-seat game, pages; the lobby's storage and a seat to sit down at). They name
those things here, so that imports run one way, from the app to its screens: this module
must not import the app, a screen or Textual, and holds no behaviour of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .netgame import NetGame
    from .prefs import Prefs
    from .storage import TuiStorage


class TableHost(Protocol):
    """The app as the table screen (its runner and the expansion's controls) sees it."""

    prefs: Prefs
    clock: Callable[[], float]
    startup_probe: str | None  # set by ``bigtwo bench startup``: where to note the first key

    def turn_delay(self) -> float: ...

    def autosave(self) -> None: ...

    def deal_finished(self) -> None: ...

    def show_cover(self, seat: int) -> None: ...

    def set_sort(self, order: str) -> None: ...

    def open_menu(self) -> None: ...

    def open_page(self, what: str, then: Callable[[], None] | None = None) -> None: ...


class LobbyHost(Protocol):
    """The app as a server's lobby sees it."""

    room: str | None  # a room named at start-up (entered at once)
    storage: TuiStorage | None

    def player_name(self) -> str: ...

    def sit(self, net: NetGame) -> None: ...
