"""Fixtures for the browser tests: a real ``bigtwo serve`` on a free loopback port with a
temporary database, and headless Debian Chromium driven by Playwright.

The tests are skipped, saying why, only when /usr/bin/chromium is missing (``make`` installs
it on CI); Playwright never downloads a browser here. Everything waits with a timeout, so a
broken page fails a test in seconds instead of hanging the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("BIGTWO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Chromium builds a WebUI omnibox popup for every window it opens, which no page of ours uses:
# about 0.6 s of processor time a browser context, a third of what the browser tests cost.
UNUSED_FEATURES = frozenset({"WebUIOmniboxPopup", "WebUIOmniboxAimPopup"})
TIMEOUT_MS = 10_000  # default wait for any one thing on a page

SKIP_REASON = (
    f"browser tests skipped: no Chromium at {CHROMIUM} (install Debian's chromium, or set "
    "BIGTWO_CHROMIUM); Playwright does not download browsers here"
)


def chromium_missing() -> bool:
    return not Path(CHROMIUM).exists()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without Chromium every browser test is skipped, with the reason, and nothing else."""
    if chromium_missing():
        here = Path(__file__).parent
        for item in items:
            if here in Path(str(item.fspath)).parents:
                item.add_marker(pytest.mark.skip(reason=SKIP_REASON))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if chromium_missing():
        terminalreporter.write_line(SKIP_REASON, yellow=True, bold=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A ``bigtwo serve`` subprocess and a small JSON client for its lobby API."""

    def __init__(self, db: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = db
        self.log = open(db.with_suffix(".log"), "w+b")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bigtwo.cli", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", str(db), "--allow-seeds", "--log-level", "warning",
             # every page of every test comes from this one address
             "--rooms-per-address", "0", "--rooms-per-minute", "0", "--seats-per-address", "0",
             # the coach's reviews: small searches (its judgement is tested in process)
             "--review-rollouts", "24"],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"bigtwo serve exited: {self.output()}")
            with contextlib.suppress(OSError):
                if self.get("/healthz").get("ok"):
                    return
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"bigtwo serve did not start in 30 s: {self.output()}")
            time.sleep(0.1)

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-4000:]

    def request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                return json.loads(res.read())
        except urllib.error.HTTPError as exc:
            return json.loads(exc.read() or b"{}") | {"status": exc.code}

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def post(self, path: str, body: Any) -> Any:
        return self.request("POST", path, body)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()


@pytest.fixture(scope="package")
def server() -> Iterator[Server]:
    with tempfile.TemporaryDirectory(prefix="bigtwo-browser-") as tmp:
        srv = Server(Path(tmp) / "tables.sqlite3")
        try:
            yield srv
        finally:
            srv.stop()


def launch(pw: Any) -> tuple[Any, list[str]]:
    """Chromium without the features no test uses, and its command line. Chromium keeps only
    the last ``--disable-features`` it is given, so ours also carries the ones Playwright
    disables: read back from the browser's command line, and the browser launched again with
    them when ours lacked any (on Linux; elsewhere the first launch is kept)."""
    disabled = set(UNUSED_FEATURES)
    while True:
        marker = f"--bigtwo-tests={uuid.uuid4().hex}"  # a switch Chromium ignores, to find it by
        feature_switch = "--disable-features=" + ",".join(sorted(disabled))
        b = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, marker, feature_switch]
        )
        args = command_line(marker)
        asked = {
            name
            for arg in args
            if arg.startswith("--disable-features=")
            for name in arg.partition("=")[2].split(",")
        }
        if asked <= disabled:
            return b, args
        b.close()
        disabled |= asked


def command_line(marker: str) -> list[str]:
    """The arguments of the browser process launched with ``marker``, read from /proc."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            args = cmdline.read_bytes().decode(errors="replace").split("\0")
            if marker in args and not any(a.startswith("--type=") for a in args):
                return args
    return []


@pytest.fixture(scope="package")
def launched() -> Iterator[tuple[Any, list[str]]]:
    """The browser and its command line."""
    if chromium_missing():
        pytest.skip(SKIP_REASON)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b, args = launch(pw)
        try:
            yield b, args
        finally:
            b.close()


@pytest.fixture(scope="package")
def browser(launched: tuple[Any, list[str]]) -> Any:
    return launched[0]


# The preferences of a player who has chosen a name (welcome.js asks on a first visit).
NAMED = """(() => {
  const p = JSON.parse(localStorage.getItem("bigtwo.prefs") || "{}");
  if (!("name" in p)) localStorage.setItem("bigtwo.prefs", JSON.stringify({ ...p, name: "Tess" }));
})()"""


class PageErrors(list[str]):
    """Uncaught errors and console errors of the pages a test opened."""


@pytest.fixture
def new_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """``new_page(width=..., height=...)``: a page in a fresh browser context (its own
    localStorage, like a separate device), whose player is called Tess (``named=False``: a
    first visit). Fails the test if any page logged a JS error (``refusals=True``: but for
    the browser's note of an HTTP refusal the test asked for)."""
    contexts: list[Any] = []
    errors = PageErrors()

    def make(
        width: int = 1280,
        height: int = 800,
        named: bool = True,
        refusals: bool = False,
        **options: Any,
    ) -> Any:
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, base_url=server.url, **options
        )
        ctx.set_default_timeout(TIMEOUT_MS)
        if named:  # a device whose player chose a name on a first visit before
            ctx.add_init_script(NAMED)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))

        def console(m: Any) -> None:
            # refusals=True: the test asks for refusals (404 …), which the browser logs.
            refused = refusals and m.text.startswith("Failed to load resource: the server")
            if m.type == "error" and not refused:
                errors.append(f"console: {m.text}")

        page.on("console", console)
        return page

    yield make
    for ctx in contexts:
        with contextlib.suppress(Exception):
            ctx.close()
    real = [e for e in errors if "WebSocket" not in e and "ERR_CONNECTION" not in e]
    assert not real, "JavaScript errors: " + "; ".join(real)
