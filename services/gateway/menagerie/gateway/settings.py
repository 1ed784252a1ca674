"""The gateway's settings, from the environment (prefix MENAGERIE_, as every Menagerie process)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from menagerie.gateway.clients import Network, parse_networks
from menagerie.shared.settings import GAME_ROUTINGS, PER_MATCH_ROUTING, parse_endpoints
from menagerie.shared.tokens import TokenSigner

# The built web app (clients/web/dist) when running from a checkout.
DEFAULT_STATIC = Path(__file__).resolve().parents[4] / "clients" / "web" / "dist"


class GatewaySettings(BaseSettings):
    """Where the gateway listens, where the backends are, and how long it waits for them."""

    model_config = SettingsConfigDict(env_prefix="MENAGERIE_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(8080, ge=0, le=65535, description="HTTP port of the Connect API and the web app.")
    lobby_address: str = Field("127.0.0.1:50050", description="The lobby's gRPC address (host:port).")
    game_endpoints: str = Field(
        "",
        description="Where each game service listens ('zoo=host:port,…'); empty = the endpoints the lobby's"
        " ListGames gives.",
    )
    game_routing: str = Field(
        PER_MATCH_ROUTING,
        pattern=GAME_ROUTINGS,
        description="How the gateway spreads a game's calls over its replicas: per-match sends every call about a"
        " match to one replica (its snapshot cache stays current), round-robin each call to the next.",
    )
    static_dir: Path = Field(DEFAULT_STATIC, description="The built web app served at / (clients/web/dist).")
    call_timeout_seconds: float = Field(10.0, gt=0, le=300, description="Deadline of each unary backend call.")
    stream_timeout_seconds: float = Field(
        3600.0, gt=0, le=24 * 3600, description="Deadline of a server stream (Watch, WatchTicket); clients reopen it."
    )
    discovery_timeout_seconds: float = Field(
        30.0, gt=0, description="How long the gateway asks the lobby for the games at start before giving up."
    )
    grace_seconds: float = Field(5.0, ge=0, description="How long open requests may finish on SIGTERM.")
    max_request_bytes: int = Field(
        4 * 1024 * 1024,
        ge=1024,
        le=4 * 1024 * 1024,
        description="Largest request body, before and after gzip (413 past it); at most what the backends accept.",
    )
    header_timeout_seconds: float = Field(
        10.0, gt=0, le=300, description="A connection's request head must arrive within this (else it is closed)."
    )
    body_timeout_seconds: float = Field(
        30.0, gt=0, le=600, description="A request body must arrive in full within this after its head (else 408)."
    )
    keepalive_timeout_seconds: int = Field(
        5, ge=1, le=300, description="An idle keep-alive connection is closed after this."
    )
    max_connections: int = Field(
        1000,
        ge=1,
        description="Open connections and requests (streams included) served at once; past it a request gets 503."
        " Kept below the process's open-file limit.",
    )
    log_interval_seconds: float = Field(
        10.0, gt=0, description="The server's repeated warnings (refused connections…) are logged once per this."
    )
    metrics_port: int = Field(0, ge=0, le=65535, description="Prometheus /metrics and /healthz; 0 = off.")
    ready_check_seconds: float = Field(2.0, gt=0, le=60, description="How often /readyz asks the lobby's health check.")
    tls_ca_file: str = Field("", description="PEM CA bundle the backends are verified against (TLS when set).")
    signing_key_file: str = Field(
        "",
        description="The gateway's Ed25519 private key (a JWK with its kid): it signs the gateway's service"
        " credential, which lets the backends believe the client address it relays (per-client budgets);"
        " empty = every anonymous call counts under the gateway's own address.",
    )
    trusted_proxies: str = Field(
        "",
        description="Proxies (an ingress) whose X-Forwarded-For names the client: addresses or CIDRs,"
        " '10.0.0.0/8,192.0.2.7'; empty = none (the header is ignored, the peer is the client).",
    )
    log_format: str = Field("console", pattern="^(console|json)$")
    log_level: str = Field("info", pattern="^(debug|info|warning|error)$")

    def per_match(self) -> bool:
        """True when a game's calls go to their match's replica."""
        return self.game_routing == PER_MATCH_ROUTING

    def relay_signer(self) -> TokenSigner | None:
        """What signs the gateway's credential: its key, else nothing."""
        return TokenSigner.from_files("", self.signing_key_file) if self.signing_key_file else None

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        parse_networks(value)
        return value

    def proxies(self) -> tuple[Network, ...]:
        """The trusted proxies' networks."""
        return parse_networks(self.trusted_proxies)

    @field_validator("game_endpoints")
    @classmethod
    def _parseable(cls, value: str) -> str:
        parse_endpoints(value)
        return value

    def endpoints(self) -> dict[str, str]:
        """Game id -> host:port from game_endpoints (empty: ask the lobby)."""
        return parse_endpoints(self.game_endpoints)
