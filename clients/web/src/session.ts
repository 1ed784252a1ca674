// What the browser keeps: the guest player (localStorage) and the seat tokens of its matches.
import { lobby, bearer } from "./api";

export interface Player {
  name: string;
  playerId: string;
  token: string;
  expiresAt: number; // ms since the epoch
}

export interface Seat {
  game: string;
  matchId: string;
  seat: number;
  token: string;
}

const PLAYER_KEY = "menagerie.player";
const SEATS_KEY = "menagerie.seats";
const TICKET_KEY = "menagerie.ticket";

export function currentPlayer(): Player | null {
  const raw = localStorage.getItem(PLAYER_KEY);
  if (!raw) return null;
  const player = JSON.parse(raw) as Player;
  return player.expiresAt > Date.now() ? player : null;
}

/** Registers a guest with the lobby and keeps its token. */
export async function register(name: string): Promise<Player> {
  const reply = await lobby.registerPlayer({ displayName: name }, { timeoutMs: 10_000 });
  const expires = reply.expiresAt ? Number(reply.expiresAt.seconds) * 1000 : Date.now() + 24 * 3600_000;
  const player: Player = { name, playerId: reply.playerId, token: reply.token, expiresAt: expires };
  localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
  return player;
}

/** Changes the guest's display name at the lobby, keeping the player (its matches and ratings): a new token. */
export async function renamePlayer(player: Player, name: string): Promise<Player> {
  const reply = await lobby.renamePlayer({ displayName: name }, { headers: bearer(player.token), timeoutMs: 10_000 });
  const expires = reply.expiresAt ? Number(reply.expiresAt.seconds) * 1000 : player.expiresAt;
  const renamed: Player = { name: reply.displayName, playerId: reply.playerId, token: reply.token, expiresAt: expires };
  localStorage.setItem(PLAYER_KEY, JSON.stringify(renamed));
  return renamed;
}

export function forgetPlayer(): void {
  localStorage.removeItem(PLAYER_KEY);
  localStorage.removeItem(SEATS_KEY);
}

export function playerHeaders(): Record<string, string> {
  const player = currentPlayer();
  return player ? bearer(player.token) : {};
}

function seats(): Record<string, Seat> {
  return JSON.parse(localStorage.getItem(SEATS_KEY) ?? "{}") as Record<string, Seat>;
}

export function rememberSeat(seat: Seat): void {
  localStorage.setItem(SEATS_KEY, JSON.stringify({ ...seats(), [seat.matchId]: seat }));
}

export function seatOf(matchId: string): Seat | undefined {
  return seats()[matchId];
}

/** The open ticket of this tab (so a reload can watch it again, and the page's close cancels it). */
export function rememberTicket(ticketId: string | null): void {
  if (ticketId) sessionStorage.setItem(TICKET_KEY, ticketId);
  else sessionStorage.removeItem(TICKET_KEY);
}

export function openTicket(): string | null {
  return sessionStorage.getItem(TICKET_KEY);
}

const AUTO_PASS_KEY = "menagerie.autopass.";

/** The player's setting "pass automatically when passing is the only choice" (on unless turned off). */
export function autoPassOf(playerId: string): boolean {
  return localStorage.getItem(AUTO_PASS_KEY + playerId) !== "off";
}

export function setAutoPass(playerId: string, on: boolean): void {
  localStorage.setItem(AUTO_PASS_KEY + playerId, on ? "on" : "off");
}
