"""How a seat's result (the protobuf enum) is told in the terminal: in the engines' own words."""

from __future__ import annotations

from menagerie.common.v1 import common_pb2
from menagerie.rules.text import RESULT_WORDS

RESULTS: dict[int, str] = {
    common_pb2.RESULT_WIN: RESULT_WORDS["win"],
    common_pb2.RESULT_LOSS: RESULT_WORDS["loss"],
    common_pb2.RESULT_DRAW: RESULT_WORDS["draw"],
}


def result_word(code: int) -> str:
    """The word for a seat's result code ("won", "lost", "drew"); "?" for a code this client does not know."""
    return RESULTS.get(int(code), "?")
