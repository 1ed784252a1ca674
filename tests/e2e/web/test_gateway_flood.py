"""The gateway under a flood of idle connections past its open-file limit (issue 29, item 2; `make chaos`).

As reported: under a 1,024-fd limit, 1,100 idle sockets made every other client time out and
wrote 18.9 MB of "Too many open files" tracebacks in about 10 s. Here a gateway runs with that
limit (and the fixture's 2 s header timeout), one client opens 1,100 sockets and sends nothing,
and other clients keep asking /healthz meanwhile: each is answered (200, or a clean 503 past the
connection limit) rather than left to time out, and the log stays a few lines.
"""

from __future__ import annotations

import resource
import socket
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from tests.e2e.web.fixtures import gateway_process

pytestmark = [pytest.mark.e2e, pytest.mark.faults, pytest.mark.chaos]

OPEN_FILES, IDLE = 1024, 1100
OTHERS, CALLS_EACH = 10, 10
GAMES = {"beasts": "127.0.0.1:1"}  # nothing listens there; /healthz needs no game


def ask(url: str, tally: Counter[str], lock: threading.Lock) -> None:
    """CALLS_EACH requests of /healthz, a little apart; each outcome counted (a status, or what went wrong)."""
    for _ in range(CALLS_EACH):
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=15) as reply:
                outcome = str(reply.status)
        except urllib.error.HTTPError as refused:
            outcome = str(refused.code)
        except OSError as failed:
            outcome = type(failed).__name__
        with lock:
            tally[outcome] += 1
        time.sleep(0.3)


def test_idle_sockets_past_the_open_file_limit_leave_other_clients_answered(tmp_path: Path) -> None:
    """Must: a bounded number of connections with a clean 503 past it, and logging that is rate-limited."""
    with gateway_process("127.0.0.1:1", GAMES, tmp_path) as gateway:
        # The limit a small pod or a default ulimit gives it, set on the running process.
        resource.prlimit(gateway.process.pid, resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))
        port = int(gateway.url.rsplit(":", 1)[1])
        idle: list[socket.socket] = []
        tally: Counter[str] = Counter()
        lock = threading.Lock()
        others = [threading.Thread(target=ask, args=(gateway.url, tally, lock)) for _ in range(OTHERS)]
        try:
            for _ in range(IDLE):
                sock = socket.socket()
                sock.settimeout(5)
                sock.connect_ex(("127.0.0.1", port))  # the kernel's backlog takes what accept() cannot
                idle.append(sock)
            for thread in others:
                thread.start()
            for thread in others:
                thread.join(120)
        finally:
            for sock in idle:
                sock.close()
        log = gateway.log.read_text(errors="replace")
    answered = tally["200"] + tally["503"]
    too_many = log.count("Too many open files")
    print(
        f"\n{IDLE} idle sockets under a {OPEN_FILES}-file limit: other clients {answered} of "
        f"{OTHERS * CALLS_EACH} answered ({dict(tally)}); gateway log {len(log.encode()) / 1024:.1f} KiB, "
        f'"Too many open files" {too_many} times'
    )
    assert answered >= 0.99 * OTHERS * CALLS_EACH, tally
    assert len(log.encode()) < 256 * 1024 and too_many < 50, "one line per kind per interval, not per accept"
