// A match, played from a seat or watched as a spectator: Watch for the view and the events, the
// seat's legal actions from ListLegalActions, the turn timers, and the results at the end.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { bearer, Code, ConnectError, describeError, gameClient, lobby, matches } from "../api";
import type { DecisionClock, Outcome, Prompt } from "../gen/menagerie/common/v1/common_pb";
import type { GetRulesResponse } from "../gen/menagerie/common/v1/matches_pb";
import { gameUI } from "../games";
import { seatName, seatNumber, type LegalAction } from "../games/types";
import { initialPicks, setIndexes, toggleable, toggled, type SetChoice } from "../games/sets";
import { Actions } from "../components/Actions";
import { SetChoiceBar } from "../components/SetChoiceBar";
import { Countdown } from "../components/Countdown";
import { OutcomeTable } from "../components/Outcome";
import { EventLog } from "../components/EventLog";
import { LiveChart } from "../components/LiveChart";
import { replayHref } from "./Replay";
import { refusalOf, refusedRule, RefusalLinks, type Refusal } from "./Rules";
import { autoPassOf, currentPlayer, rememberSeat, seatOf, setAutoPass, type Seat } from "../session";

interface Props {
  game: string;
  matchId: string;
  spectate: boolean;
  /** "generic": the generic board even for a game with a board of its own (a plain view of the match). */
  board?: string;
}

interface Shown {
  view: { prompt?: Prompt; outcome?: Outcome };
  viewVersion: bigint;
  /** The match version the view is at (for tests and the curious: data-version on the page). */
  version: bigint;
  clock?: DecisionClock;
  receivedAt: number;
}

const RETRY_MS = 1000;
// What a listing of the seat's choices may meet for a moment (a service restarting, a loaded machine, a
// rate limit): it is asked again, since nothing else would ask while the match waits for this seat.
const PASSING_TROUBLE = [Code.Unavailable, Code.DeadlineExceeded, Code.ResourceExhausted, Code.Aborted];

/** The seat of this match: kept from the ticket, or a fresh token from the lobby (reload, another tab). */
async function findSeat(game: string, matchId: string): Promise<Seat | undefined> {
  const kept = seatOf(matchId);
  if (kept) return kept;
  const player = currentPlayer();
  if (!player) return undefined;
  try {
    const reply = await lobby.resumeSeat({ matchId }, { headers: bearer(player.token), timeoutMs: 10_000 });
    if (!reply.seating) return undefined;
    const seat = { game, matchId, seat: reply.seating.seat, token: reply.seating.seatToken };
    rememberSeat(seat);
    return seat;
  } catch {
    return undefined; // no seat there (or the lobby cannot resume yet): watch as a spectator
  }
}

/** Takes the seat back from the bot that played it while the player was away (nothing if it was not left). */
async function takeBack(game: string, seat: Seat): Promise<void> {
  try {
    await matches(game).returnToSeat({ matchId: seat.matchId }, { headers: bearer(seat.token), timeoutMs: 10_000 });
  } catch {
    // a game service without ReturnToSeat yet, or a match already over: the page plays on as it can
  }
}

