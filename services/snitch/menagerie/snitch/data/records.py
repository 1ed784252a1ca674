"""The loading helpers of the package's data: `DataError`, `read_toml`, `convert` and `Record`.

Every loader of the package (the board data, the Spectator cards, the tactical decks and the
Snitch race deck) reads its TOML file with `read_toml` and validates it with `convert` into
`Record` structs; a file that breaks an invariant raises a `DataError` naming the file and
the entry. The constrained field types (`Count`, `Positive`, `Id`) live here too.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from typing import Annotated, Any, TypeVar

import msgspec

Count = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Id = Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9_]*$")]

T = TypeVar("T")


class DataError(ValueError):
    """A data file breaks one of its invariants; the message names the file and the entry."""


def read_toml(name: str) -> dict[str, Any]:
    """One TOML file of this package's data, as read (not validated)."""
    # __package__, not __name__: the files lie in this package's folder (a module is no anchor in 3.11).
    return tomllib.loads((resources.files(__package__) / name).read_text(encoding="utf-8"))


_AT = re.compile(r"`\$((?:\.\w+|\[\d+\]|\[\.\.\.\])*)`")


def _entry(raw: object, path: str) -> str:
    """The path of a msgspec error, with the id of each list entry it goes through."""
    out, node = "", raw
    for key, index, value in re.findall(r"\.(\w+)|\[(\d+)\]|(\[\.\.\.\])", path):
        if value:  # some key of a table: msgspec does not say which
            out += value
            node = None
        elif key:
            out += f".{key}"
            node = node.get(key) if isinstance(node, dict) else None
        else:
            out += f"[{index}]"
            node = node[int(index)] if isinstance(node, list) and int(index) < len(node) else None
            if isinstance(node, dict) and isinstance(node.get("id"), str | int):
                out += f" (id {node['id']!r})"
    return out.lstrip(".")


def convert(name: str, raw: object, kind: type[T]) -> T:
    """`raw` (the contents of data file `name`) validated as `kind`; DataError names the file and the entry."""
    try:
        return msgspec.convert(raw, kind)
    except msgspec.ValidationError as exc:
        message, _, at = str(exc).rpartition(" - at ")
        if not message or not _AT.fullmatch(at):
            message, at = str(exc), "`$`"
        where = _entry(raw, at.strip("`")[1:])
        raise DataError(f"{name}: {where}: {message}" if where else f"{name}: {message}") from exc


class Record(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The base of every data struct: immutable, and an unknown field (a misspelt key) is an error."""
