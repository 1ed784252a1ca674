# ruff: noqa: B018, F821
"""Code vulture cannot see used, kept on purpose (make lint: vulture reads this file beside the code).

vulture's whitelist format: each line names something (`_.name` for an attribute or a method),
which vulture then counts as used. Every group says why its names are used although no Python
code calls them. Anything else vulture lists is unused: delete it (and the tests that only
tested it), do not add it here. `vulture --make-whitelist` prints the lines for new findings.
"""

# --- Entry points: the CLI finds each game's renderer through the `menagerie.cli` entry-point group
# (services/*/pyproject.toml), never by import.
BeastsUI
PursuitUI
SnitchUI
ZooUI

# --- Celery: tasks are sent by name, signal handlers are connected by their decorators
# (services/bots/menagerie/bots/worker.py, services/bots/menagerie/bots/tracing.py).
play_turn
estimate_match
estimate_live
_forget_inherited_clients
_die_with_the_worker
_note_stop_request
_note_worker
_start_in_pool_process
_flush_pool_process
_start_in_worker

# --- gRPC and protobuf: servicer methods are called by grpc.aio by the RPC's name, an interceptor's
# intercept_service by the server, and protobuf fields are read from the message by its receiver.
_.JoinTable
_.LeaveSeat
_.ReturnToSeat
_.GetRules
_.GetReplay
_.RecordWinEstimates
_.GetLiveWinChances
_.ListMatches
_.intercept_service
_.next_page_token
_.go_package
_.java_multiple_files
_.java_package
_.java_outer_classname

# --- pydantic settings: model_config configures the model; validators run through their decorators.
model_config
_._tls_pair
_._password_from_file
_._parseable
_._networks
_._bounds_nest

# --- Framework callbacks and class attributes read by the standard library, uvicorn and Rich:
# asyncio.Protocol (store/pipelined.py), WSGIRequestHandler and ThreadingMixIn (observability.py),
# uvicorn.Server.capture_signals (gateway/main.py), Rich Table captions and titles (snitch/cli/board.py).
_.connection_made
_.data_received
_.connection_lost
_.log_message
daemon_threads
_.capture_signals
_.caption
_.caption_justify
_.title_justify
_.title_style

# --- Read by name at run time: Forwarder.__getattr__ reads _methods through self.__dict__
# (gateway/forward.py); getattr(self, difficulty) and getattr(self, house) read these msgspec
# fields (beasts salem_data Copies/OrangeBoxes, snitch TacticalDecks.library); getattr(resources,
# colour) reads ResourceCounts' colours (beasts engine views.py, salem.py).
_._methods
gentle
standard
hard
gryffindor
slytherin
ravenclaw
hufflepuff
red
yellow
green

# --- Read by Lua: the match scripts' one argument is a msgspec struct (CreateArgs, SubmitArgs, SeatArgs in
# menagerie.shared.store.scripts) that create.lua, submit.lua and seat.lua decode with cmsgpack and read by
# field name (`args.feed_min_id`); tests/integration/test_store.py checks the names match.
deadlines_added
deadlines_removed
loaded_version
loaded_seating
feed_min_id
retention_s
finished_min_ms
live_every_ms

# --- Sent to the clients: view fields menagerie.shared.codec copies into the protobuf views by name,
# which clients/web and the CLI show (beasts, snitch engine/model/).
spells_per_turn
spell_deck_size
track_spaces
locked_trait
deployment_zone_of
bludger_names

# --- Read through their annotations: secret_goal_box is a Hidden("goals") place of the Zoo state,
# which permute_hidden shuffles when the bots determinize (menagerie.rules.hidden).
secret_goal_box

# --- The engine contract's event metadata: GameEvent.reveals (True on an event that makes hidden
# content public) is what the hidden-information property check (tests/support/rules_properties.py)
# relies on to tell a legitimate reveal from a leak; each game's events declare it.
reveals

# --- The rules contract's chance-node API (menagerie.rules.procedure, issue 28): a search or a
# test states a chance node's outcomes (next_chance) and picks them (choosing_outcomes). Part of
# the contract as designed; no search uses it yet.
choosing_outcomes
_.next_chance

# --- Public API of the rest of the platform: ErrorDetails.preconditions is what a client reads of a
# PreconditionFailure (docs/clients.md); kill_started_groups runs at interpreter exit
# (@atexit.register); reap_orphans (the tests' session guard) and tied_script (the e2e browser's
# driver) are menagerie.shared.lifetime's tools for processes other code starts (issue 34).
preconditions
kill_started_groups
reap_orphans
tied_script

# --- Type aliases named only inside the quoted type of cast() (ruff's TC006 asks for the quotes).
FeedReply
StreamReply

# --- logging.LogRecord attributes the gateway's rate-limited filter clears (menagerie.gateway.logs): the
# logging module's formatter reads them.
_.exc_info
_.exc_text

# --- Fields of an arena run's JSON Lines (menagerie.arena.records.LevelTimes, issue 33): written for
# whoever reads the file (jq, a notebook); `menagerie arena report` computes its figures from `ms`.
_.mean_ms
_.max_ms
