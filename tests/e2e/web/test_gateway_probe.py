"""The gateway attacked as an attacker would (issue 29, items 1, 2, 4, 5 and 6), over raw sockets.

The session's gateway (tests/e2e/web/fixtures.py) runs with short limits (GATEWAY_LIMITS: a
1 MiB body, 2 s header and body timeouts, 64 connections), so each defence acts within
seconds. Figures (peak RSS under the bomb, connections reclaimed) are printed (`pytest -s`).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from menagerie.shared.lifetime import spawn, stop_group
from tests.support.platform import free_port_block

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from playwright.sync_api import Page

    from tests.e2e.web.fixtures import RunningGateway
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

LIST_GAMES = "/menagerie.lobby.v1.Lobby/ListGames"
REGISTER = "/menagerie.lobby.v1.Lobby/RegisterPlayer"
WATCH_TICKET = "/menagerie.lobby.v1.Lobby/WatchTicket"
# What Python's exceptions look like in text: none of it may reach a browser.
PYTHON_TEXT = re.compile(r"Traceback|Error\(|Exception|DecodeError|ParseError|RecursionError|zlib|gzip\.|line \d+")


def limit_of(gateway: RunningGateway) -> int:
    """The fixture's MENAGERIE_MAX_REQUEST_BYTES."""
    return int(gateway.limits["MENAGERIE_MAX_REQUEST_BYTES"])


def seconds(gateway: RunningGateway, name: str) -> float:
    """One of the fixture's timeouts."""
    return float(gateway.limits[name])


