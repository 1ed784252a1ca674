"""A flooding client for `make bench`: one seat's token sends SubmitAction as fast as it can.

Usage: python -m bench.flood ADDRESS GAME MATCH_ID SEAT_TOKEN SECONDS
Prints one line: calls per second and how many of them were accepted or refused (by code).
"""

from __future__ import annotations

import sys
import threading
import time
import uuid
from collections import Counter

import grpc

from menagerie.shared.games.binding import binding

THREADS = 4


def main() -> None:
    address, game, match_id, token, seconds = sys.argv[1:6]
    bound = binding(game)
    codes: Counter[str] = Counter()
    lock = threading.Lock()
    stop_at = time.perf_counter() + float(seconds)

    def hammer() -> None:
        with grpc.insecure_channel(address) as channel:
            stub = bound.stub(channel)
            auth = (("authorization", f"Bearer {token}"),)
            while time.perf_counter() < stop_at:
                request = bound.pb2.SubmitActionRequest(
                    match_id=match_id, expected_version=1, idempotency_key=uuid.uuid4().hex, action=bound.pb2.Action()
                )
                try:
                    stub.SubmitAction(request, metadata=auth, timeout=10)
                    code = "OK"
                except grpc.RpcError as error:
                    code = error.code().name
                with lock:
                    codes[code] += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=hammer) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    total = sum(codes.values())
    by_code = ", ".join(f"{code} {n}" for code, n in codes.most_common())
    print(f"{total / (time.perf_counter() - started):.0f} calls/s from one seat ({by_code})")


if __name__ == "__main__":
    main()
