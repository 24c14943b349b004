"""``bigtwo login`` and ``bigtwo logout``: a player's account at a game server, for the terminal.

``login`` signs in (``--register``: makes the account first) with a name (``--name``, else
asked) and a password asked without echo (``--password-stdin``: read from standard input, for
scripts); the session is kept in the data file beside the seats taken at network tables
(:func:`bigtwo.tui.storage.keep_session`), so ``bigtwo play --server URL`` is then signed in.
``logout`` ends the session on the server and forgets it here. Every refusal is said in words:
a wrong password, a name taken, too many tries (with the wait), a server out of reach.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from typing import Any

import httpx

from ..client import Lobby, ServerError
from ..store.matches import MatchStore
from ..tui.storage import keep_session, kept_session
from . import usage_error


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    login = sub.add_parser(
        "login",
        help="sign in to a game server (the terminal's lobby then shows your rating)",
        description="Sign in to your account at a game server; bigtwo play --server then "
        "plays as you, and your seats follow you to other terminals and browsers.",
    )
    login.add_argument("--server", metavar="URL", required=True, help="http://host:port")
    login.add_argument("--name", default="", help="your account's name (else asked)")
    login.add_argument(
        "--register", action="store_true", help="make the account first (a new name)"
    )
    login.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from standard input instead of asking for it",
    )
    login.add_argument("--db", metavar="PATH", help="data file (as bigtwo play's --db)")
    login.set_defaults(run=_login)
    logout = sub.add_parser(
        "logout",
        help="sign out of a game server",
        description="End your session at a game server and forget it here.",
    )
    logout.add_argument("--server", metavar="URL", required=True, help="http://host:port")
    logout.add_argument("--db", metavar="PATH", help="data file (as bigtwo play's --db)")
    logout.set_defaults(run=_logout)


def _server(command: str, url: str) -> str | None:
    if not url.startswith(("http://", "https://")):
        usage_error(
            command, f"--server must be an http:// or https:// address, not {url!r}", sys.stdout
        )
        return None
    return url.rstrip("/")


def _refused(command: str, server: str, exc: Exception) -> int:
    """A failure said in words: the server's refusal, or a server out of reach."""
    if isinstance(exc, ServerError):
        print(f"bigtwo {command}: {exc}", file=sys.stderr)
    else:
        reason = str(exc) or type(exc).__name__
        print(f"bigtwo {command}: cannot reach the server at {server}: {reason}", file=sys.stderr)
    return 1


def ratings_line(you: dict[str, Any]) -> str:
    """A signed-in player's ratings in words: "rating 1000 (0 games) in 52-card Big Two, …"."""
    from ..server.ratings import FAMILIES

    parts = []
    for family, rating in (you.get("ratings") or {}).items():
        games = int(rating.get("games", 0))
        where = FAMILIES.get(family, family)
        parts.append(f"{rating['rating']} in {where} ({games} game{'s' if games != 1 else ''})")
    return "rating " + ", ".join(parts) if parts else ""


def _ask(args: argparse.Namespace) -> tuple[str, str] | None:
    """The name and password, from the options or asked (the password without echo)."""
    try:
        name = args.name or input("Name: ")
        if args.password_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        else:
            password = getpass.getpass("Password: ")
            if args.register and getpass.getpass("The password again: ") != password:
                print("bigtwo login: the two passwords differ; nothing was made", file=sys.stderr)
                return None
    except EOFError:
        print("bigtwo login: no name or password was given", file=sys.stderr)
        return None
    if not name.strip() or not password:
        print("bigtwo login: a name and a password are needed", file=sys.stderr)
        return None
    return name.strip(), password


def _login(args: argparse.Namespace) -> int:
    server = _server("login", args.server)
    if server is None:
        return 2
    asked = _ask(args)
    if asked is None:
        return 2
    name, password = asked

    async def sign_in() -> tuple[dict[str, Any], str]:
        async with Lobby(server, timeout=30.0) as lobby:
            if args.register:
                you = await lobby.register(name, password)
            else:
                you = await lobby.sign_in(name, password)
            return you, lobby.session

    try:
        you, session = asyncio.run(sign_in())
    except (ServerError, httpx.HTTPError, OSError) as exc:
        return _refused("login", server, exc)
    if not session:
        print(f"bigtwo login: the server at {server} kept no session", file=sys.stderr)
        return 1
    store = MatchStore(args.db)
    try:
        keep_session(store, server, session)
    finally:
        store.close()
    made = "Registered and signed in" if args.register else "Signed in"
    print(f"{made} at {server} as {you.get('name', name)}; {ratings_line(you)}".rstrip("; "))
    return 0


def _logout(args: argparse.Namespace) -> int:
    server = _server("logout", args.server)
    if server is None:
        return 2
    store = MatchStore(args.db)
    try:
        session = kept_session(store, server)
        if not session:
            print(f"Not signed in at {server}")
            return 0
        keep_session(store, server, "")  # forgotten here, whatever the server says

        async def sign_out() -> None:
            async with Lobby(server, timeout=30.0, session=session) as lobby:
                await lobby.sign_out()

        try:
            asyncio.run(sign_out())
        except (ServerError, httpx.HTTPError, OSError) as exc:
            _refused("logout", server, exc)
            print(
                f"The session is forgotten here; it ends at {server} when unused", file=sys.stderr
            )
            return 1
    finally:
        store.close()
    print(f"Signed out at {server}")
    return 0
