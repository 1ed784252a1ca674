// A competitive game's ratings, best first (OpenSkill ordinal).
import { useEffect, useState } from "react";
import { describeError, lobby } from "../api";
import type { LeaderboardEntry } from "../gen/menagerie/lobby/v1/lobby_pb";

export function LeaderboardPage({ game }: { game: string }) {
  const [entries, setEntries] = useState<LeaderboardEntry[]>([]);
  const [error, setError] = useState("");
  useEffect(() => {
    lobby
      .getLeaderboard({ game, limit: 50 }, { timeoutMs: 10_000 })
      .then((reply) => setEntries(reply.entries))
      .catch((err) => setError(describeError(err)));
  }, [game]);
  return (
    <div className="leaderboard" data-testid="leaderboard">
      <a href="#/">← Lobby</a>
      <h2>{game}: leaderboard</h2>
      {error && <p className="error">{error}</p>}
      {entries.length === 0 && !error && <p>No rated match yet (co-operative games keep no ratings).</p>}
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>Player</th>
            <th>Rating</th>
            <th>Matches</th>
            <th>Wins</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.playerId}>
              <td>{e.rank}</td>
              <td>
                {e.displayName}
                {e.bot ? " (bot)" : ""}
              </td>
              <td>{e.rating.toFixed(1)}</td>
              <td>{e.matches}</td>
              <td>{e.wins}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
