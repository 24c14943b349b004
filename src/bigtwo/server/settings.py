"""What an operator may set about a server: :class:`Settings` (tables, rooms, spectators,
timeouts, computers' thinking, the cluster) and the :class:`Limits` on what one actor sends.

Plain frozen values with their defaults, read by the hub, the table runners, the connections
and the HTTP application. This module only declares them: it must not check, apply or act on
a setting, nor import anything of the server.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """Limits on what one actor sends (rates per second, bursts in messages).

    The limits on what reaches the table (actions, ready, chat) are kept per actor, not per
    connection (see :mod:`bigtwo.server.limits`): a seated player is its seat (which its
    token proves), whatever connections it comes through; anyone else is its client
    address. Reconnecting starts none of them afresh, and ``connects`` limits how often an
    actor connects. ``address_chat`` limits the chat lines from one address over every seat
    it holds. ``messages``, ``strikes`` and ``queue_max`` guard the server from one
    connection and stay with it (each connection costs a ``connects`` token)."""

    messages_rate: float = 30.0
    messages_burst: float = 60.0
    actions_rate: float = 10.0  # a person makes one or two a second at most
    actions_burst: float = 30.0
    chat_rate: float = 1.0
    chat_burst: float = 5.0
    address_chat_rate: float = 3.0
    address_chat_burst: float = 15.0
    ready_rate: float = 0.5  # "ready" and "not ready" messages
    ready_burst: float = 5.0
    connects_rate: float = 1.0  # connections a seat (or an address, to watch) opens
    connects_burst: float = 20.0
    strikes_rate: float = 0.5  # bad or refused-for-rate messages forgiven per second
    strikes_burst: float = 20.0  # more than this in a row closes the connection
    queue_max: int = 4000  # unsent messages before a connection counts as too slow
    actors_max: int = 50_000  # actors remembered per limit; the longest quiet is forgotten


@dataclass(frozen=True, slots=True)
class Settings:
    allow_seeds: bool = False
    limits: Limits = Limits()
    max_tables: int = 5000  # open tables at once, over every address
    max_spectators: int = 50
    max_spectators_per_address: int = 5  # one client cannot take every spectator's place
    stats_token: str = ""  # the operator's token for GET /api/stats ("": stats are refused)
    # Proxies (addresses or networks) whose X-Forwarded-For names the client; else the socket.
    trusted_proxies: tuple[str, ...] = ()
    finished_ttl: float = 600.0  # seconds a finished table stays loaded, watched or not
    idle_ttl: float = 300.0  # seconds an unstarted table nobody is at stays loaded
    # With max_tables open, an unstarted table nobody is at gives way to a new one after this.
    evict_after: float = 60.0
    rooms_per_address: int = 10  # open rooms one address may have made (0: no limit)
    rooms_per_minute: float = 10.0  # rooms one address may make a minute (0: no limit) …
    rooms_burst: int = 10  # … and at once
    # Codes that name no table one address may ask for (GET, join, connect), a minute and at
    # once, before its lookups are refused for a while (0: no limit).
    unknown_codes_per_minute: float = 6.0
    unknown_codes_burst: int = 20
    seat_grace: float | None = 60.0  # seconds a seat taken in the lobby may stay unconnected
    # Seats one address may hold at once without having connected to them yet (0: no limit).
    seats_per_address: int = 8
    resync_gap: int = 200
    scheduled_gc: bool = False  # set by ``bigtwo serve``: see :mod:`bigtwo.server.collector`
    think: str = "process"  # where computers think: process, thread or inline (the loop)
    think_workers: int | None = None  # default: one fewer than the CPUs, at least one
    think_budget: float = 4.0  # seconds a computer may take before it plays the cheapest
    review_rollouts: int = 1000  # the coach's rollouts a decision (bigtwo.coach.review)
    snapshot_every: int = 200  # commands a table stores between two snapshots of it
    cluster: str = ""  # Redis URL of the cluster this node is part of ("": a server alone)
    # The directory where the processes of one ``serve --workers N`` hand each other the
    # WebSockets of the tables they run (:mod:`bigtwo.server.handoff`; "": none).
    handoff_dir: str = ""
    # Players' accounts (bigtwo.server.accounts): a session unused this long ends (seconds);
    # failed sign-ins allowed from one address and for one name, a minute and at once.
    session_idle: float = 14 * 24 * 3600.0
    sign_ins_per_minute: float = 2.0
    sign_ins_burst: int = 10
    name_sign_ins_per_minute: float = 1.0
    name_sign_ins_burst: int = 5
