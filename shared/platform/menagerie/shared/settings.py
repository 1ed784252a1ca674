"""Settings from the environment: one object per service, read once at start."""

from __future__ import annotations

import os
from typing import Self

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from menagerie.shared.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL, MAX_BOT_BUDGET_SECONDS
from menagerie.shared.redis_client import is_cluster_url, read_secret, with_password
from menagerie.shared.rpc.channels import grpc_target
from menagerie.shared.tokens import TokenSigner

# How a client of a game's replicas spreads its calls (MENAGERIE_GAME_ROUTING): see docs/scaling.md.
PER_MATCH_ROUTING = "per-match"
GAME_ROUTINGS = f"^({PER_MATCH_ROUTING}|round-robin)$"
# Decisions a threads-pool bot worker runs at once by default (BotSettings.concurrency).
THREADS_CONCURRENCY = 4


class Settings(BaseSettings):
    """What every Menagerie process reads from its environment (prefix MENAGERIE_)."""

    model_config = SettingsConfigDict(env_prefix="MENAGERIE_", extra="ignore")

    redis_url: str = Field(
        description="Redis server of the platform (REDIS_URL); redis+cluster://host:port names a Redis Cluster"
        " by one of its nodes (docs/scaling.md).",
        validation_alias=AliasChoices("REDIS_URL", "MENAGERIE_REDIS_URL"),
    )
    verify_keys_file: str = Field(
        min_length=1,
        description="JWK set of the Ed25519 public keys this process trusts, each with what it may sign"
        " (menagerie.shared.keys); read again when it changes.",
    )
    signing_key_file: str = Field(
        "", description="This process's Ed25519 private key (a JWK with its kid), if it issues tokens; else empty."
    )
    redis_password_file: str = Field(
        "",
        description="A file holding the Redis password (a compose or Kubernetes secret), put into REDIS_URL at"
        " start (its user, if any, stays the URL's); empty = the URL's own password, if any.",
    )
    redis_timeout_margin_s: float = Field(
        5.0, gt=0, le=60, description="How long past its longest blocking read a Redis reply may take."
    )
    redis_pool_size: int = Field(
        64, ge=2, le=10_000, description="Connections of the request path's Redis pool (blocking reads have their own)."
    )
    redis_pool_wait_s: float = Field(
        2.0, gt=0, le=60, description="How long a call waits for a free pooled connection before UNAVAILABLE."
    )
    shards: int = Field(16, ge=1, le=4096, description="Shards matches are spread over; fixed for a deployment.")
    # What one caller may ask of a process that serves gRPC (menagerie.shared.rpc.quotas); 0 = no limit.
    rate_limit_per_second: float = Field(200.0, ge=0, description="Calls per second per caller, sustained.")
    rate_limit_burst: int = Field(400, ge=1, description="Calls per caller above the rate, in a burst.")
    max_streams_per_caller: int = Field(16, ge=0, description="Open Watch/WatchTicket streams per caller.")
    max_streams: int = Field(5_000, ge=0, description="Open streams per process.")
    max_concurrent_rpcs: int = Field(
        10_000, ge=1, description="Calls a process handles at once (streams included); past it, RESOURCE_EXHAUSTED."
    )
    log_format: str = Field("console", pattern="^(console|json)$")
    log_level: str = Field("info", pattern="^(debug|info|warning|error)$")

    # Transport security (menagerie.shared.rpc.channels): off unless set.
    tls_cert_file: str = Field("", description="PEM certificate this process serves gRPC with (with tls_key_file).")
    tls_key_file: str = Field("", description="PEM private key of tls_cert_file.")
    tls_ca_file: str = Field("", description="PEM CA bundle the services this process calls are verified against.")

    @model_validator(mode="after")
    def _tls_pair(self) -> Self:
        if bool(self.tls_cert_file) != bool(self.tls_key_file):
            raise ValueError("MENAGERIE_TLS_CERT_FILE and MENAGERIE_TLS_KEY_FILE go together: set both or neither")
        return self

    @model_validator(mode="after")
    def _password_from_file(self) -> Self:
        # Read here, once, so that every client the process makes (redis_client, the Celery
        # broker, the health probes) connects with the same URL.
        if self.redis_password_file:
            self.redis_url = with_password(self.redis_url, read_secret(self.redis_password_file))
        return self

    def token_signer(self) -> TokenSigner:
        """Verifies tokens with the trusted keys and issues them with this process's key, if it has one."""
        return TokenSigner.from_files(self.verify_keys_file, self.signing_key_file)


