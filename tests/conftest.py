"""Shared fixtures: card shorthand, random hands and random deals for the engine tests, one
real server per server test module, the table store's two back ends (SQLite and PostgreSQL,
each test in a PostgreSQL schema of its own, dropped after it), the test services (PostgreSQL
and Redis, see :mod:`test_services`), and the 2018 network's data for the ``ppo2018`` tests.

The engine helpers are session-scoped fixtures (so hypothesis tests may use them) that return
plain functions; nothing here decides a rule, it only drives the engine.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pathlib
import random
from collections.abc import Callable, Iterator

import pytest

from bigtwo.bots import ppo2018_net
from bigtwo.engine import Deal, Play, Rules, parse_cards, preset_names
from test_server_support import Server, launch
from test_services import STORE_BACKENDS, PostgresSchemas, postgres_schemas, redis_reachable

PRESETS = preset_names()


@pytest.fixture(scope="session")
def cards() -> Callable[[str], int]:
    """``cards("3d 4c")`` is the mask of those cards."""

    def mask(text: str) -> int:
        return parse_cards(text).mask

    return mask


def _random_deal_steps(
    rules: Rules, seed: int, players: int | None = None, pass_bias: float = 0.3
) -> Iterator[Deal]:
    """Play a random deal with random legal choices, yielding the deal before each action
    and once more at the end. The same seed gives the same deal."""
    rng = random.Random(seed)
    count = players if players is not None else rng.choice(rules.players)
    deal = Deal.from_seed(rules, rng.randrange(1 << 30), count)
    while not deal.over:
        yield deal
        plays = deal.legal_plays()
        if deal.can_pass() and (not plays or rng.random() < pass_bias):
            deal.pass_(deal.turn)
        else:
            deal.play(deal.turn, rng.choice(plays))
    yield deal


@pytest.fixture(scope="session")
def random_deal_steps() -> Callable[..., Iterator[Deal]]:
    return _random_deal_steps


@pytest.fixture(scope="session")
def play_names() -> Callable[[list[Play]], list[str]]:
    def names(plays: list[Play]) -> list[str]:
        return [str(p) for p in plays]

    return names


# -- the server tests -----------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres() -> PostgresSchemas:
    """The test PostgreSQL server (``$BIGTWO_TEST_POSTGRES``, else 127.0.0.1:5432 as user
    postgres), to make schemas on; without one the test is skipped saying how to start it,
    except on CI, where it fails."""
    schemas, problem = postgres_schemas()
    if schemas is None:
        _service_missing(problem)
    assert schemas is not None
    schemas.sweep()  # what killed test runs left behind
    return schemas


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The test Redis (``$BIGTWO_TEST_REDIS``, else redis://127.0.0.1:6379/0), checked to
    answer; missing, as for :func:`postgres`."""
    url, problem = redis_reachable()
    if url is None:
        _service_missing(problem)
    assert url is not None
    return url


def _service_missing(problem: str) -> None:
    if on_ci():
        pytest.fail(f"CI needs it: {problem}", pytrace=False)
    pytest.skip(f"{problem} (tests that need it are skipped outside CI)")


@contextlib.contextmanager
def _store_target(
    backend: str, folder: pathlib.Path, request: pytest.FixtureRequest
) -> Iterator[str]:
    """Where a store of ``backend`` lives for one test (or module): a SQLite file in
    ``folder``, or a fresh PostgreSQL schema, dropped afterwards."""
    if backend == "sqlite":
        yield str(folder / "tables.sqlite3")
        return
    schemas: PostgresSchemas = request.getfixturevalue("postgres")
    with schemas.schema() as url:
        yield url


@pytest.fixture(params=STORE_BACKENDS)
def store_db(request: pytest.FixtureRequest, tmp_path: pathlib.Path) -> Iterator[str]:
    """A fresh table database for ``open_store``, once on each back end: a SQLite file's path,
    or the URL of a PostgreSQL schema of this test's own (dropped after it)."""
    with _store_target(request.param, tmp_path, request) as target:
        yield target


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Server]:
    """One ``bigtwo serve`` for a whole test module, on a free port with its own database, so
    modules may run side by side in several test processes. On SQLite, unless the module
    parametrises it (``indirect``) with a back end of :data:`STORE_BACKENDS`."""
    backend = getattr(request, "param", "sqlite")
    folder = tmp_path_factory.mktemp("server")
    with _store_target(backend, folder, request) as target:
        srv = launch(folder, db=target)
        yield srv
        srv.stop()


# -- the 2018 network's data ----------------------------------------------------------------


def on_ci() -> bool:
    """CI sets ``CI``; there every test must run, so missing data fails instead of skipping."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="session")
def ppo2018_data() -> pathlib.Path:
    """The folder of the 2018 network's data: ``$BIGTWO_PPO2018_DIR`` (``make test`` and
    ``.ci/run`` set it to ``../shared/anchors/charlesworth2018``), else the shared folder beside
    the checkout. The data is never copied into the repo. Without it the test is skipped,
    saying how to get it, except on CI, where it fails."""
    try:
        return ppo2018_net.find_data_dir()
    except ppo2018_net.Ppo2018Unavailable as exc:
        problem = str(exc)
    if on_ci():
        pytest.fail(f"CI needs the 2018 network's data: {problem}", pytrace=False)
    pytest.skip(f"{problem} (tests that need it are skipped outside CI)")


TRAIN_TEST_FILES = (
    "test_learn_train.py",
    "test_learn_critic.py",
    "test_learn_structure_train.py",
    "test_learn_league.py",
    "test_learn_distill.py",
)


def pytest_ignore_collect(collection_path: pathlib.Path, config: pytest.Config) -> bool | None:
    """The trainer's tests import torch, which only ``make test-train`` installs: they are
    collected when their marker is asked for (``-m train``), never skipped for want of it."""
    if collection_path.name in TRAIN_TEST_FILES:
        return "train" not in (config.getoption("markexpr") or "").replace("not train", "")
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    """Make the garbage collector cheaper for the run, which it does not change otherwise.

    What collection built (the modules, the tests, their strategies) lives to the end of the
    run: frozen, full collections no longer walk it. And full collections come a tenth as
    often: the play catalogues and Textual's render caches are long-lived too, and each full
    collection walks them. Measured by turns with and without, in one process: the terminal
    tests (test_tui and test_tui_edges) take 14% less CPU time (48 s against 56 s). On the
    whole suite at three workers the gain was 3% of the CPU time, within the machine's
    drift for wall time."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 100)
