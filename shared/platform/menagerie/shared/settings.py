"""Settings from the environment: one object per service, read once at start."""

from __future__ import annotations

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """What every Menagerie process reads from its environment (prefix MENAGERIE_)."""

    model_config = SettingsConfigDict(env_prefix="MENAGERIE_", extra="ignore")

    redis_url: str = Field(
        description="Redis server of the platform (REDIS_URL).",
        validation_alias=AliasChoices("REDIS_URL", "MENAGERIE_REDIS_URL"),
    )
    token_secret: SecretStr = Field(description="HMAC key that signs player, seat and service tokens.")
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
    log_format: str = Field("console", pattern="^(console|json)$")
    log_level: str = Field("info", pattern="^(debug|info|warning|error)$")

    @field_validator("token_secret")
    @classmethod
    def _long_enough(cls, value: SecretStr) -> SecretStr:
        if len(value.get_secret_value()) < 32:
            raise ValueError("must be at least 32 characters")
        return value


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
    seat_token_ttl_seconds: int = Field(7 * 24 * 3600, ge=60)


class GameEndpointsSettings(Settings):
    """A process that calls the game services (the lobby, the bots)."""

    game_endpoints: str = Field(
        "beasts=127.0.0.1:50051",
        description="Where each game service listens: 'beasts=host:port,zoo=host:port'.",
    )

    @field_validator("game_endpoints")
    @classmethod
    def _parseable(cls, value: str) -> str:
        if not parse_endpoints(value):
            raise ValueError("name at least one game service")
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
    max_open_tickets: int = Field(3, ge=1, le=100, description="Open tickets one player may hold at once.")
    max_open_tables: int = Field(3, ge=1, le=100, description="Private tables one player may have open at once.")
    claim_retry_seconds: int = Field(60, ge=5, description="Give claimed tickets back to the queue after this.")
    public_game_endpoints: str = Field(
        "", description="Game addresses given to clients, as game_endpoints; empty = the same as game_endpoints."
    )

    def public_endpoints(self) -> dict[str, str]:
        """Game id -> the host:port clients should dial."""
        return {**self.endpoints(), **parse_endpoints(self.public_game_endpoints)}


class BotSettings(GameEndpointsSettings):
    """The dispatcher and the bot workers."""

    timeout_bot_level: str = Field("greedy", pattern="^(random|greedy)$", description="Plays for a timed-out human.")
    redispatch_seconds: int = Field(10, ge=1, le=3600, description="Enqueue a decision again if still pending then.")
    deadline_scan_ms: int = Field(200, ge=10, le=10_000)
    task_soft_time_limit_seconds: int = Field(20, ge=1)
    task_time_limit_seconds: int = Field(30, ge=2)
    worker_concurrency: int = Field(2, ge=1, le=64)
    worker_pool: str = Field("prefork", pattern="^(prefork|threads|solo)$", description="Celery execution pool.")
    # Health and metrics (menagerie.shared.rpc.bootstrap). The dispatcher serves the gRPC
    # health check on host:port; 0 picks a free port (named in its start log line), so
    # several run side by side on one machine; deployments set a fixed one for probes.
    # The worker answers GET /healthz beside /metrics on metrics_port.
    host: str = "127.0.0.1"
    port: int = Field(0, ge=0, le=65535, description="gRPC health port of the dispatcher; 0 = a free port.")
    metrics_port: int = Field(0, ge=0, le=65535, description="Prometheus /metrics and /healthz; 0 = off.")
    grace_seconds: float = Field(5.0, ge=0, description="How long the dispatcher's loops may finish on SIGTERM.")