@contextmanager
def connection(gateway: RunningGateway, timeout: float = 10) -> Iterator[socket.socket]:
    """A raw TCP connection to the gateway."""
    port = int(gateway.url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        yield sock
    finally:
        sock.close()


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and whatever body arrives until the server closes or Content-Length."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before a response head: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    chunked = headers.get("transfer-encoding") == "chunked"
    length = int(headers.get("content-length", "-1"))
    while not (b"0\r\n\r\n" in body if chunked else 0 <= length <= len(body)):
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        body += chunk
    return status, headers, dechunked(body) if chunked else body


def dechunked(body: bytes) -> bytes:
    """A chunked body's bytes."""
    out = b""
    while body:
        size_line, _, body = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out, body = out + body[:size], body[size + 2 :]
    return out


def closed_by_server(sock: socket.socket, wait: float) -> bool:
    """True when the server closes `sock` (EOF or reset) within `wait` seconds; any bytes it sends are skipped."""
    sock.settimeout(wait)
    deadline = time.monotonic() + wait
    try:
        while time.monotonic() < deadline:
            if not sock.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


def post(path: str, body: bytes, content_type: str = "application/json", **headers: str) -> bytes:
    """An HTTP/1.1 POST request's bytes (Content-Length framing)."""
    extra = "".join(f"{name.replace('_', '-')}: {value}\r\n" for name, value in headers.items())
    head = (
        f"POST {path} HTTP/1.1\r\nHost: gateway\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\n{extra}\r\n"
    )
    return head.encode() + body


def exchange(gateway: RunningGateway, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Sends `request` on a fresh connection and reads the answer."""
    with connection(gateway) as sock:
        sock.sendall(request)
        return read_response(sock)


def peak_rss_kib(pid: int) -> int:
    """The process's peak resident set (VmHWM, KiB) from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def envelope(payload: bytes, flags: int = 0) -> bytes:
    """One Connect stream envelope."""
    return bytes([flags]) + len(payload).to_bytes(4, "big") + payload


def test_a_content_length_over_the_limit_is_413_before_any_body_is_read(gateway: RunningGateway) -> None:
    """Must: a Content-Length over the limit gets 413 before any body is read."""
    with connection(gateway) as sock:
        head = post(LIST_GAMES, b"")
        sock.sendall(head.replace(b"Content-Length: 0", f"Content-Length: {50 * 1024 * 1024}".encode()))
        status, headers, body = read_response(sock)  # not one byte of the 50 MB body was sent
        assert status == 413 and headers.get("connection") == "close"
        assert json.loads(body)["code"] == "resource_exhausted"
        assert closed_by_server(sock, 5)


def test_a_chunked_body_is_counted_as_it_arrives_and_cut_at_the_limit(gateway: RunningGateway) -> None:
    """Must: streamed bodies are counted as they arrive and cut at the limit."""
    limit = limit_of(gateway)
    chunk = b"x" * 65536
    sent = 0
    with connection(gateway) as sock:
        sock.sendall(
            f"POST {LIST_GAMES} HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n".encode()
        )
        try:
            while sent < 8 * limit:
                sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, _headers, body = read_response(sock)
    print(f"\nchunked body: the gateway answered {status} after {sent} bytes sent (limit {limit})")
    assert status == 413 and json.loads(body)["code"] == "resource_exhausted"
    assert sent < 8 * limit  # the server stopped reading: the client could not send it all


def test_a_gzip_bomb_is_refused_without_inflating_it(gateway: RunningGateway) -> None:
    """Must: decompression is bounded (or refused) so no request can make the process allocate more than a few times
    the limit; the event loop never blocks on one request's inflating."""
    limit = limit_of(gateway)
    bomb = gzip.compress(b"\0" * (100 * 1024 * 1024), compresslevel=9)
    before = peak_rss_kib(gateway.process.pid)
    for _ in range(3):
        status, _headers, body = exchange(gateway, post(LIST_GAMES, bomb, content_encoding="gzip"))
        assert status == 413 and json.loads(body)["code"] == "resource_exhausted"
    # The same bomb inside a stream's envelope (connect-content-encoding), inflated by BoundedGzip.
    stream = post(WATCH_TICKET, envelope(bomb, 1), "application/connect+json", connect_content_encoding="gzip")
    status, _headers, body = exchange(gateway, stream)
    assert b"resource_exhausted" in body and b"unknown" not in body
    after = peak_rss_kib(gateway.process.pid)
    print(
        f"\ngzip bomb: {len(bomb)} bytes inflating to 100 MiB, 4 times; gateway peak RSS (VmHWM) "
        f"{before / 1024:.1f} MiB before, {after / 1024:.1f} MiB after (limit {limit / 1024 / 1024:g} MiB)"
    )
    assert after - before < 16 * limit / 1024  # unbounded, one bomb alone adds 100 MiB
    with urllib.request.urlopen(f"{gateway.url}/healthz", timeout=5) as reply:
        assert reply.status == 200


def test_half_sent_heads_and_trickled_bodies_are_reclaimed(gateway: RunningGateway) -> None:
    """Must: a header read timeout and a body read timeout (seconds, settings), an idle keep-alive timeout."""
    header_timeout = seconds(gateway, "MENAGERIE_HEADER_TIMEOUT_SECONDS")
    body_timeout = seconds(gateway, "MENAGERIE_BODY_TIMEOUT_SECONDS")
    port = int(gateway.url.rsplit(":", 1)[1])
    silent = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(10)]
    half = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(30)]
    for sock in half:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: gateway\r\nX-Slow: ")  # the head never ends
    trickle = socket.create_connection(("127.0.0.1", port), timeout=10)
    trickle.sendall(post(REGISTER, b"")[:-2].replace(b"Content-Length: 0", b"Content-Length: 100") + b"\r\n{")
    try:
        wait = max(header_timeout, body_timeout) + 2.0
        started = time.monotonic()
        status, _headers, body = read_response(trickle)
        assert status == 408 and json.loads(body)["code"] == "deadline_exceeded"
        remaining = max(0.1, wait - (time.monotonic() - started))
        reclaimed = sum(closed_by_server(sock, remaining if i == 0 else 0.2) for i, sock in enumerate(silent + half))
        print(
            f"\nslowloris: {reclaimed} of {len(silent) + len(half)} idle or half-sent connections closed by the "
            f"gateway within {wait:g} s (header timeout {header_timeout:g} s); a trickled body got 408"
        )
        assert reclaimed == len(silent) + len(half)
    finally:
        for sock in [*silent, *half, trickle]:
            sock.close()


def test_past_the_connection_limit_a_request_gets_a_clean_503(gateway: RunningGateway) -> None:
    """Must: a bounded number of connections/concurrent requests with a clean 503 past it."""
    limit = int(gateway.limits["MENAGERIE_MAX_CONNECTIONS"])
    port = int(gateway.url.rsplit(":", 1)[1])
    held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(limit)]
    try:
        time.sleep(0.3)  # the server has accepted them all
        status, headers, _body = exchange(gateway, b"GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n")
        assert status == 503 and headers.get("connection") == "close"
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.3)
    status, _headers, _body = exchange(gateway, b"GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n")
    assert status == 200


