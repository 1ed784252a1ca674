"""The dispatcher's publish: the message a worker reads is the one Celery's own send_task writes."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any, cast

import pytest
import redis
from redis.asyncio import Redis

from menagerie.bots.celery_app import PLAY_TURN, make_app, queue_for
from menagerie.bots.publish import TaskPublisher
from menagerie.shared.settings import BotSettings
from tests.support.keys import KEYS

pytestmark = pytest.mark.integration

KWARGS = {"game": "beasts", "match_id": "m-1", "seat": 2, "view_version": 17, "level": "greedy"}
# Fields unique to each message (ids), compared by shape only.
IDS = {"id", "root_id", "correlation_id", "delivery_tag"}


def settings(redis_url: str) -> BotSettings:
    return BotSettings.model_validate({"REDIS_URL": redis_url, "verify_keys_file": str(KEYS.verify_file)})


def without_ids(fields: dict[str, Any]) -> dict[str, Any]:
    assert all(isinstance(fields[key], str) and fields[key] for key in IDS & fields.keys())
    return {key: value for key, value in fields.items() if key not in IDS}


def test_the_published_message_is_the_one_send_task_writes(redis_url: str) -> None:
    app = make_app(settings(redis_url))
    queue = queue_for("test-publish")
    client = redis.Redis.from_url(redis_url)
    try:
        client.delete(queue)
        app.send_task(PLAY_TURN, kwargs=KWARGS, queue=queue, ignore_result=True)

        async def publish() -> None:
            broker = Redis.from_url(redis_url)
            await TaskPublisher(app, broker).send(PLAY_TURN, queue, KWARGS)
            await broker.aclose()

        asyncio.run(publish())
        # LPUSH both: the worker's BRPOP takes the oldest (send_task's) first.
        ours, celerys = (json.loads(raw) for raw in cast("list[bytes]", client.lrange(queue, 0, -1)))
    finally:
        client.delete(queue)
        client.close()
        app.close()

    assert ours.keys() == celerys.keys()
    assert without_ids(ours["headers"]) == without_ids(celerys["headers"])
    assert without_ids(ours["properties"]) == without_ids(celerys["properties"])
    assert ours["properties"]["delivery_info"] == {"exchange": "", "routing_key": queue}
    assert ours["headers"]["id"] == ours["headers"]["root_id"] == ours["properties"]["correlation_id"]
    assert ours["headers"]["id"] != celerys["headers"]["id"]
    assert ours["properties"]["delivery_tag"] != celerys["properties"]["delivery_tag"]
    body = [json.loads(base64.b64decode(message["body"])) for message in (ours, celerys)]
    assert body[0] == body[1] == [[], KWARGS, {"callbacks": None, "errbacks": None, "chain": None, "chord": None}]
    for key in ("content-type", "content-encoding"):
        assert ours[key] == celerys[key]
