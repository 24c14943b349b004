"""The lobby against guessing and heavy requests, over HTTP against the real application (in
process, with the client address chosen per request): codes that name no table are limited
per address, a private room's code is too long to guess, the wait for a new room is said in
minutes, and a record sent to be read is bounded and read off the event loop."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from bigtwo.cli import main
from bigtwo.match import record_formats
from bigtwo.server.hub import CODE_LENGTH, PRIVATE_CODE_LENGTH
from bigtwo.server.openapi import MAX_RECORD, MAX_RECORD_BODY
from test_server_limits import ONE_HUMAN, TWO_HUMANS, lobby


async def test_codes_that_name_no_table_are_limited_per_address() -> None:
    """Issue 39 #17: 300 lookups of random codes and 300 joins were all answered 404, none
    limited. Now an address that asks for too many codes that name no table is refused
    (429, the seconds in words) for every code, one that exists too, so it learns nothing;
    another address is not held up."""
    async with lobby(unknown_codes_per_minute=6.0, unknown_codes_burst=20) as client:
        guesser, other = client("10.0.0.1"), client("10.0.0.2")
        room = (await other.post("/api/rooms", json=TWO_HUMANS)).json()["code"]
        answers = []
        for i in range(30):
            guess = f"/api/rooms/ABCD{i:02d}".replace("0", "A").replace("1", "B")
            answers.append(await guesser.get(guess))
            answers.append(await guesser.post(guess + "/join", json={"name": "Eve"}))
        statuses = [a.status_code for a in answers]
        assert statuses[:20] == [404] * 20 and set(statuses[20:]) == {429}
        refused = answers[-1].json()
        assert refused["error"] == "rate_limited" and refused["params"]["seconds"] >= 1
        assert f"try again in {refused['params']['seconds']} s" in refused["message"]
        assert (await guesser.get(f"/api/rooms/{room}")).status_code == 429
        assert (await other.get(f"/api/rooms/{room}")).status_code == 200
        assert (await other.get("/api/rooms/ZZZZZZ")).status_code == 404


async def test_a_private_rooms_code_is_its_invitation() -> None:
    """A listed room's code is six letters (anyone reads it in the lobby); a private room's
    is twelve, which no guessing finds, and its players join with that code alone."""
    async with lobby() as client:
        http = client("10.0.0.1")
        listed = (await http.post("/api/rooms", json=TWO_HUMANS)).json()
        private = (await http.post("/api/rooms", json={**TWO_HUMANS, "public": False})).json()
        alone = (await http.post("/api/rooms", json=ONE_HUMAN)).json()
        assert len(listed["code"]) == CODE_LENGTH
        assert len(private["code"]) == len(alone["code"]) == PRIVATE_CODE_LENGTH
        joined = await http.post(f"/api/rooms/{private['code'].lower()}/join", json={"name": "A"})
        assert joined.status_code == 200 and joined.json()["code"] == private["code"]
        link = await http.get(f"/r/{alone['code']}", follow_redirects=False)
        assert link.headers["location"] == f"/?room={alone['code']}"


async def test_too_many_rooms_says_how_many_minutes_to_wait() -> None:
    """Issue 40 #6: "You have opened too many rooms: wait a while" said no time."""
    async with lobby(rooms_per_minute=0.0, rooms_per_address=2) as client:
        http = client("10.0.0.1")
        for _ in range(2):
            assert (await http.post("/api/rooms", json=ONE_HUMAN)).status_code == 201
        refused = (await http.post("/api/rooms", json=ONE_HUMAN)).json()
        assert refused["error"] == "too_many_rooms"
        assert refused["params"] == {
            "rooms": 2,
            "minutes": 6,
            "reason": "wait",
        }  # 5 minutes idle, then a sweep
        assert "try again in 6 minutes" in refused["message"]


def _record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    out = tmp_path / "m.rec"
    seats = "random,random,random,random"
    assert (
        main(["simulate", "--seats", seats, "--deals", "10", "--seed", "3", "--out", str(out)]) == 0
    )
    capsys.readouterr()
    return out.read_text(encoding="utf-8")


async def test_a_record_is_read_in_a_thread_within_its_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record of up to 4 MiB was read on the event loop, holding up every table. A
    10-deal match's record (the longest a preset plays) is a tenth of the bound now, and it
    is read in a thread."""
    text = _record(tmp_path, capsys)
    assert len(text) * 4 < MAX_RECORD <= 256 * 1024
    threads: list[int] = []
    reader = record_formats.read_game

    def read(record: str) -> Any:
        threads.append(threading.get_ident())
        return reader(record)

    monkeypatch.setattr(record_formats, "read_game", read)
    async with lobby() as client:
        http = client("10.0.0.1")
        read_back = await http.post("/api/records/convert", json={"record": text})
        assert read_back.status_code == 200, read_back.text
        assert threads and threads[0] != threading.get_ident()
        too_long = await http.post("/api/records/convert", json={"record": "x" * (MAX_RECORD + 1)})
        assert too_long.status_code in (400, 422), too_long.text  # refused for its length
        huge = await http.post("/api/records/convert", json={"record": "x" * MAX_RECORD_BODY})
        assert huge.status_code == 413 and huge.json()["error"] == "too_big"
