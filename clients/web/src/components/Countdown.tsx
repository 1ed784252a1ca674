// The turn timers of a view (DecisionClock): counted from the server's own clock, so client skew does not matter.
import { useEffect, useState } from "react";
import type { DecisionClock } from "../gen/menagerie/common/v1/common_pb";
import { seatName } from "../games/types";

interface Props {
  clock?: DecisionClock;
  /** performance.now() when the clock arrived. */
  receivedAt: number;
  names: Map<number, string>;
  viewer?: number;
}

function seconds(ts?: { seconds: bigint; nanos: number }): number {
  return ts ? Number(ts.seconds) + ts.nanos / 1e9 : 0;
}

export function Countdown({ clock, receivedAt, names, viewer }: Props) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 250);
    return () => clearInterval(timer);
  }, []);
  if (!clock || clock.deadlines.length === 0) return null;
  const elapsed = (performance.now() - receivedAt) / 1000;
  const now = seconds(clock.serverTime);
  return (
    <div className="countdown" data-testid="countdown">
      {clock.deadlines.map((d) => {
        const left = Math.max(0, seconds(d.deadline) - now - elapsed);
        const share = d.seconds ? Math.min(1, left / d.seconds) : 0;
        const who = d.seat === viewer ? "Your" : `${seatName(names, d.seat)}'s`;
        return (
          <div key={d.seat} className={left < 10 ? "timer urgent" : "timer"}>
            <span>
              {who} turn timer: <b>{Math.ceil(left)} s</b>
            </span>
            <span className="bar">
              <span style={{ width: `${share * 100}%` }} />
            </span>
          </div>
        );
      })}
    </div>
  );
}
