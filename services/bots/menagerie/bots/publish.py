"""Sending bot tasks to the Celery broker with one LPUSH on a kept asyncio Redis client.

Celery's `send_task` costs about a millisecond a task, mostly kombu's: its Redis transport
builds a new redis-py client for every publish, and the call blocks, so the dispatcher
ran it in a thread. On the bot hop (turn notice → bot's move applied) that was a third of
the time. `TaskPublisher` writes the same message on the dispatcher's event loop:

- the task message (headers, properties, body) is Celery's own (`app.amqp.as_task_v2`,
  as `send_task` builds it), serialized with the app's task serializer;
- the envelope is what kombu's Redis transport puts on a queue for the anonymous
  exchange Celery uses for a direct queue: the body base64-encoded, delivery info naming
  the queue, a delivery tag, priority 0, on the list named after the queue
  (kombu.transport.virtual.Channel.basic_publish, kombu.transport.redis.Channel._put).

A worker cannot tell it from a task `send_task` sent (services/bots tests compare the
two messages field by field). A publish that fails raises redis' ConnectionError or
TimeoutError (the client's socket timeouts bound it); one whose reply was lost may have
been queued, and a task delivered twice is harmless (the decision's idempotency key).
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Mapping
from typing import Any

from celery import Celery
from celery.utils.nodenames import anon_nodename
from kombu.serialization import dumps as serialize
from kombu.utils.json import dumps as envelope_json
from redis.asyncio import Redis

from menagerie.shared.tracing import carrier

# kombu's Redis transport: how a message's body travels, and its default priority.
BODY_ENCODING = "base64"
PRIORITY = 0
# AMQP's "persistent", which Celery's queues ask for (kombu.entity.Exchange.PERSISTENT_DELIVERY_MODE).
DELIVERY_MODE = 2


class TaskPublisher:
    """Sends tasks of `app` to its Redis broker through `broker`, a client kept for the process."""

    def __init__(self, app: Celery, broker: Redis) -> None:
        self.app = app
        self.broker = broker
        # Read once: the app's configuration is a chain of mappings, slow to look up per task.
        self._serializer = str(app.conf.task_serializer)
        self._reply_to = app.thread_oid
        self._origin = anon_nodename()

    def message(self, name: str, queue: str, kwargs: Mapping[str, Any]) -> bytes:
        """The bytes kombu's Redis transport pushes on `queue` for `app.send_task(name, kwargs=kwargs, queue=queue)`."""
        task_id = str(uuid.uuid4())
        # The reprs (for logs and monitoring) are plain: a bot task's arguments are a few
        # short strings and numbers, where Celery's truncating saferepr costs half the message.
        headers, properties, body, _ = self.app.amqp.as_task_v2(
            task_id,
            name,
            kwargs=dict(kwargs),
            reply_to=self._reply_to,
            ignore_result=True,  # a bot's move is its result: nothing is stored
            argsrepr="()",
            kwargsrepr=repr(dict(kwargs)),
            origin=self._origin,
        )
        # The current trace (the turn notice's), for the worker's task to continue; nothing when traces are off.
        headers.update(carrier())
        content_type, content_encoding, data = serialize(body, serializer=self._serializer)
        payload: str | bytes = data  # json gives text, a binary serializer bytes
        raw = payload.encode(content_encoding) if isinstance(payload, str) else payload
        message = {
            "body": base64.b64encode(raw).decode("ascii"),
            "content-encoding": content_encoding,
            "content-type": content_type,
            "headers": headers,
            "properties": {
                **properties,
                "delivery_mode": DELIVERY_MODE,
                "delivery_info": {"exchange": "", "routing_key": queue},
                "priority": PRIORITY,
                "body_encoding": BODY_ENCODING,
                "delivery_tag": str(uuid.uuid4()),
            },
        }
        return envelope_json(message).encode()

    async def send(self, name: str, queue: str, kwargs: Mapping[str, Any]) -> None:
        """Queues one task; redis' ConnectionError or TimeoutError when the broker does not take it."""
        await self.broker.lpush(queue, self.message(name, queue, kwargs))
