"""The review of a deal played at a server's table, in the terminal.

A network table's deals are the server's: it reviews them (``POST /api/rooms/{code}/review``,
:mod:`bigtwo.server.coach`) in its worker pool and keeps each review with the game, as it does
for the browser. :class:`ServerCoach` is the :class:`~bigtwo.tui.coaching.DealCoach` of such a
deal: the :class:`~bigtwo.tui.review.ReviewPage` runs it in its worker thread as it runs a local
review, and it asks the server (with the seat's own token) until the review is done, the page's
progress bar following the server's count of decisions judged. The server's answer carries each
decision's position as the seat saw it, which the page shows when stepping.
:func:`open_net_review` is what the network table's score sheet opens ("Review this deal").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from ..engine.errors import BigTwoError
from ..engine.revolution_cards import parse, symbols
from .coaching import ASSISTS_OFF, DealCoach, assists_on, position_lines

if TYPE_CHECKING:
    from .netgame import NetGame
    from .review import ReviewHost

POLL_SECONDS = 0.25  # between two questions to the server while it reviews
WAIT_SECONDS = 600.0  # the longest a review is waited for


@dataclass
class ServerDeal:
    """A finished deal of a server's room: where to ask, the seat's token, the deal, and
    (once the server has answered) each decision's position, by its step."""

    server: str
    code: str
    token: str
    deal: int
    positions: dict[int, str] = field(default_factory=dict)


def http_base(net: NetGame) -> str:
    """The server's HTTP address: the lobby's, else the table link's (``ws://…`` →
    ``http://…``).

    >>> from types import SimpleNamespace as N
    >>> http_base(N(server="", client=N(url="wss://example.org/ws/ABC")))
    'https://example.org'
    """
    if net.server:
        return str(net.server).rstrip("/")
    parts = urlsplit(net.client.url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return f"{scheme}://{parts.netloc}"


def _position(decision: dict[str, Any], seat: int, names: Sequence[str]) -> str:
    """A decision's position as the server told it, in the words of the local review."""
    hand = symbols(parse(decision.get("hand") or ""))
    table = decision.get("table")
    shown = None if not table else (symbols(parse(table)), int(decision["table_seat"]))
    return "\n".join(position_lines(names, seat, hand, shown, decision.get("counts", [])))


def page_data(answer: dict[str, Any]) -> dict[str, Any]:
    """The server's review of a deal as the review page's data (what
    :func:`~bigtwo.coach.review.review_data` makes of a local review)."""
    decisions = [
        {**d, "deal": answer["deal"], "loss": d.get("loss", 0.0)} for d in answer["decisions"]
    ]
    return {
        "seat": answer["seat"],
        "accuracy": answer["accuracy"],
        "deals": [
            {
                "deal": answer["deal"],
                "scale": answer["scale"],
                "accuracy": answer["accuracy"],
                "decisions": decisions,
            }
        ],
        "costliest": [decisions[i] for i in answer["costliest"]],
    }


class ServerCoach(DealCoach):
    """The review of a deal of a server's room, asked of the server."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)

    def decisions(self, subject: Any, seat: int) -> int | None:
        return None  # the server says, as it goes

    def positions(self, subject: Any, seat: int, names: Sequence[str]) -> dict[int, str]:
        return dict(subject.positions)

    def review_data(
        self, subject: Any, seat: int, *, seed: int, rollouts: int, progress: Callable[[], None]
    ) -> dict[str, Any]:
        """Ask the server until its review is done; ``progress`` at each decision it judged."""
        body = {"deal": subject.deal, "token": subject.token}
        done = 0
        deadline = time.monotonic() + WAIT_SECONDS
        url = f"{subject.server}/api/rooms/{subject.code}/review"
        with httpx.Client(timeout=10.0, trust_env=False) as http:
            while time.monotonic() < deadline:
                try:
                    response = http.post(url, json=body)
                    answer = response.json()
                except (httpx.HTTPError, ValueError) as exc:
                    raise BigTwoError(f"the server did not answer ({exc})") from exc
                if response.status_code == 200:
                    review = answer["review"]
                    subject.positions = {
                        int(d["step"]): _position(d, seat, self.names) for d in review["decisions"]
                    }
                    return page_data(review)
                if response.status_code != 202:
                    raise BigTwoError(str(answer.get("message", response.text)))
                for _ in range(int(answer.get("done", 0)) - done):
                    progress()
                done = max(done, int(answer.get("done", 0)))
                time.sleep(POLL_SECONDS)
        raise BigTwoError("the server took too long")


def open_net_review(host: ReviewHost, net: NetGame, then: Callable[[Any], None]) -> None:
    """Open the server's review of the network table's last finished deal, for our seat;
    ``then`` when it closes. When it cannot open, a notice says why and ``then`` follows."""
    from .review import ReviewPage

    why = ""
    seat = net.seat
    if seat is None or not net.client.token:
        why = "A spectator reviews no deal during the match"
    elif not assists_on(net.mirror):
        why = ASSISTS_OFF
    elif not net.mirror.results:
        why = "No deal is over yet: a deal is reviewed once it is over"
    if why or seat is None:
        host.notify(why, severity="warning")
        then(None)
        return
    deal = int(net.mirror.results[-1]["deal"])
    subject = ServerDeal(http_base(net), net.code, str(net.client.token), deal)
    page = ReviewPage(
        subject, ServerCoach(net.names), deal=deal, seat=seat, names=net.names,
        ascii_only=host.ascii_only,
    )  # fmt: skip
    host.push_screen(page, then)
