// A match's replay (#/replay/<game>/<match>, ?seat=<n> for that seat's views, ?step=<version> to open at
// a step): the steps from Matches.GetReplay, a timeline to scrub, the board at the chosen step as the
// reader saw it (the game's own board, or the generic one), the step's events, and the bots' estimate
// of each seat's chance to win as a chart whose biggest swings can be jumped to. The server rebuilds
// every step through the same view function as the match page's; nothing here decides what anyone sees.
import { useCallback, useEffect, useMemo, useState } from "react";
import type { DescMessage } from "@bufbuild/protobuf";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { bearer, describeError } from "../api";
import type { MatchSummary, Outcome, Prompt } from "../gen/menagerie/common/v1/common_pb";
import { MatchStatus } from "../gen/menagerie/common/v1/common_pb";
import { Matches, WinEstimates, type GetReplayResponse, type ReplayStep } from "../gen/menagerie/common/v1/matches_pb";
import { gameUI } from "../games";
import type { GameUI } from "../games/types";
import { seatName } from "../games/types";
import { OutcomeTable } from "../components/Outcome";
import { WinChart, biggestSwings, percent, seatColour, type ChartStep } from "../components/WinChart";
import { currentPlayer, seatOf } from "../session";
import "./replay.css";

interface Props {
  game: string;
  matchId: string;
  /** Whose views: a seat (its own during the match; any once it is over); undefined: a spectator's. */
  seat?: number;
  /** The version to open at (from a shared link); the last step when absent. */
  step?: bigint;
  board?: string;
}

interface Step {
  version: bigint;
  seat?: number;
  events: string[];
  view?: { prompt?: Prompt; outcome?: Outcome };
  chances: number[];
}

// The largest page GetReplay serves: a whole match in one or two calls.
const PAGE_SIZE = 200;
// While a finished match's estimates are being computed, the page asks again this often, this many times.
const ESTIMATE_POLL_MS = 2000;
const ESTIMATE_POLLS = 60;

/** The game's View message type: the `view` field of its GetView reply (the generic one for the generic board). */
function viewSchema(ui: GameUI): DescMessage | undefined {
  return ui.service.method["getView"]?.output.field["view"]?.message;
}

/**
 * The game's Matches client for replays, in protobuf's binary format: a replay is every step's whole view
 * (a long Snitch match, a megabyte and a half), a fraction of its JSON, and the views come packed in Any,
 * which the binary format carries as bytes for `anyUnpack` (JSON would need a registry of the game's types).
 */
function replayClient(game: string): Client<typeof Matches> {
  return createClient(
    Matches,
    createConnectTransport({ baseUrl: `${window.location.origin}/games/${game}`, useBinaryFormat: true }),
  );
}

function stepOf(reply: ReplayStep, schema: DescMessage | undefined): Step {
  const view = reply.view && schema ? (anyUnpack(reply.view, schema) as Step["view"]) : undefined;
  return { version: reply.version, seat: reply.seat, events: reply.events, view, chances: reply.winChances };
}

/** The shareable address of a replay at a step. */
export function replayHref(game: string, matchId: string, seat?: number, step?: bigint): string {
  const query = new URLSearchParams();
  if (seat !== undefined) query.set("seat", String(seat));
  if (step !== undefined) query.set("step", String(step));
  const rest = query.toString();
  return `#/replay/${game}/${matchId}${rest ? `?${rest}` : ""}`;
}