def parse_endpoints(text: str) -> dict[str, str]:
    """'beasts=host:port,zoo=host:port' -> {'beasts': 'host:port', 'zoo': 'host:port'}."""
    endpoints = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        game, sep, address = item.partition("=")
        if not sep or not game.strip() or ":" not in address:
            raise ValueError(f"{item!r} is not game=host:port")
        endpoints[game.strip()] = address.strip()
    return endpoints


class ServiceSettings(Settings):
    """A gRPC service: where it listens and how it drains."""

    host: str = "127.0.0.1"
    port: int = Field(50051, ge=0, le=65535)
    metrics_port: int = Field(0, ge=0, le=65535, description="Prometheus endpoint; 0 = off.")
    grace_seconds: float = Field(5.0, ge=0, description="How long in-flight calls may finish on SIGTERM.")


class GameServiceSettings(ServiceSettings):
    """A game service: match retention, timers and feed bounds."""

    match_retention_seconds: int = Field(7 * 24 * 3600, ge=60)
    default_turn_timer_seconds: int = Field(60, ge=1, le=24 * 3600)
    bot_turn_deadline_seconds: int = Field(10, ge=1, le=3600)
    turn_feed_maxlen: int = Field(100_000, ge=100)
    turn_feed_max_age_seconds: int = Field(
        3600, ge=60, description="Turn notices older than this leave the shard feeds (the deadlines cover stragglers)."
    )
    seat_token_ttl_seconds: int = Field(7 * 24 * 3600, ge=60)


class GameEndpointsSettings(Settings):
    """A process that calls the game services (the lobby, the bots)."""

    game_endpoints: str = Field(
        "beasts=127.0.0.1:50051",
        description="Where each game service listens: 'beasts=host:port,zoo=host:port'; replicas of one game as"
        " 'beasts=ip:port|ip:port' or 'beasts=dns:///name:port', called round-robin (docs/scaling.md).",
    )

    @field_validator("game_endpoints")
    @classmethod
    def _parseable(cls, value: str) -> str:
        endpoints = parse_endpoints(value)
        if not endpoints:
            raise ValueError("name at least one game service")
        for address in endpoints.values():
            grpc_target(address)  # replicas listed with '|' must be IP:port (ValueError says so)
        return value

    def endpoints(self) -> dict[str, str]:
        """Game id -> host:port."""
        return parse_endpoints(self.game_endpoints)


class LobbySettings(ServiceSettings, GameEndpointsSettings):
    """The lobby: where the games are, how long tickets wait, how long tokens last."""

    port: int = Field(50050, ge=0, le=65535)
    player_token_ttl_seconds: int = Field(30 * 24 * 3600, ge=60)
    matchmaker_interval_ms: int = Field(100, ge=10, le=10_000)
    ticket_lifetime_seconds: int = Field(30 * 60, ge=10, description="A ticket without bots expires after this.")
    table_lifetime_seconds: int = Field(
        30 * 60, ge=1, description="A private table that has not started by then closes; its tickets expire."
    )
    guest_player_ttl_seconds: int = Field(
        24 * 3600,
        ge=60,
        description="A registered player never seated in a match is forgotten after this long without a ticket.",
    )
    guests_per_minute: float = Field(
        5.0,
        ge=0,
        description="New guests (RegisterPlayer) one address may register per minute, sustained; 0 = no budget."
        " The address is the browser's when the gateway relays the call, else the caller's.",
    )
    guest_burst: int = Field(10, ge=1, description="New guests one address may register at once, above the rate.")
    max_open_tickets: int = Field(3, ge=1, le=100, description="Open tickets one player may hold at once.")
    max_open_tables: int = Field(3, ge=1, le=100, description="Private tables one player may have open at once.")
    claim_retry_seconds: int = Field(60, ge=5, description="Give claimed tickets back to the queue after this.")
    public_game_endpoints: str = Field(
        "", description="Game addresses given to clients, as game_endpoints; empty = the same as game_endpoints."
    )
    seat_token_ttl_seconds: int = Field(
        7 * 24 * 3600,
        ge=60,
        description="Lifetime of the seat tokens ResumeSeat signs, and how long the lobby remembers who sits where.",
    )
    ticket_watch_grace_seconds: int = Field(
        15,
        ge=0,
        le=3600,
        description="A waiting ticket whose WatchTicket streams all closed is cancelled when none is back after"
        " this long (0 = never; a ticket never watched is never cancelled this way).",
    )

    def public_endpoints(self) -> dict[str, str]:
        """Game id -> the gRPC target clients should dial (replicas listed with '|' as one `ipv4:a,b` target)."""
        chosen = {**self.endpoints(), **parse_endpoints(self.public_game_endpoints)}
        return {game: grpc_target(address) for game, address in chosen.items()}


