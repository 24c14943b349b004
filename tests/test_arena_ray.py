"""The arena's Ray backend, on a private local Ray instance: the same figures as the process
backend, streamed board by board, and no Ray processes left behind, whatever happens.

The tests that start Ray are marked ``ray``: Ray is an extra (``bigtwo[ray]``), so ``make test``
leaves them out and ``make test-ray`` installs Ray and runs them. Asked for without Ray they
fail, saying so; the test of the message a user without Ray gets runs with every suite."""

from __future__ import annotations

import faulthandler
import json
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bigtwo.arena import BoardTask, _ray, run_arena
from bigtwo.cli import main
from bigtwo.engine.errors import BigTwoError
from bigtwo.match import RuleSet

try:
    import ray
except ImportError:
    ray = None

needs_ray = pytest.mark.ray

PALM = RuleSet.preset("palm")
LINEUP = ["strong", "greedy", "classic", "random"]
# compared between backends; decision times are measured, so they are not
FIGURES = ("name", "mean_points", "ci95", "win_rate", "mean_cards_left", "decisions")


@pytest.fixture(autouse=True)
def ray_installed(request: pytest.FixtureRequest) -> None:
    """A ``ray`` test asked for where Ray is missing fails: a backend left untested must not
    look like a pass."""
    if ray is None and request.node.get_closest_marker("ray") is not None:
        pytest.fail(
            "Ray cannot be imported: install it with pip install 'bigtwo[ray]' (make test-ray "
            "does), or leave out the ray tests (-m 'not ray')",
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def bounded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A local instance, never a cluster from the environment, and no test that hangs: past
    the limit every thread's stack is printed and the test run stops."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    faulthandler.dump_traceback_later(180, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def ray_daemons() -> set[int]:
    """Live raylet and GCS server processes (zombies have no command line; without /proc,
    as on macOS, none are seen and only ``ray.is_initialized()`` is checked)."""
    found = set()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            argv0 = (proc / "cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if argv0.endswith((b"/raylet", b"/gcs_server")):
            found.add(int(proc.name))
    return found


def assert_ray_is_gone(before: set[int]) -> None:
    assert ray is not None and not ray.is_initialized()
    deadline = time.monotonic() + 20
    while (left := ray_daemons() - before) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"Ray processes left running: {sorted(left)}"


def figures(data: dict[str, object]) -> list[tuple[object, ...]]:
    bots = data["bots"]
    assert isinstance(bots, list)
    return [tuple(bot[key] for key in FIGURES) for bot in bots]


@needs_ray
def test_ray_gives_the_figures_of_the_process_backend() -> None:
    expected = run_arena(PALM, LINEUP, deals=8, duplicate=True, workers=2, seed=4).to_json()
    before = ray_daemons()
    progress: list[int] = []
    got = run_arena(
        PALM,
        LINEUP,
        deals=8,
        duplicate=True,
        backend="ray",
        workers=2,
        seed=4,
        on_board=progress.append,
    ).to_json()
    assert_ray_is_gone(before)
    assert got["deals"] == expected["deals"] == 8
    assert got["boards"] == expected["boards"] == 2
    assert figures(got) == figures(expected)
    assert progress == [4, 8]  # one call a board, as each one finishes


@needs_ray
def test_the_command_runs_on_ray(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--rules", "palm", "--seats", ",".join(LINEUP), "--deals", "8"]
    argv += ["--duplicate", "--seed", "4", "--workers", "2", "--json", "--quiet"]
    before = ray_daemons()
    assert main([*argv, "--backend", "ray"]) == 0
    data = json.loads(capsys.readouterr().out)  # stdout holds the JSON and nothing else
    assert_ray_is_gone(before)
    assert data["deals"] == 8 and [bot["name"] for bot in data["bots"]] == LINEUP
    assert main([*argv, "--backend", "process"]) == 0
    assert figures(data) == figures(json.loads(capsys.readouterr().out))


@needs_ray
def test_a_failing_board_is_reported_as_the_process_backend_does() -> None:
    task = BoardTask(PALM, ("strong", "nobody", "greedy", "greedy"), 0, 1, False)
    before = ray_daemons()
    with pytest.raises(BigTwoError, match="Unknown computer player 'nobody'"):
        list(_ray([task], 2))
    assert_ray_is_gone(before)


@needs_ray
def test_ray_failing_to_start_is_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no room for a raylet")

    monkeypatch.setattr(ray, "init", broken)
    with pytest.raises(BigTwoError, match="could not start a local Ray instance: no room"):
        run_arena(PALM, LINEUP, deals=1, backend="ray")


@needs_ray
def test_a_cluster_that_does_not_answer_is_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as sock:  # a port where nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    start = time.monotonic()
    with pytest.raises(BigTwoError, match=f"could not connect to the Ray cluster at .*:{port}"):
        run_arena(PALM, LINEUP, deals=1, backend="ray")
    assert time.monotonic() - start < 30
    assert not ray.is_initialized()


def test_without_ray_the_backend_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails, as if not installed
    with pytest.raises(BigTwoError, match=r"pip install 'bigtwo\[ray\]'"):
        run_arena(PALM, LINEUP, deals=1, backend="ray")
