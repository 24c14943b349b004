"""A server stopped with SIGTERM in the middle of a match, its computers thinking in worker
processes, leaves nothing behind: it exits at once and cleanly, and Python's resource
tracker finds no semaphore of its worker pool left over.

(SIGKILL is another matter: the process is gone before it can do anything, so the five
named semaphores of its worker pool (``bigtwo.server.thinking.Thinker``'s
``ProcessPoolExecutor`` with the spawn context: the call queue's two locks and bounded
semaphore, the result queue's two locks) are left to the resource tracker, which removes
them and says "5 leaked semaphore objects": nothing stays behind, and nothing a process
does can run after SIGKILL. The workers end with it, see
:func:`bigtwo.server.thinking.die_with`.)"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from bigtwo.protocol import PROTOCOL
from bigtwo.server.bench import free_port, wait_ready


@pytest.mark.slow  # a match of real processes: make test-slow, CI
def test_sigterm_mid_match_leaves_no_semaphore(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [
        sys.executable, "-m", "bigtwo.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--memory", "--log-level", "warning", "--think", "process", "--think-workers", "2",
    ]  # fmt: skip
    server = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        wait_ready(url, process=server)
        seats = ["human", "computer:strong", "computer:strong", "computer:strong"]
        room = httpx.post(
            url + "/api/rooms", json={"seats": seats, "turn_seconds": 1}, trust_env=False
        ).json()
        seat = httpx.post(url + f"/api/rooms/{room['code']}/join", json={}, trust_env=False)
        with connect(seat.json()["ws"]) as ws:
            hello = {"type": "hello", "protocol": PROTOCOL, "token": seat.json()["token"]}
            ws.send(json.dumps(hello))
            ws.send(json.dumps({"type": "ready", "id": "r"}))
            actions = 0
            while actions < 3:  # the computers are playing: the workers have thought
                message = json.loads(ws.recv(timeout=20))
                actions += message.get("type") == "action"
            server.send_signal(signal.SIGTERM)
            _out, err = server.communicate(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    # (uvicorn shuts down, then raises the signal it caught again: the exit says SIGTERM)
    assert server.returncode in (0, -signal.SIGTERM), err.decode()
    assert b"leaked semaphore" not in err and b"resource_tracker" not in err, err.decode()