MALFORMED: list[tuple[str, bytes]] = [
    ("bad JSON", post(REGISTER, b'{"display_name": ')),
    ("JSON of the wrong type", post(REGISTER, b'{"display_name": 5}')),
    ("JSON with an unknown field", post(REGISTER, b'{"no_such_field": 1}')),
    ("not UTF-8", post(REGISTER, b"\xff\xfe\xfd")),
    ("deep JSON nesting", post(REGISTER, b'{"display_name": ' + b"[" * 100_000)),
    ("deep JSON nesting, closed", post(REGISTER, b"[" * 50_000 + b"]" * 50_000)),
    ("bad protobuf", post(REGISTER, b"\xff\xff\xff\xff\x0f", "application/proto")),
    ("truncated protobuf", post(REGISTER, b"\x0a\x50abc", "application/proto")),
    ("not gzip, labelled gzip", post(REGISTER, b'{"display_name": "x"}', content_encoding="gzip")),
    ("truncated gzip", post(REGISTER, gzip.compress(b'{"display_name": "x"}')[:-6], content_encoding="gzip")),
    ("an unknown encoding", post(REGISTER, b"{}", content_encoding="br")),
    ("application/grpc", post(REGISTER, envelope(b""), "application/grpc")),
    ("application/grpc+proto", post(REGISTER, envelope(b""), "application/grpc+proto")),
    ("a stream of bad JSON", post(WATCH_TICKET, envelope(b"{nope"), "application/connect+json")),
    ("a stream envelope not gzip", post(WATCH_TICKET, envelope(b"{}", 1), "application/connect+json",
                                         connect_content_encoding="gzip")),
]  # fmt: skip


@pytest.mark.parametrize(("case", "request_bytes"), MALFORMED, ids=[case for case, _ in MALFORMED])
def test_malformed_input_is_400_or_415_never_500(gateway: RunningGateway, case: str, request_bytes: bytes) -> None:
    """Must: malformed input is invalid_argument (400) or 415, never 500 (and no exception text)."""
    status, headers, body = exchange(gateway, request_bytes)
    text = body.decode("utf-8", errors="replace")
    if headers.get("content-type", "").startswith("application/connect+"):  # a stream: the error ends it
        assert status == 200 and '"invalid_argument"' in text, (case, text)
    else:
        assert status in (400, 415), (case, status, text)
        if text:
            assert json.loads(text)["code"] == "invalid_argument", (case, text)
    assert not PYTHON_TEXT.search(text), (case, text)
    assert headers.get("x-request-id")


def test_no_internal_address_reaches_the_browser(gateway: RunningGateway, minimatch: RunningMinimatch) -> None:
    """Must: no internal address in any answer to a browser (ListGames, MyMatch and Seating hand out none)."""
    status, _headers, body = exchange(gateway, post(LIST_GAMES, b"{}"))
    assert status == 200
    games = json.loads(body)["games"]
    assert {game["game"] for game in games} == set(minimatch.games)
    assert all("endpoint" not in game for game in games)
    text = body.decode()
    for address in [minimatch.lobby, *minimatch.games.values()]:
        port = address.rsplit(":", 1)[1]
        # The port as a number of its own: the bot levels' ratings are floats whose long tails of digits can hold
        # any five digits, so a bare substring test fails by chance.
        assert address not in text and not re.search(rf"(?<![\d.]){port}(?![\d.])", text)


