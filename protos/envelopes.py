"""Writes the part every game's proto shares: its service and the request/response envelopes.

Every game service has the same four methods, whose requests and responses differ from one
game to the next only by the game's own View, Action and Event (the platform reaches them by
name: menagerie.shared.games.binding). That part is written here once, from TEMPLATE, at the
end of each game's proto (services/<game>/protos/menagerie/<game>/v1/<game>.proto) and of the
generic one (protos/menagerie/generic/v1/generic.proto), after the BEGIN line; the game writes
everything before that line. `make protos` runs this before generating code, and
tests/unit/test_envelopes.py fails when a committed proto differs from what this writes.

The protos stay the public contract: a change to TEMPLATE changes every game's API at once,
and `buf breaking` (make lint) holds field names and numbers to the released ones.

Usage: python protos/envelopes.py   (rewrites the protos in place)
"""

from __future__ import annotations

from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
BEGIN = "// ---- Written by protos/envelopes.py from its template (make protos): edit it there, not here. ----"
# The generic service (menagerie.generic.v1): any game's values as JSON, with the same envelopes.
GENERIC = (Path("protos/menagerie/generic/v1/generic.proto"), "Game")

TEMPLATE = """\
// Every call names a match and carries a seat token (or, for GetView and Watch, any valid
// token to look on as a spectator).
service {service} {{
  // What the caller's seat (or a spectator) may see now.
  rpc GetView(GetViewRequest) returns (GetViewResponse);
  // Every action the caller's seat may take now; the list is exact.
  rpc ListLegalActions(ListLegalActionsRequest) returns (ListLegalActionsResponse);
  // Takes one action for the caller's seat.
  rpc SubmitAction(SubmitActionRequest) returns (SubmitActionResponse);
  // The match's events after from_version, then each new one, with the view.
  rpc Watch(WatchRequest) returns (stream WatchResponse);
}}

message GetViewRequest {{
  string match_id = 1;
}}

message GetViewResponse {{
  // The match version.
  uint64 version = 1;
  // The version to pass as SubmitActionRequest.expected_version.
  uint64 view_version = 2;
  View view = 3;
  // The turn timers of the decision(s) pending now (human seats in to_act).
  menagerie.common.v1.DecisionClock clock = 4;
}}

message ListLegalActionsRequest {{
  string match_id = 1;
}}

message ListLegalActionsResponse {{
  uint64 view_version = 1;
  repeated Action actions = 2;
  // One label per action, in the same order.
  repeated menagerie.common.v1.ActionLabel labels = 3;
}}

message SubmitActionRequest {{
  string match_id = 1;
  // The view_version of the view the action was chosen from.
  uint64 expected_version = 2;
  // Unique per intended action; a retry with the same key gets the first answer.
  string idempotency_key = 3;
  Action action = 4;
}}

// What an accepted action did. The new view comes from GetView or Watch.
message SubmitActionResponse {{
  // The match version after the action.
  uint64 version = 1;
  // The caller's view version after the action (for its next submit).
  uint64 view_version = 2;
  // The events the action caused, as the caller may see them; their text (header.text)
  // comes with Watch, so that the answer kept for a retried request stays small.
  repeated Event events = 3;
}}

message WatchRequest {{
  string match_id = 1;
  // Send events after this version; 0 = from the start.
  uint64 from_version = 2;
}}

// One accepted action (or the setup) and its events; the response that brings
// the watcher up to date also carries the current view.
message WatchResponse {{
  uint64 version = 1;
  repeated Event events = 2;
  // Present on the response whose version is the match's current version.
  View view = 3;
  uint64 view_version = 4;
  // With the view: the turn timers of the decision(s) pending now (human seats in to_act).
  menagerie.common.v1.DecisionClock clock = 5;
  // Set when this version's action was made by a bot for a human seat whose turn timer
  // ran out (its events also carry EventHeader.timeout_decision).
  menagerie.common.v1.TimeoutDecision timeout = 6;
}}
"""


def service_name(game: str) -> str:
    """The service of game `game`: its id in CamelCase (zoo -> Zoo, fantasy_zoo -> FantasyZoo)."""
    return "".join(part.capitalize() for part in game.split("_"))


def protos() -> dict[Path, str]:
    """Every proto with the shared part (relative to the repository) -> the name of its service."""
    found = {GENERIC[0]: GENERIC[1]}
    for proto in sorted(REPOSITORY.glob("services/*/protos/menagerie/*/v1/*.proto")):
        game = proto.stem
        if proto.parent.parent.name == game:  # the game's own proto, not one it imports beside it
            found[proto.relative_to(REPOSITORY)] = service_name(game)
    return found


def with_envelopes(text: str, service: str) -> str:
    """`text` with its part after BEGIN written from TEMPLATE (added at the end where it has none)."""
    head = text.split(BEGIN, 1)[0].rstrip("\n")
    return f"{head}\n\n{BEGIN}\n\n{TEMPLATE.format(service=service)}"


def write() -> list[Path]:
    """Rewrites every proto whose shared part differs from TEMPLATE's; returns those rewritten."""
    written = []
    for path, service in protos().items():
        proto = REPOSITORY / path
        text = proto.read_text()
        fresh = with_envelopes(text, service)
        if fresh != text:
            proto.write_text(fresh)
            written.append(path)
    return written


if __name__ == "__main__":
    for path in write():
        print(f"wrote {path}")