class BotSettings(GameEndpointsSettings):
    """The dispatcher and the bot workers.

    Time bounds nest, and a configuration where they do not stops the process at start:
    each call a bot makes to a game service waits at most bot_call_timeout_seconds (at
    most a quarter of redispatch_seconds, which is the default), a whole decision at most
    half of redispatch_seconds, and that within the task's soft time limit, itself under
    its hard one. So a hung game service holds a worker's slot for a fraction of the
    redispatch interval, and a decision gives up by itself before Celery interrupts it.
    """

    broker_url: str = Field(
        "",
        description="Celery's broker (a plain Redis URL); empty = REDIS_URL. Required when REDIS_URL names a"
        " Redis Cluster, which kombu's Redis transport cannot use (docs/scaling.md).",
    )
    timeout_bot_level: str = Field(
        DEFAULT_BOT_LEVEL, pattern=f"^({'|'.join(BOT_LEVELS)})$", description="Plays for a timed-out human."
    )
    redispatch_seconds: int = Field(10, ge=1, le=3600, description="Enqueue a decision again if still pending then.")
    deadline_scan_ms: int = Field(200, ge=10, le=10_000)
    bot_call_timeout_seconds: float = Field(
        0.0, ge=0, description="Deadline of each call a bot makes to a game; 0 = a quarter of redispatch_seconds."
    )
    task_soft_time_limit_seconds: int = Field(20, ge=1)
    task_time_limit_seconds: int = Field(30, ge=2)
    worker_concurrency: int = Field(
        0,
        ge=0,
        le=64,
        description="Decisions a worker runs at once; 0 = auto: THREADS_CONCURRENCY in threads, else one a core.",
    )
    game_routing: str = Field(
        PER_MATCH_ROUTING,
        pattern=GAME_ROUTINGS,
        description="How a worker spreads its calls over a game's replicas: per-match sends every call of a match to"
        " one replica (its snapshot cache stays current), round-robin each call to the next (docs/scaling.md).",
    )
    worker_pool: str = Field(
        "auto",
        pattern="^(auto|prefork|threads|solo)$",
        description="Celery execution pool; auto = threads for a worker of the plain queues only (its decisions"
        " mostly wait on a call: no process hop per task), else prefork (a search holds a core).",
    )
    worker_games: str = Field(
        "",
        description="Games whose queues a worker consumes ('beasts,zoo'); empty = every game of game_endpoints.",
    )
    worker_queues: str = Field(
        "all",
        pattern="^(plain|search|all)$",
        description="Which of its games' queues a worker consumes: plain (random, greedy), search (mcts) or all;"
        " a pool runs search workers apart so long searches never hold the slots of cheaper levels.",
    )
    stale_consumer_seconds: int = Field(
        3600, ge=60, description="The dispatcher forgets a turn-feed consumer idle this long with nothing pending."
    )
    # Health and metrics (menagerie.shared.rpc.bootstrap). The dispatcher serves the gRPC
    # health check on host:port; 0 picks a free port (named in its start log line), so
    # several run side by side on one machine; deployments set a fixed one for probes.
    # The worker answers GET /healthz beside /metrics on metrics_port.
    host: str = "127.0.0.1"
    port: int = Field(0, ge=0, le=65535, description="gRPC health port of the dispatcher; 0 = a free port.")
    metrics_port: int = Field(0, ge=0, le=65535, description="Prometheus /metrics and /healthz; 0 = off.")
    grace_seconds: float = Field(5.0, ge=0, description="How long the dispatcher's loops may finish on SIGTERM.")

    def broker(self) -> str:
        """The Celery broker's URL: broker_url, else REDIS_URL."""
        return self.broker_url or self.redis_url

    def call_timeout(self) -> float:
        """Seconds one call of a bot to a game service may take."""
        return self.bot_call_timeout_seconds or self.redispatch_seconds / 4

    def decision_timeout(self) -> float:
        """Seconds all the calls of one bot decision may take together."""
        return self.redispatch_seconds / 2

    def search_seconds(self, budget: float) -> float:
        """A searching bot's time for one decision: `budget`, within what the task's soft time limit leaves.

        The search runs between the decision's calls, so the task must hold both: a budget
        longer than the soft time limit less the calls' time is cut to fit (never below 0.1 s).
        """
        room = self.task_soft_time_limit_seconds - self.decision_timeout() - 1.0
        return max(0.1, min(budget, MAX_BOT_BUDGET_SECONDS, room))

    def pool(self) -> str:
        """The worker's Celery pool: worker_pool, or for `auto` threads on the plain queues alone, else prefork.

        A plain decision is a millisecond of Python around one call: in the threads pool a task
        costs the worker a quarter to a third less CPU than in prefork, which hands every task from
        the consumer to a child process and back (docs/scaling.md). Celery applies no time limits
        in the threads pool; a plain decision is bounded by its calls' (decision_timeout).
        """
        if self.worker_pool != "auto":
            return self.worker_pool
        return "threads" if self.worker_queues == "plain" else "prefork"

    def concurrency(self) -> int:
        """Decisions the worker runs at once: worker_concurrency, or for 0 one per core, THREADS_CONCURRENCY in threads.

        A decision in the threads pool mostly waits on its one call, so more threads than cores keep
        the cores busy (docs/scaling.md: 1,000 bot matches on 2 cores, 4 threads against 2, about 11%
        more moves a second); a search holds a core, so a prefork worker runs one per core.
        """
        if self.worker_concurrency:
            return self.worker_concurrency
        if self.pool() == "threads":
            return THREADS_CONCURRENCY
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1

    def played_games(self) -> list[str]:
        """The games a worker plays: worker_games, or every game of game_endpoints."""
        chosen = [game.strip() for game in self.worker_games.split(",") if game.strip()]
        return chosen or list(self.endpoints())

    @model_validator(mode="after")
    def _bounds_nest(self) -> Self:
        # A call that may wait longer than the redispatch interval lets a hung game hold
        # the pool's slots while its decisions pile up again (issue 10, item 6).
        if self.call_timeout() > self.redispatch_seconds / 4:
            raise ValueError(
                f"MENAGERIE_BOT_CALL_TIMEOUT_SECONDS ({self.bot_call_timeout_seconds:g} s) must be at most a quarter"
                f" of MENAGERIE_REDISPATCH_SECONDS ({self.redispatch_seconds} s)"
            )
        if self.decision_timeout() >= self.task_soft_time_limit_seconds:
            raise ValueError(
                f"MENAGERIE_TASK_SOFT_TIME_LIMIT_SECONDS ({self.task_soft_time_limit_seconds} s) must exceed what"
                f" one decision may take, half of MENAGERIE_REDISPATCH_SECONDS ({self.decision_timeout():g} s)"
            )
        if self.task_soft_time_limit_seconds >= self.task_time_limit_seconds:
            raise ValueError(
                f"MENAGERIE_TASK_TIME_LIMIT_SECONDS ({self.task_time_limit_seconds} s) must exceed"
                f" MENAGERIE_TASK_SOFT_TIME_LIMIT_SECONDS ({self.task_soft_time_limit_seconds} s)"
            )
        if is_cluster_url(self.broker()):
            raise ValueError(
                "REDIS_URL names a Redis Cluster, which Celery's Redis broker cannot use: set MENAGERIE_BROKER_URL"
                " to a plain Redis server (redis://host:port/0)"
            )
        unknown = sorted(set(self.played_games()) - set(self.endpoints()))
        if unknown:
            raise ValueError(
                f"MENAGERIE_WORKER_GAMES names {', '.join(unknown)}, which MENAGERIE_GAME_ENDPOINTS does not"
                f" ({', '.join(self.endpoints())})"
            )
        return self
