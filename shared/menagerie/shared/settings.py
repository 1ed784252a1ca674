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
    shards: int = Field(16, ge=1, le=4096, description="Shards matches are spread over; fixed for a deployment.")
    log_format: str = Field("console", pattern="^(console|json)$")
    log_level: str = Field("info", pattern="^(debug|info|warning|error)$")

    @field_validator("token_secret")
    @classmethod
    def _long_enough(cls, value: SecretStr) -> SecretStr:
        if len(value.get_secret_value()) < 32:
            raise ValueError("must be at least 32 characters")
        return value


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
