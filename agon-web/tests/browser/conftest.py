"""Fixtures for the browser test: the agon-web server on a free loopback port with a fresh
database, Debian's Chromium driven by Playwright (sync API), and a screenshot directory.

Environment:
  AGON_WEB_BIN      the server binary (default: target/debug/agon-web under the repo root)
  AGON_SCREENSHOTS  where screenshots go (default: a temporary directory)
  CHROMIUM          the Chromium executable (default: /usr/bin/chromium)
  AGON_WEB_BROWSER_PG  a PostgreSQL server's URL (postgres://USER@HOST:PORT/postgres, as
                    `scripts/pg.sh start` prints it): every server of the session then
                    stores its games in a new database of its own there instead of a
                    SQLite file, and the tests of several servers on one database run
                    (they are skipped without it)
"""

from __future__ import annotations

import glob
import json
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[3]
ASSETS = REPO / "agon-web" / "assets"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# A clock's minute in the browser tests' server, in ms: short, so that a "1+0" game runs out
# within seconds (the server reads it for tests only; a server without it keeps 60,000).
CLOCK_MINUTE_MS = "4000"


def _binary() -> Path:
    binary = Path(os.environ.get("AGON_WEB_BIN", REPO / "target" / "debug" / "agon-web"))
    if not binary.is_absolute():
        binary = REPO / binary
    if not binary.exists():
        pytest.fail(f"no server binary at {binary}: run `cargo build -p agon-web` first")
    return binary


# Every request of the session comes from 127.0.0.1: the rate limits are off (the browser
# tests are about the page; tests/limits.rs tests the limits).
NO_LIMITS = [arg for name in ("create-limit", "create-global", "action-limit", "action-global",
                              "seeks-per-player", "seeks-per-address")
             for arg in (f"--{name}", "off")]


def postgres_url() -> str | None:
    """The PostgreSQL server of the session (AGON_WEB_BROWSER_PG), if any."""
    return os.environ.get("AGON_WEB_BROWSER_PG") or None


def new_postgres_database(url: str) -> str:
    """A new, empty database on the PostgreSQL server of `url` (created with its psql):
    its URL."""
    psql = shutil.which("psql") or next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1:]), None)
    if psql is None:
        pytest.fail("AGON_WEB_BROWSER_PG is set but no psql is installed (apt-get install postgresql)")
    name = f"agon_browser_{secrets.token_hex(6)}"
    subprocess.run([psql, "-q", "-d", url, "-c", f"CREATE DATABASE {name}"], check=True)
    return f"{url.rsplit('/', 1)[0]}/{name}"


