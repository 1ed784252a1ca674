// The lobby's list of matches that ended lately, each with a link to its replay (pages/Replay.tsx).
import { useEffect, useState } from "react";
import { bearer, matches } from "../api";
import type { GameListing } from "../gen/menagerie/lobby/v1/lobby_pb";
import type { MatchSummary } from "../gen/menagerie/common/v1/common_pb";
import { MatchStatus, Result } from "../gen/menagerie/common/v1/common_pb";
import type { Player } from "../session";
import { replayHref } from "../pages/Replay";

// Finished matches asked of each game, and listed in all.
const PER_GAME = 5;
const LISTED = 8;
const REFRESH_MS = 15_000;

function ended(match: MatchSummary): number {
  return Number(match.updatedAt?.seconds ?? 0n);
}

/** "Ann won", "Ann and Bob won", "a draw": the result in the names the match's seats carry. */
function result(match: MatchSummary): string {
  const winners = (match.outcome?.seats ?? []).filter((s) => s.result === Result.WIN).map((s) => s.seat);
  const names = winners.map((seat) => match.seats.find((s) => s.seat === seat)?.displayName ?? `Seat ${seat + 1}`);
  return names.length ? `${names.join(" and ")} won` : "nobody won";
}

export function RecentReplays({ games, player }: { games: GameListing[]; player: Player }) {
  const [recent, setRecent] = useState<MatchSummary[]>([]);
  useEffect(() => {
    let stop = false;
    const load = async () => {
      const found: MatchSummary[] = [];
      for (const g of games.filter((g) => g.available)) {
        try {
          const reply = await matches(g.game).listMatches(
            { pageSize: PER_GAME, status: MatchStatus.FINISHED },
            { headers: bearer(player.token), timeoutMs: 10_000 },
          );
          found.push(...reply.matches);
        } catch {
          // that game is down: none of its replays listed
        }
      }
      if (!stop) setRecent(found.sort((a, b) => ended(b) - ended(a)).slice(0, LISTED));
    };
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [games, player]);
  if (recent.length === 0) return null;
  return (
    <section data-testid="recent-replays">
      <h2>Replays</h2>
      <ul>
        {recent.map((m) => (
          <li key={m.matchId}>
            {m.config?.game} ({m.config?.mode}): {m.seats.map((s) => s.displayName).join(", ")} · {result(m)}{" "}
            <a data-testid="replay" href={replayHref(m.config?.game ?? "", m.matchId)}>
              Replay
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
