"""How the CLI talks to the platform: one set of deadlines, keepalive, and streams that reconnect.

Every unary call has the same deadline (`Patience.call_seconds`). A stream (a game's
Watch, the lobby's WatchTicket) is different: it may rightly stay quiet for as long as
nobody moves, so a quiet stream must not be taken for a dead one. Two things find a
dead peer instead:

* each stream call has a deadline of its own (`Patience.stream_seconds`); when it
  passes, the stream is opened again where it left off. The servers answer a new
  stream at once (a Watch with the current view, WatchTicket with the ticket), so a
  reopened stream that says nothing within `call_seconds` is talking to a dead or stuck
  service;
* the channel sends keepalive pings while a call is open, as often as the servers'
  ping policy allows (see KEEPALIVE_TIME_MS), which also catches a connection that
  vanished without a reset in between.

When a stream breaks (UNAVAILABLE, a reopened stream that does not answer), it is
reopened with backoff for at most `Patience.reconnect_seconds`; the user reads one line
saying so, and `Unreachable` (a sentence, not a traceback) if the service stays away.
So a service that stops answering mid-stream is given up on after at most
stream_seconds + call_seconds + reconnect_seconds + call_seconds (80 s by default).
"""

from __future__ import annotations

import atexit
import gc
import random
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

import grpc

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

# The servers keep gRPC's default ping policy (grpc.aio.server without ping options): on
# a connection where the server sent nothing for 5 minutes, a ping that comes sooner than
# 5 minutes after the previous one is a strike, and the third strike closes the
# connection with GOAWAY "too_many_pings". A quiet Watch is exactly that connection, so
# the client pings no more often than the policy allows, with a margin for timer jitter.
# (The server's knob: "grpc.http2.min_ping_interval_without_data_ms", the string behind
# GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS; "...min_recv_ping..." is ignored.)
SERVER_MIN_PING_INTERVAL_MS = 300_000
KEEPALIVE_TIME_MS = SERVER_MIN_PING_INTERVAL_MS + 30_000
KEEPALIVE_TIMEOUT_MS = 20_000
# gRPC's own reconnect backoff grows to 2 minutes by default; a stream retrying for
# `reconnect_seconds` needs the channel to try the address again within that time.
MAX_RECONNECT_BACKOFF_MS = 5_000
# The CLI's own pauses between attempts to reopen a stream.
FIRST_RETRY_SECONDS = 0.25
LONGEST_RETRY_SECONDS = 4.0

# A stream call that failed is its own RpcError, and the error's traceback holds the frame
# that holds the call: a cycle, freed only by the garbage collector, whose finalizer
# (grpc's _Rendezvous.__del__) takes the call's lock. Left to the interpreter's last
# collection, that finalizer can wait forever on a lock that a gRPC thread holds, a thread
# the shutting-down interpreter has already frozen (seen once in CI: `menagerie play`
# printed its last line and never exited). Collecting at exit, while every thread still
# runs, frees those calls before the freeze; atexit handlers run before it.
atexit.register(gc.collect)


@dataclass(frozen=True)
class Patience:
    """How long the CLI waits for the platform; the one place these numbers live."""

    call_seconds: float = 10.0  # every unary call's deadline; a (re)opened stream's first message too
    stream_seconds: float = 30.0  # one stream call's deadline; it is then reopened where it left off
    reconnect_seconds: float = 30.0  # how long a broken stream keeps trying before the CLI gives up


class Unreachable(Exception):
    """A stream's service went away and did not come back in time (the message says so to the user)."""


Notify = Callable[[str], None]


def channel_options(keepalive_time_ms: int = KEEPALIVE_TIME_MS) -> list[tuple[str, int]]:
    """The options of every channel the CLI opens."""
    return [
        ("grpc.keepalive_time_ms", keepalive_time_ms),
        ("grpc.keepalive_timeout_ms", KEEPALIVE_TIMEOUT_MS),
        # gRPC 1.85 waits for a keepalive ping's ack as long as for any ping (this, one
        # minute by default), not keepalive_timeout_ms: measured against a stopped server.
        ("grpc.http2.ping_timeout_ms", KEEPALIVE_TIMEOUT_MS),
        # Ping only while a call is open: the servers take a ping on an idle connection as a strike.
        ("grpc.keepalive_permit_without_calls", 0),
        # A Watch sends nothing after its request; by default gRPC stops pinging after two
        # pings without data sent, which would leave a long quiet stream unguarded.
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.max_reconnect_backoff_ms", MAX_RECONNECT_BACKOFF_MS),
    ]


@dataclass(frozen=True)
class Transport:
    """How the CLI reaches the platform: plaintext, or TLS trusting the CA in `ca_file` (--tls-ca)."""

    ca_file: str = ""

    def credentials(self) -> grpc.ChannelCredentials | None:
        """Channel credentials for TLS, or None for plaintext."""
        if not self.ca_file:
            return None
        return grpc.ssl_channel_credentials(root_certificates=Path(self.ca_file).read_bytes())


