// The Connect clients of the lobby and the game services, all through the gateway (same origin).
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import type { DescService } from "@bufbuild/protobuf";
import { Lobby } from "./gen/menagerie/lobby/v1/lobby_pb";
import { Matches } from "./gen/menagerie/common/v1/matches_pb";
import type { ActionLabel, DecisionClock, EventHeader, TimeoutDecision } from "./gen/menagerie/common/v1/common_pb";

const origin = window.location.origin;
const transport = createConnectTransport({ baseUrl: origin });

/** The lobby: players, tickets, tables, leaderboards, my matches. */
export const lobby: Client<typeof Lobby> = createClient(Lobby, transport);

/** A lobby client whose requests outlive the page (fetch keepalive): CancelTicket as the page closes. */
export const lobbyKeepalive: Client<typeof Lobby> = createClient(
  Lobby,
  createConnectTransport({
    baseUrl: origin,
    fetch: (input, init) => fetch(input, { ...init, keepalive: true }),
  }),
);

/** A game's Matches service (the same service name on every game, so under /games/<game>). */
export function matches(game: string): Client<typeof Matches> {
  return createClient(Matches, createConnectTransport({ baseUrl: `${origin}/games/${game}` }));
}

/** What every game service answers, whatever its own view, action and event types. */
export interface GameEvent {
  header?: EventHeader;
  kind: { case: string | undefined; value?: unknown };
}
export interface GameViewReply<V> {
  version: bigint;
  viewVersion: bigint;
  view?: V;
  clock?: DecisionClock;
}
export interface LegalActionsReply<A> {
  viewVersion: bigint;
  actions: A[];
  labels: ActionLabel[];
}
export interface WatchReply<V> {
  version: bigint;
  events: GameEvent[];
  view?: V;
  viewVersion: bigint;
  clock?: DecisionClock;
  timeout?: TimeoutDecision;
}
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The four RPCs every game service has (GetView, ListLegalActions, SubmitAction, Watch). */
export interface GameClient<V = unknown, A = unknown> {
  getView(request: { matchId: string }, options?: CallOptions): Promise<GameViewReply<V>>;
  listLegalActions(request: { matchId: string }, options?: CallOptions): Promise<LegalActionsReply<A>>;
  submitAction(
    request: { matchId: string; expectedVersion: bigint; idempotencyKey: string; action: A },
    options?: CallOptions,
  ): Promise<{ version: bigint; viewVersion: bigint }>;
  watch(request: { matchId: string; fromVersion: bigint }, options?: CallOptions): AsyncIterable<WatchReply<V>>;
}

/**
 * A typed client of a game's service; every game has the same four RPCs. A service whose name is the
 * same for every game (the generic one) is called under /games/<game>, as Matches is.
 */
export function gameClient<V, A>(service: DescService, game?: string): GameClient<V, A> {
  const under = game ? createConnectTransport({ baseUrl: `${origin}/games/${game}` }) : transport;
  return createClient(service, under) as unknown as GameClient<V, A>;
}

/** The authorization header the platform expects. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** A readable line for an error of any call. */
export function describeError(error: unknown): string {
  if (error instanceof ConnectError) {
    return `${Code[error.code]}: ${error.rawMessage}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export { Code, ConnectError };
