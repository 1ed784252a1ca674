// A ticket waiting for a seat (WatchTicket). Leaving the page cancels it: CancelTicket sent with
// fetch keepalive on pagehide, so the request outlives the closed tab.
import { useEffect, useRef, useState } from "react";
import { bearer, describeError, lobby, lobbyKeepalive } from "../api";
import { TicketStatus, type Ticket } from "../gen/menagerie/lobby/v1/lobby_pb";
import { currentPlayer, rememberSeat, rememberTicket } from "../session";

const STATUS: Record<number, string> = {
  [TicketStatus.WAITING]: "waiting",
  [TicketStatus.SEATED]: "seated",
  [TicketStatus.CANCELLED]: "cancelled",
  [TicketStatus.EXPIRED]: "expired",
};

export function QueuePage({ ticketId, table, code }: { ticketId: string; table?: string; code?: string }) {
  const player = currentPlayer();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [waited, setWaited] = useState(0);
  const [error, setError] = useState("");
  const open = useRef(true); // still waiting: cancel on leaving

  useEffect(() => {
    if (!player) return;
    const headers = bearer(player.token);
    const cancelOnLeave = () => {
      if (open.current) void lobbyKeepalive.cancelTicket({ ticketId }, { headers }).catch(() => undefined);
    };
    window.addEventListener("pagehide", cancelOnLeave);
    const abort = new AbortController();
    const watch = async () => {
      while (!abort.signal.aborted && open.current) {
        try {
          for await (const reply of lobby.watchTicket({ ticketId }, { headers, signal: abort.signal })) {
            setTicket(reply.ticket ?? null);
            setWaited(reply.waitedSeconds);
            const t = reply.ticket;
            if (t && t.status !== TicketStatus.WAITING) {
              open.current = false;
              rememberTicket(null);
              if (t.status === TicketStatus.SEATED && t.seating) {
                rememberSeat({ game: t.game, matchId: t.seating.matchId, seat: t.seating.seat, token: t.seating.seatToken });
                window.location.hash = `#/match/${t.game}/${t.seating.matchId}`;
              }
              return;
            }
          }
        } catch (err) {
          if (abort.signal.aborted) return;
          setError(describeError(err));
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    void watch();
    return () => {
      window.removeEventListener("pagehide", cancelOnLeave);
      abort.abort();
    };
  }, [ticketId, player?.token]);

  if (!player) return <p>Register first: <a href="#/">lobby</a>.</p>;
  const cancel = async () => {
    try {
      await lobby.cancelTicket({ ticketId }, { headers: bearer(player.token), timeoutMs: 10_000 });
      open.current = false;
      rememberTicket(null);
      window.location.hash = "#/";
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <div className="queue" data-testid="queue-page">
      <h2>
        {ticket ? `${ticket.game} · ${ticket.mode}` : "Your ticket"}: {ticket ? STATUS[ticket.status] ?? "…" : "…"}
      </h2>
      {table && (
        <p data-testid="table-invite">
          Private table <code>{table}</code>, join code <code data-testid="join-code">{code}</code>: give both to the
          players you invite.
        </p>
      )}
      <p>Waiting {waited} s for a seat{ticket?.allowBots ? "; bots fill the empty seats when the wait is over" : ""}.</p>
      {ticket && ticket.status !== TicketStatus.WAITING && <a href="#/">Back to the lobby</a>}
      {(!ticket || ticket.status === TicketStatus.WAITING) && (
        <button data-testid="cancel-ticket" onClick={cancel}>
          Leave the queue
        </button>
      )}
      {error && <p className="error">{error}</p>}
    </div>
  );
}
