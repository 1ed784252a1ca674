"""`make run` as a user meets it: it starts, serves, and stops cleanly on Ctrl-C."""

from __future__ import annotations

import random
import signal

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from menagerie.shared.tokens import TokenSigner
from tests.conftest import TOKEN_SECRET
from tests.support.beasts_client import BeastsClient
from tests.support.platform import local_platform

pytestmark = pytest.mark.e2e

BEASTS = 1


def test_make_run_serves_a_match_and_stops_without_stray_processes() -> None:
    with local_platform(TOKEN_SECRET) as platform:
        output = platform.output()
        assert "embedded Valkey" in output
        assert f"beasts       {platform.address(BEASTS)}" in output
        with grpc.insecure_channel(platform.address(BEASTS)) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            status = health.Check(health_pb2.HealthCheckRequest())  # type: ignore[attr-defined]
            assert status.status == health_pb2.HealthCheckResponse.SERVING
        client = BeastsClient(platform.address(BEASTS))
        service_token, _ = TokenSigner(TOKEN_SECRET).issue_service("e2e", 600)
        match = client.create(service_token, mode="capture", seats=2, seed=4)
        rng = random.Random(4)
        steps = 0
        while client.play_step(match, rng.choice) is not None:
            steps += 1
        assert client.summary(match.match_id, service_token).outcome.reason
        client.close()
        children = platform.children()
        assert len(children) >= 2  # the embedded Redis and the Beasts service
        platform.process.send_signal(signal.SIGINT)
        assert platform.process.wait(30) == 0
    for pid in children:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                state = stat.read().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            continue
        assert state == "Z", f"process {pid} outlived the platform"
    assert "stopped." in platform.output()