export function ReplayPage({ game, matchId, seat, step, board }: Props) {
  const ui = useMemo(() => gameUI(game, board), [game, board]);
  const token = seatOf(matchId)?.token ?? currentPlayer()?.token ?? "";
  const [steps, setSteps] = useState<Step[]>([]);
  const [summary, setSummary] = useState<MatchSummary | undefined>();
  const [estimates, setEstimates] = useState<WinEstimates>(WinEstimates.UNSPECIFIED);
  const [index, setIndex] = useState(0);
  const [error, setError] = useState("");

  const fetchPages = useCallback(
    async (withoutViews: boolean): Promise<GetReplayResponse[]> => {
      const client = replayClient(game);
      const pages: GetReplayResponse[] = [];
      for (let from = 1n; from; ) {
        const page = await client.getReplay(
          { matchId, seat, fromVersion: from, pageSize: PAGE_SIZE, generic: ui.perGame === true, withoutViews },
          { headers: bearer(token), timeoutMs: 30_000 },
        );
        pages.push(page);
        from = page.nextVersion;
      }
      return pages;
    },
    [game, matchId, seat, token, ui],
  );

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    const schema = viewSchema(ui);
    fetchPages(false)
      .then((pages) => {
        if (cancelled) return;
        const loaded = pages.flatMap((page) => page.steps.map((s) => stepOf(s, schema)));
        setSteps(loaded);
        setSummary(pages[0]?.match);
        // Ready only if every page found them: the estimates may have been stored between two pages.
        setEstimates(pages.every((page) => page.estimates === WinEstimates.READY) ? WinEstimates.READY : WinEstimates.PENDING);
        const at = step === undefined ? -1 : loaded.findIndex((s) => s.version === step);
        setIndex(at >= 0 ? at : Math.max(loaded.length - 1, 0));
      })
      .catch((e) => !cancelled && setError(describeError(e)));
    return () => {
      cancelled = true;
    };
  }, [fetchPages, token, ui, step]);

  const finished = summary?.status === MatchStatus.FINISHED;
  // A finished match whose estimates the bot pool has not stored yet: ask again (cheaply: no views) until they are.
  useEffect(() => {
    if (!finished || estimates !== WinEstimates.PENDING) return;
    let polls = 0;
    const timer = window.setInterval(() => {
      if (++polls > ESTIMATE_POLLS) return window.clearInterval(timer);
      fetchPages(true)
        .then((pages) => {
          if (!pages.every((page) => page.estimates === WinEstimates.READY)) return;
          const chances = new Map(pages.flatMap((page) => page.steps.map((s) => [s.version, s.winChances] as const)));
          setSteps((old) => old.map((s) => ({ ...s, chances: chances.get(s.version) ?? [] })));
          setEstimates(WinEstimates.READY);
        })
        .catch(() => undefined); // the next poll tries again
    }, ESTIMATE_POLL_MS);
    return () => window.clearInterval(timer);
  }, [finished, estimates, fetchPages]);

  const go = useCallback(
    (to: number) => {
      const next = Math.min(Math.max(to, 0), Math.max(steps.length - 1, 0));
      setIndex(next);
      // The address names the step, so it can be shared; replaceState changes no route (no reload).
      const version = steps[next]?.version;
      if (version !== undefined) window.history.replaceState(null, "", replayHref(game, matchId, seat, version));
    },
    [steps, game, matchId, seat],
  );

  const names = useMemo(() => new Map((summary?.seats ?? []).map((s) => [s.seat, s.displayName])), [summary]);
  const chartSteps: ChartStep[] = useMemo(() => steps.map((s) => ({ version: s.version, chances: s.chances })), [steps]);
  const swings = useMemo(() => biggestSwings(chartSteps), [chartSteps]);

  if (!token) {
    return (
      <p className="notice">
        Choose a name in the <a href="#/">lobby</a> first, then open this replay again.
      </p>
    );
  }
  if (error) return <p className="error">{error}</p>;
  if (!summary || steps.length === 0) return <p>Loading the replay…</p>;

  const shown = steps[index];
  const Board = ui.Board;
  const seats = summary.seats.length;
  const estimated = steps.some((s) => s.chances.length > 0);
  const outcome = shown.view?.outcome && shown.view.outcome.seats.length > 0 ? shown.view.outcome : undefined;
  return (
    <div className="replay" data-testid="replay" data-step={String(shown.version)} data-steps={steps.length}>
      <div className="match-head">
        <h2>
          Replay of {game} · {summary.config?.mode}
        </h2>
        <p className="small">
          {finished ? "Finished." : "In progress: the steps so far."} Views of{" "}
          <select
            data-testid="replay-seat"
            value={seat === undefined ? "" : String(seat)}
            onChange={(event) => {
              const value = event.target.value;
              window.location.hash = replayHref(game, matchId, value === "" ? undefined : Number(value), shown.version);
            }}
          >
            <option value="">a spectator</option>
            {summary.seats.map((s) =>
              finished || s.seat === seatOf(matchId)?.seat ? (
                <option key={s.seat} value={String(s.seat)}>
                  {seatName(names, s.seat)}
                </option>
              ) : null,
            )}
          </select>{" "}
          {!finished && <a href={`#/watch/${game}/${matchId}`}>watch it live</a>}
        </p>
      </div>
      <div className="timeline">
        <button onClick={() => go(0)} aria-label="first step">
          «
        </button>
        <button onClick={() => go(index - 1)} aria-label="previous step">
          ◀
        </button>
        <input
          type="range"
          data-testid="timeline"
          aria-label="step"
          min={0}
          max={steps.length - 1}
          value={index}
          onChange={(event) => go(Number(event.target.value))}
        />
        <button onClick={() => go(index + 1)} aria-label="next step">
          ▶
        </button>
        <button onClick={() => go(steps.length - 1)} aria-label="last step">
          »
        </button>
        <span data-testid="step-label">
          Step {index + 1} of {steps.length}
          {shown.seat !== undefined ? ` · ${seatName(names, shown.seat)} acted` : " · the setup"}
        </span>
      </div>
      {estimated ? (
        <>
          <WinChart steps={chartSteps} seats={seats} names={names} current={index} swings={swings} onPick={go} />
          <p className="chances" data-testid="step-chances">
            {shown.chances.length > 0
              ? shown.chances.map((c, s) => (
                  <span key={s} style={{ color: seatColour(s) }}>
                    {seatName(names, s)}: {percent(c)}{" "}
                  </span>
                ))
              : "No estimate at this step."}
          </p>
          {swings.length > 0 && (
            <p className="swings">
              Biggest swings:{" "}
              {swings.map((swing) => (
                <button key={swing.index} className="link" data-testid="swing" onClick={() => go(swing.index)}>
                  step {swing.index + 1}: {seatName(names, swing.seat)} {percent(swing.from)} → {percent(swing.to)}
                </button>
              ))}
            </p>
          )}
        </>
      ) : (
        <p className="small" data-testid="chart-note">
          {!finished
            ? "The bots' estimates of each seat's chances are computed once the match is over."
            : estimates === WinEstimates.READY
              ? "The bots have no estimate of this game's positions."
              : "The bots are estimating each seat's chances…"}
        </p>
      )}
      <div className="match-body">
        <div className="board">
          {shown.view?.prompt?.text && <p className="prompt">{shown.view.prompt.text}</p>}
          {shown.view && (
            <Board view={shown.view} viewer={seat} names={names} actions={[]} selected={null} onSelect={() => undefined} />
          )}
          {outcome && <OutcomeTable outcome={outcome} names={names} viewer={seat} />}
        </div>
        <aside>
          <section className="events" data-testid="step-events">
            <h3>{shown.seat !== undefined ? `${seatName(names, shown.seat)}'s move` : "The setup"}</h3>
            {shown.events.length === 0 && <p className="small">Nothing a reader is told of happened here.</p>}
            <ol>
              {shown.events.map((text, i) => (
                <li key={i}>{text}</li>
              ))}
            </ol>
          </section>
        </aside>
      </div>
    </div>
  );
}
