// A live match's chart, for its spectators: each seat's chance to win at the steps the bots estimated so far, each
// from a spectator's view of that step only (Matches.GetLiveWinChances). Asked every 3 s: asking keeps the match
// watched, and while it is the bot pool estimates it as it moves (at most every 2 s).
import { useEffect, useState } from "react";
import { bearer, matches } from "../api";
import { seatName } from "../games/types";
import { WinChart, biggestSwings, percent, seatColour, type ChartStep } from "./WinChart";

const POLL_MS = 3000;

interface Props {
  game: string;
  matchId: string;
  token: string;
  names: Map<number, string>;
  over: boolean;
}

export function LiveChart({ game, matchId, token, names, over }: Props) {
  const [steps, setSteps] = useState<ChartStep[]>([]);
  useEffect(() => {
    if (over) return; // the replay has the whole match's chart
    let stopped = false;
    const ask = () =>
      matches(game)
        .getLiveWinChances({ matchId }, { headers: bearer(token), timeoutMs: 10_000 })
        .then((reply) => {
          if (!stopped) setSteps(reply.steps.map((s) => ({ version: s.version, chances: s.chances })));
        })
        .catch(() => undefined); // asked again at the next tick
    void ask();
    const timer = setInterval(ask, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [game, matchId, token, over]);
  const estimated = steps.filter((s) => s.chances.length > 0);
  if (steps.length === 0)
    return (
      <p className="small" data-testid="live-chart-waiting">
        The bots' estimate of each seat's chance to win shows here as the match goes on.
      </p>
    );
  if (estimated.length === 0)
    return (
      <p className="small" data-testid="live-chart-none">
        What a spectator sees of this match reveals too little for an estimate of each seat's chances.
      </p>
    );
  const latest = estimated[estimated.length - 1];
  return (
    <section className="live-chart" data-testid="live-chart" data-steps={estimated.length}>
      <WinChart
        steps={estimated}
        seats={Math.max(names.size, latest.chances.length)}
        names={names}
        current={estimated.length - 1}
        swings={biggestSwings(estimated)}
        onPick={() => undefined}
      />
      <p className="chances" data-testid="live-chances">
        As a spectator sees it, after step {String(latest.version)}:{" "}
        {latest.chances.map((c, s) => (
          <span key={s} style={{ color: seatColour(s) }}>
            {seatName(names, s)}: {percent(c)}{" "}
          </span>
        ))}
      </p>
    </section>
  );
}
