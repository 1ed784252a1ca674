"""How one game's engine values become messages and back: its typed proto, or the generic JSON envelope.

A game that ships a proto (menagerie.<game>.v1) is translated field by field by name
(menagerie.shared.codec). Any game, with or without a proto, is also served through
menagerie.generic.v1.Game, whose View, Action and Event carry the engine's values as
JSON (msgspec's encoding of its own types) beside the common Prompt and Outcome, so a
game needs no proto and a client needs no board of its own to play it.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

import msgspec

from menagerie.rules.errors import InvalidArgument
from menagerie.shared import codec

# The view's fields that the generic View carries typed rather than in its JSON.
TYPED_VIEW_FIELDS = ("prompt", "outcome", "viewer")


class Messages(Protocol):
    """One game's engine values as its messages (View, Action, Event), and back."""

    def view(self, view: Any) -> Any:
        """The engine's view as a View message (its prompt's text is the caller's to set)."""
        ...

    def view_value(self, message: Any) -> Any:
        """A View message as the engine's view type."""
        ...

    def action(self, action: Any) -> Any:
        """An engine action as an Action message."""
        ...

    def action_value(self, message: Any) -> Any:
        """An Action message as the engine's action type; InvalidArgument when it is not one."""
        ...

    def event(self, event: Any) -> Any:
        """A projected engine event as an Event message, without its header."""
        ...


class TypedMessages:
    """A game's own proto: every struct field is the message field of the same name."""

    def __init__(self, pb2: ModuleType, engine: Any) -> None:
        self.pb = pb2
        self.engine = engine

    def view(self, view: Any) -> Any:
        """The engine's view as the game's View."""
        return codec.to_message(self.pb.View, view)

    def view_value(self, message: Any) -> Any:
        """The game's View as the engine's view."""
        return codec.from_message(message, self.engine.view_type)

    def action(self, action: Any) -> Any:
        """An engine action as the game's Action (its `oneof kind`)."""
        return codec.tagged_to_message(self.pb.Action, action)

    def action_value(self, message: Any) -> Any:
        """The game's Action as the engine's action."""
        return codec.decode_tagged(message, self.engine.action_type, "action")

    def event(self, event: Any) -> Any:
        """A projected event as the game's Event."""
        fields = msgspec.to_builtins(event)
        return codec.fill_oneof(self.pb.Event(), fields.pop(codec.TAG), fields)


class JsonMessages:
    """menagerie.generic.v1: the engine's values as JSON, the prompt and outcome typed."""

    def __init__(self, pb2: ModuleType, engine: Any) -> None:
        self.pb = pb2
        self.engine = engine
        self._encode = msgspec.json.Encoder().encode

    def view(self, view: Any) -> Any:
        """The engine's view as the generic View: prompt, outcome and viewer typed, the rest as JSON."""
        fields = msgspec.to_builtins(view)
        typed = {name: fields.pop(name, None) for name in TYPED_VIEW_FIELDS}
        message = codec.fill(self.pb.View(), typed)
        message.fields_json = self._encode(fields).decode()
        return message

    def view_value(self, message: Any) -> Any:
        """The generic View as the engine's view."""
        fields = msgspec.json.decode(message.fields_json or "{}")
        plain = codec.plain(message)
        for name in TYPED_VIEW_FIELDS:
            if plain.get(name) is not None:
                fields[name] = plain[name]
        # JSON keys are strings: a map keyed by ints (seats, cards) is read back as such.
        return msgspec.convert(fields, self.engine.view_type, str_keys=True)

    def action(self, action: Any) -> Any:
        """An engine action as the generic Action (its JSON)."""
        return self.pb.Action(json=self._encode(action).decode())

    def action_value(self, message: Any) -> Any:
        """The generic Action as the engine's action."""
        if not message.json:
            raise InvalidArgument("action is empty: send one of the actions ListLegalActions lists")
        try:
            return msgspec.json.decode(message.json, type=self.engine.action_type)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise InvalidArgument(f"action: {exc}") from None

    def event(self, event: Any) -> Any:
        """A projected event as the generic Event: its tag and its other fields as JSON."""
        fields = msgspec.to_builtins(event)
        kind = fields.pop(codec.TAG, "")
        return self.pb.Event(kind=kind, fields_json=self._encode(fields).decode())