def test_backend_outages_are_a_fixed_sentence_with_a_request_id_and_readiness_follows_the_lobby(
    gateway: RunningGateway,
) -> None:
    """Must: UNAVAILABLE/UNKNOWN/INTERNAL answers to browsers carry a fixed sentence (the detail goes to the log with a
    request id that the answer also carries); a readiness check that says NOT ready when it cannot reach the lobby."""
    with urllib.request.urlopen(f"{gateway.url}/readyz", timeout=5) as reply:
        assert reply.status == 200  # the session's lobby answers
    port = free_port_block(2)  # port + 1: where nothing listens, for the lobby and the games
    dead = f"127.0.0.1:{port + 1}"
    log = Path(tempfile.mkstemp(prefix="gateway-dead-", suffix=".log")[1])
    env = {
        **os.environ,
        "MENAGERIE_PORT": str(port),
        "MENAGERIE_LOBBY_ADDRESS": dead,
        "MENAGERIE_GAME_ENDPOINTS": f"zoo={dead}",
        "MENAGERIE_LOG_FORMAT": "json",
        "MENAGERIE_READY_CHECK_SECONDS": "0.5",
    }
    with log.open("wb") as sink:
        process = spawn([sys.executable, "-m", "menagerie.gateway"], env=env, stdout=sink, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        from tests.e2e.web.fixtures import healthy

        deadline = time.monotonic() + 30
        while not healthy(url):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        with pytest.raises(urllib.error.HTTPError) as ready:
            urllib.request.urlopen(f"{url}/readyz", timeout=5)
        assert ready.value.code == 503 and ready.value.read() == b"NOT_SERVING\n"
        request = urllib.request.Request(
            f"{url}{LIST_GAMES}", data=b"{}", headers={"Content-Type": "application/json"}, method="POST"
        )
        with pytest.raises(urllib.error.HTTPError) as failed:
            urllib.request.urlopen(request, timeout=10)
        answer = json.loads(failed.value.read())
        request_id = failed.value.headers["x-request-id"]
        assert answer["code"] == "unavailable"
        assert answer["message"] == f"the service is unavailable at the moment; try again later (request {request_id})"
        assert "ipv4" not in json.dumps(answer) and str(port + 1) not in json.dumps(answer)
    finally:
        stop_group(process, signal.SIGTERM, 30)
    logged = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    detail = next(line for line in logged if line.get("request_id") == request_id)
    assert detail["event"] == "backend error" and str(port + 1) in detail["detail"]  # the detail is in the log


def test_browser_security_headers_and_caching(gateway: RunningGateway) -> None:
    """Must: a Content-Security-Policy (no inline script), frame-ancestors 'none', X-Content-Type-Options nosniff,
    Referrer-Policy, sensible Cache-Control for index.html vs hashed assets; no `Server: uvicorn` banner."""
    status, headers, body = exchange(gateway, b"GET / HTTP/1.1\r\nHost: gateway\r\n\r\n")
    assert status == 200 and b'<div id="root">' in body
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self';" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cache-control"] == "no-cache"
    assert "server" not in headers
    asset = re.search(rb'src="(/assets/[^"]+\.js)"', body)
    assert asset is not None
    status, headers, _body = exchange(gateway, b"GET " + asset.group(1) + b" HTTP/1.1\r\nHost: gateway\r\n\r\n")
    assert status == 200 and headers["cache-control"] == "public, max-age=31536000, immutable"
    status, headers, _body = exchange(gateway, post(LIST_GAMES, b"{}"))
    assert status == 200 and headers["cache-control"] == "no-store" and "server" not in headers


def test_content_length_with_transfer_encoding_is_400_and_closed(gateway: RunningGateway) -> None:
    """Must: a request with both Content-Length and Transfer-Encoding is answered and the connection closed."""
    with connection(gateway) as sock:
        sock.sendall(
            f"POST {LIST_GAMES} HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
            "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n".encode()
        )
        status, headers, _body = read_response(sock)
        assert status == 400 and headers.get("connection") == "close"
        assert closed_by_server(sock, 5)


def test_the_app_runs_under_its_content_security_policy(page: Page) -> None:
    """Must: a Content-Security-Policy that the app passes."""
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    page.goto("/")
    page.get_by_test_id("guest-name").fill("Strict")
    page.get_by_test_id("register").click()
    page.get_by_test_id("player-name").wait_for()
    page.get_by_test_id("game-zoo").wait_for()
    assert violations == []


def test_metrics_count_calls_refusals_and_bytes(gateway: RunningGateway) -> None:
    """Must: Prometheus metrics (requests by method and code, open streams, bytes in/out, refusals by reason)."""
    exchange(gateway, post(LIST_GAMES, b"{}"))
    exchange(gateway, post(LIST_GAMES, b"{" * (limit_of(gateway) + 1)))
    with urllib.request.urlopen(gateway.metrics_url, timeout=5) as reply:
        text = reply.read().decode()
    calls = r'menagerie_gateway_calls_total\{code="OK",method="/menagerie.lobby.v1.Lobby/ListGames"\} [1-9]'
    assert re.search(calls, text)
    assert re.search(r'menagerie_gateway_refusals_total\{reason="too_large"\} [1-9]', text)
    assert re.search(r'menagerie_gateway_http_responses_total\{route="connect",status="200"\} [1-9]', text)
    assert re.search(r"menagerie_gateway_received_bytes_total [1-9]", text)
    assert re.search(r"menagerie_gateway_sent_bytes_total [1-9]", text)
    assert "menagerie_gateway_open_streams " in text