class Server:
    """One agon-web process on a fixed port and database (a SQLite file, or a PostgreSQL
    database with AGON_WEB_BROWSER_PG or when given): it can be killed and started again on
    both, as a crash and a restart would."""

    def __init__(self, directory: Path, db: str | None = None, name: str = "server", args: tuple[str, ...] = ()):
        self.binary = _binary()
        self.args = list(args)
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        pg = postgres_url()
        self.db = db or (new_postgres_database(pg) if pg else str(directory / "games.sqlite3"))
        self.log = open(directory / f"{name}.log", "w+b")
        self.proc = None

    def start(self):
        env = dict(os.environ, AGON_WEB_CLOCK_MINUTE_MS=CLOCK_MINUTE_MS)
        self.proc = subprocess.Popen(
            [str(self.binary), "--addr", f"127.0.0.1:{self.port}", "--db", self.db, "--workers", "2",
             *NO_LIMITS, *self.args],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                self.log.seek(0)
                pytest.fail(f"agon-web exited with {self.proc.returncode}:\n{self.log.read().decode(errors='replace')}")
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=1) as res:
                    if res.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail("agon-web did not answer /healthz within 30 s")
            time.sleep(0.1)

    def kill(self):
        """Kills the process at once (no graceful stop)."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


@pytest.fixture(scope="session")
def server():
    """The base URL of a running agon-web with an empty database."""
    tmp = tempfile.TemporaryDirectory(prefix="agon-web-browser-")
    srv = Server(Path(tmp.name))
    try:
        srv.start()
        yield srv.base
    finally:
        srv.stop()
        tmp.cleanup()


@pytest.fixture
def restartable_server():
    """A server of this test's own, which the test may kill and start again (same port,
    same database file)."""
    tmp = tempfile.TemporaryDirectory(prefix="agon-web-restart-")
    srv = Server(Path(tmp.name))
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()
        tmp.cleanup()


@pytest.fixture
def one_stream_server():
    """A server of this test's own that lets one address hold a single event stream
    (`--max-streams-per-client 1`): the pages of a school behind one NAT address, once
    it is taken, have their streams refused (429)."""
    tmp = tempfile.TemporaryDirectory(prefix="agon-web-streams-")
    srv = Server(Path(tmp.name), args=("--max-streams-per-client", "1"))
    try:
        srv.start()
        yield srv.base
    finally:
        srv.stop()
        tmp.cleanup()


@pytest.fixture
def two_servers():
    """Two servers on one new PostgreSQL database (skipped without AGON_WEB_BROWSER_PG)."""
    pg = postgres_url()
    if not pg:
        pytest.skip("several servers share a PostgreSQL database: set AGON_WEB_BROWSER_PG")
    tmp = tempfile.TemporaryDirectory(prefix="agon-web-two-")
    db = new_postgres_database(pg)
    servers = [Server(Path(tmp.name), db, f"server{i}") for i in range(2)]
    try:
        for srv in servers:
            srv.start()
        yield servers
    finally:
        for srv in servers:
            srv.stop()
        tmp.cleanup()


class Proxy:
    """A TCP proxy on a free loopback port that forwards each new connection to one
    backend port, which the test may change: what a reverse proxy does when a server dies
    (the pages keep their address, the connections they open next reach another server).
    `cut()` drops every connection open through it, as a network failing does."""

    def __init__(self, backend_port: int):
        self.backend_port = backend_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.closed = False
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                backend = socket.create_connection(("127.0.0.1", self.backend_port), timeout=2)
            except OSError:
                client.close()  # as a proxy with no live server: the page retries
                continue
            backend.settimeout(None)
            with self.lock:
                self.open += [client, backend]
            for source, sink in ((client, backend), (backend, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> int:
        """Drops every connection open through the proxy: how many there were."""
        with self.lock:
            cut, self.open = self.open, []
        for sock in cut:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return len(cut) // 2

    def close(self):
        self.closed = True
        self.listener.close()


@pytest.fixture(scope="session")
def browser():
    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The screenshot directory: AGON_SCREENSHOTS, else pytest's temporary directory (which
    keeps the last few runs' and removes older ones)."""
    env = os.environ.get("AGON_SCREENSHOTS")
    if env:
        path = Path(env)
        if not path.is_absolute():
            path = REPO / path
    else:
        path = tmp_path_factory.mktemp("shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def catalogues() -> dict:
    """The language catalogues as the repository has them."""
    out = {}
    for f in sorted((ASSETS / "i18n").glob("*.json")):
        out[f.stem] = json.loads(f.read_text(encoding="utf-8"))
    return out


@pytest.fixture
def new_context(browser):
    """Makes browser contexts (closed after the test); collects console errors per page."""
    made = []

    def make(**kwargs):
        kwargs.setdefault("viewport", {"width": 1280, "height": 800})
        ctx = browser.new_context(**kwargs)
        ctx.console_errors = []  # console messages of type error (failed fetches log here too)
        ctx.page_errors = []  # uncaught exceptions in the page's script

        def on_page(page):
            page.on("console", lambda m: m.type == "error" and ctx.console_errors.append(m.text))
            page.on("pageerror", lambda e: ctx.page_errors.append(str(e)))

        ctx.on("page", on_page)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        errors = list(ctx.page_errors)
        csp = [m for m in ctx.console_errors if "Content Security Policy" in m or "Content-Security-Policy" in m]
        ctx.close()
        assert not errors, f"script errors in the page: {errors}"
        assert not csp, f"Content-Security-Policy violations: {csp}"


def api(base: str, method: str, path: str, body: dict | None = None):
    """A JSON request to the server: (status, decoded body)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return res.status, json.loads(res.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


@pytest.fixture(scope="module")
def passkey_site():
    """A server of the module's own, addressed as localhost: a passkey's relying party is
    a domain, never an IP address (the server's --origin defaults to
    http://localhost:PORT)."""
    tmp = tempfile.TemporaryDirectory(prefix="agon-web-passkeys-")
    srv = Server(Path(tmp.name), name="passkeys")
    try:
        srv.start()
        yield f"http://localhost:{srv.port}"
    finally:
        srv.stop()
        tmp.cleanup()
