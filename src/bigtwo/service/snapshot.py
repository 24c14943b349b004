"""Snapshots: a table's state as bytes (:meth:`Snapshots.freeze`), and the table again from
them (:meth:`Snapshots.thaw`), so that a stored table is a snapshot and the few commands after
it rather than its whole history. A snapshot is a pickle, and names the classes of the values
in it by module path: those of the table keep the path the first snapshots gave them (see
:mod:`.base`), and its layout is theirs too: the match under the key of its game (``match``
for the 52-card game, ``revolution`` for the expansion's, the other None), so that the
servers of a cluster that run two versions at once read each other's. What a snapshot holds,
and how it is written, changes only with :data:`SNAPSHOT_FORMAT`.
"""

from __future__ import annotations

import dataclasses
import io
import pickle
import zlib
from collections.abc import Callable
from typing import Any, Self

from ..engine.plays import Catalog, Kind, Play, catalog_for
from ..engine.rules import KIND_NAMES
from ..engine.views import Action, Move
from ..match.revolution import RevolutionMatch
from .base import SnapshotError, TableState
from .config import TableConfig

SNAPSHOT_FORMAT = 1  # the layout of :meth:`TableService.freeze`; change it with the state's
SNAPSHOT_EVENTS = 256  # events a snapshot keeps for clients catching up (> the resync gap)


class Snapshots(TableState):
    """A table frozen to bytes, and thawed again."""

    def freeze(self) -> bytes:
        """The table's state as bytes, for :meth:`thaw` to rebuild the table exactly as
        replaying its log would: so a stored table is a snapshot and the few commands after
        it, not its whole history. It keeps the last :data:`SNAPSHOT_EVENTS` events (enough
        for a reconnecting client to catch up; one further behind resyncs) and, as a replay
        does, no presence and no computer's memory of the deal (a computer starts afresh).

        It is a pickle, read back only from the server's own database (whoever can write
        that can change every table anyway), tagged with :data:`SNAPSHOT_FORMAT`."""
        state = dict(self.__dict__)
        del state["offload"], state["resync_gap"], state["_keep"], state["seat_grace"]
        del state["_views"]  # made again when read (see GameFlow._view_now)
        state |= {"match": None, "revolution": None, self.SNAPSHOT_KEY: state.pop("game")}
        state["_new"] = []
        kept = len(self._texts)
        cut = max(0, kept - SNAPSHOT_EVENTS)
        state["_types"] = self._types[cut:]
        state["_audiences"] = self._audiences[cut:]
        state["_texts"] = self._texts[cut:]
        state["_base"] = self._base + cut
        state["seats"] = [
            dataclasses.replace(s, computer=None, connected=0, away_since=None) for s in self.seats
        ]
        out = io.BytesIO()
        _SnapshotPickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump((SNAPSHOT_FORMAT, state))
        return zlib.compress(out.getvalue(), 1)

    @classmethod
    def thaw(
        cls,
        data: bytes,
        config: TableConfig,
        code: str,
        *,
        now: float = 0.0,
        keep_events: int = 2000,
        resync_gap: int = 200,
        offload: Callable[[str], bool] | None = None,
        seat_grace: float | None = None,
    ) -> Self:
        """The table :meth:`freeze` made ``data`` of (``config`` and ``code`` must be its own:
        a snapshot of another table is refused, as is one of another format)."""
        try:
            fmt, state = _SnapshotUnpickler(io.BytesIO(zlib.decompress(data))).load()
        except Exception as exc:
            raise SnapshotError(f"table {code}: its snapshot cannot be read ({exc})") from None
        if fmt != SNAPSHOT_FORMAT:
            raise SnapshotError(
                f"table {code}: its snapshot is of format {fmt}, this server reads "
                f"{SNAPSHOT_FORMAT}"
            )
        if state.get("code") != code or state.get("room_config") != config:
            raise SnapshotError(f"table {code}: the snapshot is of another table")
        table = cls.__new__(cls, config)  # the table of the config's game
        match, revolution = state.pop("match", None), state.pop("revolution", None)
        _current_catalogues(revolution)
        # Snapshots stored before revolution tables existed lack their state: none was open.
        table.__dict__.update({"answers": {}, "window_v": 0})
        table.__dict__.update(state)
        table._views = {}
        table.game = match if match is not None else revolution
        table.offload, table.resync_gap, table._keep = offload, resync_gap, keep_events
        table.seat_grace = seat_grace  # the server's setting, not the table's state
        table.turn_started = now  # as a replay at ``now`` would have it: clocks restart
        return table


class _SnapshotPickler(pickle.Pickler):
    """A pickler that writes a rule set's catalog of plays (shared by every deal under those
    rules, and large) as a reference to its rules, to be looked up again when read back."""

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, Catalog):
            return ("catalog", obj.rules)
        return None


class _SnapshotUnpickler(pickle.Unpickler):
    """Reads what :class:`_SnapshotPickler` wrote (only ever the server's own snapshots),
    and what bigtwo wrote before the expansion's plays joined the one catalogue (a revolution
    deal then kept a catalogue of its own: see :func:`_current_catalogues`) and before its
    actions became the one action of both games."""

    def persistent_load(self, pid: Any) -> Any:
        kind, rules = pid
        if kind != "catalog":
            raise pickle.UnpicklingError(f"unknown reference {kind!r} in a snapshot")
        return catalog_for(rules)

    def find_class(self, module: str, name: str) -> Any:
        retired = _RETIRED.get((module, name))
        return retired if retired is not None else super().find_class(module, name)


class _RetiredCatalogue:
    """A revolution deal's own catalogue, as snapshots written before the one catalogue hold
    it: read, then replaced by the rules' catalogue (:func:`_current_catalogues`)."""

    def __setstate__(self, state: dict[str, Any]) -> None:
        pass


def _retired_play(mask: int, kind: Kind, group: object, power: int) -> Play:
    """A play of the expansion as snapshots written before the one catalogue hold it."""
    return Play(mask, kind, group, power, KIND_NAMES.index(kind.value))


class _RetiredAction:
    """An action of the expansion as snapshots written before the one action of both games
    hold it (a class of its own, every field given, in its order): read as that action."""

    def __new__(cls, seat: int, move: Move, *rest: Any) -> Action:  # type: ignore[misc]
        cards, function, target, source, private, auto, follows, trick_over, given = rest
        fields = (move, cards, function, target, source, private, follows, given)
        return Action(seat, None, auto, "", trick_over, *fields)


_RETIRED: dict[tuple[str, str], Any] = {
    ("bigtwo.engine.revolution_cards", "RevolutionCatalog"): _RetiredCatalogue,
    ("bigtwo.engine.revolution_cards", "RevolutionPlay"): _retired_play,
    ("bigtwo.engine.revolution", "RevolutionAction"): _RetiredAction,
}


def _current_catalogues(match: RevolutionMatch | None) -> None:
    """Give a revolution deal read from an older snapshot the rules' catalogue again (its
    play on the table classified by it, its cached plays dropped)."""
    if match is None or isinstance(match.deal.cards, Catalog):
        return
    deal = match.deal
    deal.cards = catalog_for(deal.rules)
    if deal.to_beat is not None:
        deal.to_beat = deal.cards.classify(deal.to_beat.mask)
    deal._plays = [None] * deal.players