export function MatchPage({ game, matchId, spectate, board }: Props) {
  const ui = useMemo(() => gameUI(game, board), [game, board]);
  const client = useMemo(() => gameClient<Shown["view"], unknown>(ui.service, ui.perGame ? game : undefined), [ui, game]);
  const [seat, setSeat] = useState<Seat | undefined | null>(null); // null: still looking
  const [shown, setShown] = useState<Shown | null>(null);
  const [events, setEvents] = useState<string[]>([]);
  const [notice, setNotice] = useState<string>("");
  const [error, setError] = useState<string>("");
  const [actions, setActions] = useState<LegalAction<unknown>[]>([]);
  const [actionsVersion, setActionsVersion] = useState<bigint>(0n);
  const [selected, setSelected] = useState<string | null>(null);
  // The choices that are sets of board parts, read with the actions, and the parts toggled on the board.
  const [setChoices, setSetChoices] = useState<SetChoice[]>([]);
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  // Moves the game service has answered (taken or refused), shown as data-answered: a script that clicks
  // waits for its own move's answer, not for a new version, which another seat's move also brings.
  const [answered, setAnswered] = useState(0);
  // Why the last listing of the seat's choices failed, while it is asked again; bumping listAgain asks.
  const [listing, setListing] = useState("");
  const [listAgain, setListAgain] = useState(0);
  const listTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(listTimer.current), []);
  const [away, setAway] = useState(false);
  const [names, setNames] = useState<Map<number, string>>(new Map());
  const [mode, setMode] = useState("");
  // The rules page of this mode: a refusal links to the section that explains its rule and to the rule's reading.
  const [rules, setRules] = useState<GetRulesResponse | null>(null);
  const [refusal, setRefusal] = useState<Refusal | undefined>();
  // The player's setting: when the engine's only legal action passes, take it at once (no click, no timer).
  const playerId = currentPlayer()?.playerId ?? "";
  const [autoPass, setAutoPassState] = useState(() => autoPassOf(playerId));
  const [autoPassed, setAutoPassed] = useState(0);
  const autoPassedVersion = useRef<bigint>(-1n);
  const versionRef = useRef<bigint>(0n);
  const newestListedRef = useRef<bigint>(0n);
  const finishedRef = useRef(false);
  const shownRef = useRef<Shown | null>(null);
  shownRef.current = shown;

  useEffect(() => {
    if (spectate) setSeat(undefined);
    else
      void findSeat(game, matchId).then(async (found) => {
        if (found) await takeBack(game, found); // opening the page of one's seat is coming back to it
        setSeat(found);
      });
  }, [game, matchId, spectate]);

  const token = seat?.token ?? currentPlayer()?.token ?? "";

  // Who sits where (display names), once.
  useEffect(() => {
    if (!token) return;
    matches(game)
      .getMatch({ matchId }, { headers: bearer(token), timeoutMs: 10_000 })
      .then((reply) => {
        setNames(new Map((reply.match?.seats ?? []).map((s) => [s.seat, s.displayName])));
        setMode(reply.match?.config?.mode ?? "");
      })
      .catch(() => undefined);
  }, [game, matchId, token]);

  useEffect(() => {
    if (!mode) return;
    matches(game)
      .getRules({ mode }, { timeoutMs: 10_000 })
      .then(setRules)
      .catch(() => undefined); // a game service without rules: refusals are shown without a link
  }, [game, mode]);

  // The Watch stream: every event since the start, then each new one with the view; reopened when it drops.
  useEffect(() => {
    if (!client || seat === null || !token) return;
    const abort = new AbortController();
    versionRef.current = 0n;
    newestListedRef.current = 0n;
    setEvents([]);
    const run = async () => {
      while (!abort.signal.aborted) {
        try {
          const stream = client.watch(
            { matchId, fromVersion: versionRef.current },
            { headers: bearer(token), signal: abort.signal },
          );
          for await (const reply of stream) {
            versionRef.current = reply.version > versionRef.current ? reply.version : versionRef.current;
            const texts = reply.events.map((e) => e.header?.text ?? "").filter((t) => t);
            if (texts.length) setEvents((old) => [...old, ...texts]);
            if (reply.timeout) setNotice(reply.timeout.text);
            if (reply.view) {
              finishedRef.current = (reply.view.outcome?.seats.length ?? 0) > 0;
              setShown({
                view: reply.view,
                viewVersion: reply.viewVersion,
                version: reply.version,
                clock: reply.clock,
                receivedAt: performance.now(),
              });
            }
          }
          if (finishedRef.current) return;
        } catch (err) {
          if (abort.signal.aborted) return;
          if (err instanceof ConnectError && [Code.NotFound, Code.PermissionDenied, Code.Unauthenticated].includes(err.code)) {
            setError(describeError(err));
            return;
          }
        }
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    };
    void run();
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, matchId, seat, token]);

  // The seat's legal actions for the view shown (an empty list when it has nothing to decide).
  const refreshActions = useCallback(async () => {
    if (!client || !seat) return;
    try {
      const reply = await client.listLegalActions({ matchId }, { headers: bearer(seat.token), timeoutMs: 10_000 });
      // Listings in flight answer in any order: one older than the newest listed, or than the view shown
      // (whose own listing, or whose "nothing to decide", stands), is stale.
      const shownVersion = shownRef.current?.viewVersion ?? 0n;
      if (reply.viewVersion < newestListedRef.current || reply.viewVersion < shownVersion) return;
      newestListedRef.current = reply.viewVersion;
      const view = shownRef.current?.view;
      const legal = reply.actions.map((action, index) => ({
        index,
        action,
        label: reply.labels[index],
        target: ui.target?.(action, view, seat.seat),
      }));
      const choices = view && ui.sets ? ui.sets(legal, view, seat.seat) : [];
      setActions(legal);
      setSetChoices(choices);
      setPicked(initialPicks(choices));
      setActionsVersion(reply.viewVersion);
      setSelected(null);
      setListing("");
    } catch (err) {
      if (err instanceof ConnectError && PASSING_TROUBLE.includes(err.code)) {
        setListing(`Could not list your choices (${describeError(err)}); asking again.`);
        window.clearTimeout(listTimer.current);
        listTimer.current = window.setTimeout(() => setListAgain((n) => n + 1), RETRY_MS);
      } else {
        setError(describeError(err));
      }
    }
  }, [client, seat, matchId, ui]);

  useEffect(() => {
    if (!shown || !seat) return;
    const prompt = shown.view.prompt;
    const mine = prompt && (prompt.must.includes(seat.seat) || prompt.may.includes(seat.seat));
    if (mine && !away) {
      void refreshActions();
    } else {
      setActions([]);
      setListing(""); // nothing to list: a failed listing is not asked again
      window.clearTimeout(listTimer.current);
    }
  }, [shown, seat, refreshActions, away, listAgain]);

  /** Submits the listed action `index`; true when the game took it (a refusal is shown, and the choices listed again). */
  const act = async (index: number): Promise<boolean> => {
    if (!client || !seat) return false;
    const chosen = actions[index];
    setBusy(true);
    setError("");
    setRefusal(undefined);
    setNotice("");
    // Cleared before the move is sent, never after its reply: the Watch stream's next view may list the next
    // choices before SubmitAction's reply arrives, and a clear after the reply would wipe them for good.
    setActions([]);
    try {
      await client.submitAction(
        { matchId, expectedVersion: actionsVersion, idempotencyKey: crypto.randomUUID(), action: chosen.action },
        { headers: bearer(seat.token), timeoutMs: 10_000 },
      );
      return true;
    } catch (err) {
      setError(describeError(err));
      // A refusal names its rule ("Turn order: …"): link to the rules page's section and the rule's reading.
      const rule = err instanceof ConnectError && err.code === Code.FailedPrecondition ? refusedRule(err.rawMessage, rules) : undefined;
      setRefusal(rule && rules ? refusalOf(game, mode, rules, rule) : undefined);
      void refreshActions(); // the game moved on (a timeout bot, another seat): choose again from the new view
      return false;
    } finally {
      setBusy(false);
      setAnswered((n) => n + 1); // with the refusal, if any, in the same render
    }
  };

  // "Leave match": a bot plays the seat from its next decision on, at once; "Take my seat back" returns to it.
  const leave = async (leaving: boolean) => {
    if (!seat) return;
    setError("");
    try {
      const request = { matchId }, options = { headers: bearer(seat.token), timeoutMs: 10_000 };
      if (leaving) await matches(game).leaveSeat(request, options);
      else await takeBack(game, seat);
      setAway(leaving);
      setActions([]);
      setNotice(leaving ? "You left: a bot plays your seat until you take it back." : "");
      if (!leaving) void refreshActions();
    } catch (err) {
      setError(describeError(err));
    }
  };

  // Pass automatically: once per decision (its view version), when the one legal action is a pass.
  useEffect(() => {
    if (!autoPass || busy || actions.length !== 1 || !actions[0].label.passes) return;
    if (autoPassedVersion.current === actionsVersion) return;
    autoPassedVersion.current = actionsVersion;
    // Counted once the game took the pass: one refused as stale (the game moved on) passed nothing.
    void act(0).then((taken) => {
      if (!taken) return;
      setAutoPassed((n) => n + 1);
      setNotice(`Passed automatically: ${actions[0].label.text}`);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actions, actionsVersion, autoPass, busy]);

  const toggleAutoPass = (on: boolean) => {
    setAutoPass(playerId, on);
    setAutoPassState(on);
  };

  const view = shown?.view;
  const outcome = view?.outcome && view.outcome.seats.length > 0 ? view.outcome : undefined;
  const Board = ui.Board;
  // Choices the board draws as its own cards are left out of the list (it says how many are on the board),
  // and so are the actions of set choices (the parts are toggled on the board and confirmed in their bar).
  const sets = actions.length ? setChoices : []; // a submit clears the actions: their set choices go with them
  const inSets = setIndexes(sets);
  const listed = actions.filter((a) => !inSets.has(a.index) && !(view && ui.onBoard?.(a.action, view)));
  const pickable = new Set(sets.flatMap((c) => [...toggleable(c)]));
  return (
    <div
      className="match"
      data-testid="match"
      data-finished={outcome ? "yes" : "no"}
      data-version={shown ? String(shown.version) : "0"}
      data-events={events.length}
      data-auto-passed={autoPassed}
      data-answered={answered}
    >
      <header className="match-head">
        <a href="#/">← Lobby</a>
        {mode && (
          <>
            {" · "}
            <a data-testid="match-rules-link" href={`#/rules/${game}/${mode}`} target="_blank" rel="noreferrer">
              Rules
            </a>
          </>
        )}
        <h2>
          {game} · match <code>{matchId.slice(0, 8)}</code>{" "}
          {seat ? (
            <span className="badge" data-testid="seat-badge">
              {seatNumber(seat.seat)}
              {names.has(seat.seat) ? ` · ${seatName(names, seat.seat)}` : ""}
            </span>
          ) : (
            <span className="badge">spectator</span>
          )}{" "}
          {seat && !outcome && (
            <button data-testid="leave" onClick={() => void leave(!away)}>
              {away ? "Take my seat back" : "Leave match"}
            </button>
          )}
        </h2>
      </header>
      {seat === null && <p>Finding your seat…</p>}
      {seat !== null && !token && (
        <p className="error">
          Enter the <a href="#/">lobby</a> as a guest first: watching needs a player token.
        </p>
      )}
      {view?.prompt?.text && (
        <p className="prompt" data-testid="prompt">
          {view.prompt.title && <strong className="prompt-title">{view.prompt.title}: </strong>}
          {view.prompt.text}
        </p>
      )}
      {shown && <Countdown clock={shown.clock} receivedAt={shown.receivedAt} names={names} viewer={seat?.seat} />}
      {notice && <p className="notice">{notice}</p>}
      {listing && (
        <p className="notice" data-testid="listing-retry">
          {listing}
        </p>
      )}
      {error && (
        <p className="error" data-testid="error">
          {error}{" "}
          {refusal && <RefusalLinks refusal={refusal} />}
        </p>
      )}
      {spectate && token && <LiveChart game={game} matchId={matchId} token={token} names={names} over={!!outcome} />}
      {outcome && <OutcomeTable outcome={outcome} names={names} viewer={seat?.seat} />}
      {outcome && (
        <p>
          <a data-testid="replay-link" href={replayHref(game, matchId)}>
            Replay this match, with the bots' estimate of each seat's chances
          </a>
        </p>
      )}
      <div className="match-body">
        <div className="board" data-testid="board">
          {view ? (
            <Board
              view={view}
              viewer={seat?.seat}
              names={names}
              actions={actions}
              selected={selected}
              onSelect={setSelected}
              onAct={(index) => void act(index)}
              busy={busy}
              pickable={pickable}
              picked={picked}
              onPick={(key) => setPicked((old) => toggled(old, key))}
            />
          ) : (
            <p>Loading the board…</p>
          )}
        </div>
        <aside>
          {seat && (
            <label className="small setting">
              <input
                type="checkbox"
                data-testid="auto-pass"
                checked={autoPass}
                onChange={(e) => toggleAutoPass(e.target.checked)}
              />{" "}
              Pass automatically when passing is the only choice
            </label>
          )}
          <Actions
            actions={listed}
            onBoard={actions.length - listed.length - inSets.size}
            selected={selected}
            busy={busy}
            onAct={act}
            onClear={() => setSelected(null)}
          >
            {sets.length > 0 && (
              <SetChoiceBar
                choices={sets}
                actions={actions}
                picked={picked}
                busy={busy}
                onAct={(index) => void act(index)}
                onClear={() => setPicked([])}
              />
            )}
          </Actions>
          <EventLog events={events} />
        </aside>
      </div>
    </div>
  );
}
