"""A revolution room over the network: a person's client (driven message by message, as a
browser would) activates functions, answers counter windows and draws after passing against
three computers on a real server, to the match's end; no message it got names a card another
seat drew face down; the record of the finished room replays the match."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx
import pytest

from bigtwo.client import ActionRefused, Lobby, TableClient
from bigtwo.engine.revolution_cards import parse_card
from bigtwo.match.revolution_record import read_revolution_text, write_revolution_text
from bigtwo.server.bench import revolution_reply
from test_server_support import Server, restored_table

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][dchs]\*?)(?![A-Za-z0-9])")


class _Unmirrored:
    """The project's table mirror follows 52-card tables only: this client keeps messages."""

    clock: Any = None

    def apply(self, msg: dict[str, Any]) -> None:
        return None


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
async def test_a_person_plays_a_revolution_room_to_the_end(server: Server) -> None:
    async def scenario() -> None:
        async with Lobby(server.url) as lobby:
            room = await lobby.create_room(
                preset="revolution",
                seats=["human", "computer:greedy", "computer:random", "computer:greedy"],
                deals=1,
                seed=1,
                away_seconds=None,
            )
            code = room["code"]
            seat = await lobby.join(code, "Ann")
            prompts: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            client = TableClient(
                seat["ws"],
                seat["token"],
                keep=True,
                on_message=lambda m: prompts.put_nowait(m) if "v" in m else None,
            )
            client.state = _Unmirrored()  # type: ignore[assignment]
            await client.connect()
            me = seat["seat"]
            await client.ready()
            sent: list[str] = []
            drawn: list[int] = []
            late = 0
            while True:
                msg = await asyncio.wait_for(prompts.get(), 20)
                if msg.get("type") == "match_end":
                    break
                reply = revolution_reply(msg, me, drawn)
                if reply is not None:
                    await asyncio.sleep(0.11)  # within the limit on actions (10/s)
                    reply["v"] = client.seen
                    try:
                        await client.request(reply, 10)
                    except ActionRefused as exc:
                        # A computer before the person countered: the window closed first.
                        assert reply["type"] == "decline", exc
                        assert "no function to answer" in str(exc)
                        late += 1
                        continue
                    sent.append(reply["type"])
            assert {"activate", "decline", "draw", "stop", "pass"} <= set(sent)
            mine = [m for m in client.messages if "v" in m]
            # Face-down draws: the person saw their own cards, the others' only as "one drawn".
            draws = [m for m in mine if m["type"] == "action" and m.get("source") == "deck"]
            assert any(m["seat"] == me and m["cards"] for m in draws)
            assert all(m["cards"] is None for m in draws if m["seat"] != me)
            async with httpx.AsyncClient(base_url=server.url, trust_env=False) as http:
                answer = (await http.get(f"/api/rooms/{code}/record")).json()
                history = (await http.get(f"/api/rooms/{code}/history")).text
            assert answer["format"] == "revolution" and answer["seats"][0] == "Ann"
            match = read_revolution_text(answer["record"])
            assert list(match.totals) == answer["totals"] == mine[-1]["totals"]
            assert history.startswith("Deal 1") and "Points:" in history
            # Every card drawn face down by another seat was never named to this client
            # before that card was played, discarded or the hand was over.
            hidden = {
                a.cards.bit_length() - 1
                for r in match.results
                for a in r.actions
                if a.move.value == "draw" and a.source == "deck" and a.seat != me
            }
            assert hidden, "the computers drew from the deck"
            public_after: set[int] = set()
            for m in mine:
                if m["type"] in ("deal_end", "match_end"):
                    break
                if m["type"] == "action" and m["move"] in ("play", "counter", "activate"):
                    public_after |= _ids(m["cards"] or "")
                named = _ids(str(m))
                assert not (named & hidden) - public_after, m
            await client.close()
            # The finished room is archived: rebuilt from what is stored, as a restarted
            # server rebuilds it, it is the same table, event for event.
            table = restored_table(server.db, code)
            assert table.status == "finished" and table.game is not None
            assert write_revolution_text(table.game) == answer["record"]
            numbered = [m for m in client.messages if "v" in m and m["type"] != "sync"]
            rebuilt = [e.message() for e in table.events_since(0, me) or []]
            assert rebuilt[-len(numbered) :] == numbered

    await asyncio.wait_for(scenario(), 120)


def _ids(text: str) -> set[int]:
    """The cards named in ``text`` (each once, however often it is named)."""
    return {parse_card(token) for token in CARD.findall(text)}
