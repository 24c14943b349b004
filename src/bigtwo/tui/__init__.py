"""Big Two in the terminal: a Textual app with the Palm game's features, and more.

``controller`` holds the game logic apart from any widget; ``table`` is the playing screen,
paced by ``runner``, with the expansion's part in ``revolution_table``; ``dialogs``, ``pages``
and ``forms`` are the rest; ``app`` ties them together and pushes the screens, which ask it
for what they need through ``host`` only. Importing this package does not import Textual:
``run`` does, so ``bigtwo --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def run(
    *,
    db_path: str | Path | None = None,
    rules: str | None = None,
    seed: int | None = None,
    ascii_only: bool = False,
    deals: int | None = None,
    server: str | None = None,
    room: str | None = None,
    watch: bool = False,
    name: str = "",
    export_dir: str | Path | None = None,
) -> int:
    """Run the game until the player quits; the game in progress is kept for next time.

    The store is opened before the screen takes over, so a locked or damaged data file is
    reported in words on the command line (a :class:`BigTwoError`), not inside the app; so is
    a data file whose game another ``bigtwo play`` has open (see :class:`.storage.TableLock`).
    With ``server`` it opens that game server's lobby (and ``room`` in it) instead: the data
    file then only keeps the preferences, and another game may be open on it.
    """
    from ..store.matches import MatchStore
    from .storage import TableLock

    store = MatchStore(db_path)
    memory = str(store.path) == ":memory:"
    try:
        with TableLock(store.path) if not memory and server is None else _no_lock():
            from .app import BigTwoApp

            app = BigTwoApp(
                db_path=db_path,
                rules=rules,
                seed=seed,
                ascii_only=ascii_only,
                deals=deals,
                store=store,
                server=server,
                room=room,
                watch=watch,
                name=name,
                export_dir=export_dir,
            )
            app.run()
    finally:
        store.close()
    return int(app.return_code or 0)


@contextmanager
def _no_lock() -> Iterator[None]:
    yield