# Chosen once by the command's global options (menagerie.cli.main), before any channel opens.
_transport = Transport()


def use_transport(transport: Transport) -> None:
    """Makes every channel opened from now on use `transport`."""
    global _transport  # one process, one command line, set before any channel opens
    _transport = transport


def open_channel(address: str) -> grpc.Channel:
    """A channel to `address` with the CLI's keepalive and reconnect options, over TLS when --tls-ca is set."""
    credentials = _transport.credentials()
    if credentials is None:
        return grpc.insecure_channel(address, options=channel_options())
    return grpc.secure_channel(address, credentials, options=channel_options())


class StreamCall(Protocol[T_co]):
    """What a gRPC stub returns for a server-streaming call."""

    def __iter__(self) -> Iterator[T_co]: ...

    def __next__(self) -> T_co: ...

    def cancel(self) -> bool: ...


# A stream that broke for one of these may come back when opened again (CANCELLED: by the
# watchdog below, or by a server that stopped while the stream was open).
RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED})


# Ctrl-C. Python raises KeyboardInterrupt wherever the main thread happens to be, and one
# raised while it runs a finalizer (a gRPC call's __del__, collected in the reconnect loop)
# is printed and swallowed, which would leave the command waiting on its stream. So the
# handler also marks the interruption and cancels the open streams from another thread; the
# loop below turns that cancellation back into KeyboardInterrupt, in its own frame, where
# nothing swallows it. (A process started with SIGINT ignored, as a shell starts background
# commands, keeps ignoring it: see handle_interrupts.)
_interrupted = threading.Event()
_open_calls: set[StreamCall[object]] = set()
_calls_lock = threading.Lock()


def _cancel_open_calls() -> None:
    with _calls_lock:
        calls = list(_open_calls)
    for call in calls:
        call.cancel()


def on_interrupt(_signum: int, _frame: object) -> None:
    """SIGINT: raise KeyboardInterrupt as usual, and make sure a stream waiting in gRPC hears it too."""
    _interrupted.set()
    threading.Thread(target=_cancel_open_calls, daemon=True).start()
    raise KeyboardInterrupt


def interrupted() -> bool:
    """True once Ctrl-C was pressed: an error raised after it (a KeyboardInterrupt that landed inside a
    lock's release becomes RuntimeError there) is the player leaving, not a failure."""
    return _interrupted.is_set()


def handle_interrupts() -> None:
    """Installs `on_interrupt` for Ctrl-C, unless the process was started with Ctrl-C ignored."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, on_interrupt)


def reconnecting(
    open_call: Callable[[float], StreamCall[T]], service: str, patience: Patience, notify: Notify
) -> Generator[T, None, None]:
    """The messages of a stream that `open_call(deadline_seconds)` opens, reopened whenever it breaks.

    `open_call` is called again for every reconnection, so it must resume where the
    caller left off (e.g. a Watch from the last version seen). Ends when the server ends
    the stream; raises the server's error when it is not about the connection, and
    Unreachable once the stream has been down for `patience.reconnect_seconds`.
    """
    lost_at: float | None = None
    pause = FIRST_RETRY_SECONDS
    while True:
        if _interrupted.is_set():
            raise KeyboardInterrupt
        call = open_call(patience.stream_seconds)
        with _calls_lock:
            _open_calls.add(call)
        # The server answers a new stream at once; silence means the peer is dead or stuck.
        watchdog = threading.Timer(patience.call_seconds, call.cancel)
        watchdog.daemon = True
        watchdog.start()
        answered = False
        try:
            for message in call:
                if not answered:
                    watchdog.cancel()
                    answered = True
                    if lost_at is not None:
                        notify("Reconnected.")
                        lost_at, pause = None, FIRST_RETRY_SECONDS
                yield message
            return
        except grpc.RpcError as error:
            if _interrupted.is_set():
                raise KeyboardInterrupt from None  # Ctrl-C cancelled the stream (see on_interrupt)
            code = error.code()
            if code not in RETRYABLE:
                raise
            if answered and code == grpc.StatusCode.DEADLINE_EXCEEDED:
                continue  # the deadline of a stream that was alive: reopen it where it left off
        finally:
            with _calls_lock:
                _open_calls.discard(call)
            watchdog.cancel()
            call.cancel()
        now = time.monotonic()
        if lost_at is None:
            lost_at = now
            notify(f"Lost the connection to {service}; reconnecting for up to {patience.reconnect_seconds:.0f} s…")
        remaining = lost_at + patience.reconnect_seconds - now
        if remaining <= 0:
            raise Unreachable(
                f"Lost the connection to {service}, and it did not come back within "
                f"{patience.reconnect_seconds:.0f} s. Is the platform running (make run)?"
            )
        time.sleep(min(pause * random.uniform(0.5, 1.0), remaining))
        pause = min(pause * 2, LONGEST_RETRY_SECONDS)
