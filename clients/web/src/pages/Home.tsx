// The lobby page: register as a guest, the games and their modes, queue or private tables,
// matches in progress (yours to resume, others' to watch).
import { useEffect, useState } from "react";
import { bearer, describeError, lobby, matches } from "../api";
import type { GameListing, MyMatch } from "../gen/menagerie/lobby/v1/lobby_pb";
import type { MatchSummary } from "../gen/menagerie/common/v1/common_pb";
import { MatchStatus } from "../gen/menagerie/common/v1/common_pb";
import { currentPlayer, forgetPlayer, register, rememberTicket, renamePlayer, type Player } from "../session";
import { seatNumber } from "../games/types";
import { RecentReplays } from "../components/RecentReplays";

function navigate(hash: string): void {
  window.location.hash = hash;
}

function Register({ onDone }: { onDone: (p: Player) => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState("");
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      onDone(await register(name.trim()));
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <form className="register" onSubmit={submit}>
      <h2>Play as a guest</h2>
      <label>
        Your name{" "}
        <input data-testid="guest-name" value={name} maxLength={32} onChange={(e) => setName(e.target.value)} />
      </label>{" "}
      <button data-testid="register" disabled={!name.trim()}>
        Enter the lobby
      </button>
      {error && <p className="error">{error}</p>}
    </form>
  );
}

// Turn timers a table may choose (seconds; 0: the game service's default). The README suggests 5 min for a first Snitch game.
const TURN_TIMERS: [number, string][] = [
  [0, "the game's default"],
  [30, "30 s"],
  [60, "1 min"],
  [120, "2 min"],
  [300, "5 min (a first game)"],
  [600, "10 min"],
];
// Seconds an mcts bot thinks per decision (0: the lobby's default, 1 s); at most 10 and at most the turn timer.
const BOT_BUDGETS: [number, string][] = [
  [0, "1 s"],
  [2, "2 s"],
  [5, "5 s"],
  [10, "10 s"],
];

/** Who plays: the guest's name, renamed in place (the same player, its matches kept), or another guest. */
function Who({ player, onChange }: { player: Player; onChange: (p: Player | null) => void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(player.name);
  const [error, setError] = useState("");
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      onChange(await renamePlayer(player, name.trim()));
      setEditing(false);
      setError("");
    } catch (err) {
      setError(describeError(err));
    }
  };
  if (editing) {
    return (
      <form className="who" onSubmit={save}>
        Your name{" "}
        <input data-testid="rename-input" value={name} maxLength={32} onChange={(e) => setName(e.target.value)} />{" "}
        <button data-testid="rename-save" disabled={!name.trim()}>
          Rename
        </button>{" "}
        <button type="button" className="link" onClick={() => setEditing(false)}>
          cancel
        </button>
        {error && <span className="error"> {error}</span>}
      </form>
    );
  }
  return (
    <p className="who">
      Playing as <b data-testid="player-name">{player.name}</b>{" "}
      <button className="link" data-testid="rename" onClick={() => setEditing(true)}>
        rename
      </button>{" "}
      ·{" "}
      <button
        className="link"
        onClick={() => {
          forgetPlayer();
          onChange(null);
        }}
      >
        play as another guest
      </button>
    </p>
  );
}

function GameCard({ listing, player }: { listing: GameListing; player: Player }) {
  const [mode, setMode] = useState(listing.modes[0]?.mode ?? "");
  const info = listing.modes.find((m) => m.mode === mode) ?? listing.modes[0];
  const [seats, setSeats] = useState(info?.minSeats ?? 2);
  const [botLevel, setBotLevel] = useState("greedy");
  const [wait, setWait] = useState(5);
  const [turnTimer, setTurnTimer] = useState(0);
  const [botBudget, setBotBudget] = useState(0);
  const [tableId, setTableId] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  // The mode's options (the game's own, e.g. difficulty), each at its default until changed.
  const [options, setOptions] = useState<Record<string, string>>({});
  const headers = bearer(player.token);
  const chooseMode = (value: string) => {
    if (value !== mode) setOptions({}); // another mode: its own options, at their defaults
    setMode(value);
    const next = listing.modes.find((m) => m.mode === value);
    if (next) setSeats(Math.min(Math.max(seats, next.minSeats), next.maxSeats));
  };

  const queue = async () => {
    try {
      const reply = await lobby.createTicket(
        {
          game: listing.game,
          mode,
          options,
          minSeats: seats,
          maxSeats: seats,
          allowBots: true,
          botLevel,
          maxWaitSeconds: wait,
          turnTimerSeconds: turnTimer,
          botBudgetSeconds: botLevel === "mcts" ? botBudget : 0,
        },
        { headers, timeoutMs: 10_000 },
      );
      rememberTicket(reply.ticket!.ticketId);
      navigate(`#/queue/${reply.ticket!.ticketId}`);
    } catch (err) {
      setError(describeError(err));
    }
  };
  const createTable = async (withBots: boolean) => {
    try {
      const botSeats = withBots ? Array.from({ length: seats - 1 }, (_, i) => i + 1) : [];
      const reply = await lobby.createTable(
        {
          game: listing.game,
          mode,
          options,
          seats,
          botSeats,
          botLevel,
          turnTimerSeconds: turnTimer,
          botBudgetSeconds: botLevel === "mcts" ? botBudget : 0,
        },
        { headers, timeoutMs: 10_000 },
      );
      rememberTicket(reply.ticket!.ticketId);
      navigate(`#/queue/${reply.ticket!.ticketId}?table=${reply.tableId}&code=${reply.joinCode}`);
    } catch (err) {
      setError(describeError(err));
    }
  };
  const joinTable = async () => {
    try {
      const reply = await lobby.joinTable({ tableId: tableId.trim(), joinCode: code.trim() }, { headers, timeoutMs: 10_000 });
      rememberTicket(reply.ticket!.ticketId);
      navigate(`#/queue/${reply.ticket!.ticketId}`);
    } catch (err) {
      setError(describeError(err));
    }
  };

  return (
    <article className="game-card" data-testid={`game-${listing.game}`}>
      <h3>
        {listing.title} {!listing.available && <span className="badge">unavailable</span>}
      </h3>
      <div className="row">
        <label>
          Mode{" "}
          <select data-testid="mode" value={mode} onChange={(e) => chooseMode(e.target.value)}>
            {listing.modes.map((m) => (
              <option key={m.mode} value={m.mode}>
                {m.title || m.mode}
                {m.cooperative ? " (co-op)" : ""}
              </option>
            ))}
          </select>
        </label>
        <label>
          Seats{" "}
          <input
            data-testid="seats"
            type="number"
            min={info?.minSeats}
            max={info?.maxSeats}
            value={seats}
            onChange={(e) => setSeats(Number(e.target.value))}
          />
        </label>
        <label>
          Bots{" "}
          <select data-testid="bot-level" value={botLevel} onChange={(e) => setBotLevel(e.target.value)}>
            <option value="greedy">greedy</option>
            <option value="random">random</option>
            <option value="mcts">mcts (searches, about 1 s a move)</option>
            {(info?.botLevels.length ?? 0) > 0 && <option value="nearest">the level rated nearest the table's players</option>}
          </select>
        </label>
        {(info?.botLevels.length ?? 0) > 0 && (
          <span data-testid="bot-ratings" title="Each bot level's rating on the leaderboard's scale (issue 33's ladder)">
            {info!.botLevels.map((b) => `${b.level}${b.budgetSeconds ? ` ${b.budgetSeconds} s` : ""}: ${b.label}`).join("; ")}
          </span>
        )}
        {info?.botLevelsNote && <p data-testid="bot-levels-note">{info.botLevelsNote}</p>}
        {botLevel === "mcts" && (
          <label>
            Bot thinks{" "}
            <select data-testid="bot-budget" value={botBudget} onChange={(e) => setBotBudget(Number(e.target.value))}>
              {BOT_BUDGETS.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>{" "}
            a move
          </label>
        )}
        <label>
          Turn timer{" "}
          <select data-testid="turn-timer" value={turnTimer} onChange={(e) => setTurnTimer(Number(e.target.value))}>
            {TURN_TIMERS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <label>
          Wait for people{" "}
          <input type="number" min={1} max={600} value={wait} onChange={(e) => setWait(Number(e.target.value))} /> s
        </label>
      </div>
      {(info?.options.length ?? 0) > 0 && (
        <div className="row">
          {info!.options.map((option) => (
            <label key={option.name} title={option.name} data-testid={`option-label-${option.name}`}>
              {option.description || option.name}{" "}
              {option.allowedValues.length > 0 ? (
                <select
                  data-testid={`option-${option.name}`}
                  value={options[option.name] ?? option.defaultValue}
                  onChange={(e) => setOptions({ ...options, [option.name]: e.target.value })}
                >
                  {option.allowedValues.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  data-testid={`option-${option.name}`}
                  value={options[option.name] ?? option.defaultValue}
                  onChange={(e) => setOptions({ ...options, [option.name]: e.target.value })}
                />
              )}
            </label>
          ))}
        </div>
      )}
      <div className="row">
        <button data-testid="queue" onClick={queue}>
          Find a match
        </button>
        <button data-testid="table-bots" onClick={() => createTable(true)}>
          Private table with bots
        </button>
        <button data-testid="table" onClick={() => createTable(false)}>
          Private table for friends
        </button>
        <a href={`#/leaderboard/${listing.game}`}>Leaderboard</a>
        <a data-testid="rules-link" href={`#/rules/${listing.game}/${mode}`}>
          Rules
        </a>
      </div>
      <div className="row">
        <input placeholder="table id" value={tableId} onChange={(e) => setTableId(e.target.value)} />
        <input placeholder="join code" value={code} onChange={(e) => setCode(e.target.value)} />
        <button disabled={!tableId || !code} onClick={joinTable}>
          Join a table
        </button>
      </div>
      {error && <p className="error">{error}</p>}
    </article>
  );
}

function MyMatches({ player }: { player: Player }) {
  const [mine, setMine] = useState<MyMatch[]>([]);
  useEffect(() => {
    lobby
      .listMyMatches({}, { headers: bearer(player.token), timeoutMs: 10_000 })
      .then((reply) => setMine(reply.matches))
      .catch(() => setMine([])); // a lobby without ListMyMatches yet
  }, [player]);
  if (mine.length === 0) return null;
  return (
    <section data-testid="my-matches">
      <h2>Your matches in progress</h2>
      <ul>
        {mine.map((m) => (
          <li key={m.matchId}>
            {m.game} ({m.mode}), {seatNumber(m.seat)} {m.myTurn && !m.away && <b>your turn</b>}
            {m.away && <i data-testid="away"> a bot plays your seat</i>}{" "}
            <a href={`#/match/${m.game}/${m.matchId}`}>Resume</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

function LiveMatches({ games, player }: { games: GameListing[]; player: Player }) {
  const [live, setLive] = useState<MatchSummary[]>([]);
  useEffect(() => {
    let stop = false;
    const load = async () => {
      const found: MatchSummary[] = [];
      for (const g of games.filter((g) => g.available)) {
        try {
          const reply = await matches(g.game).listMatches(
            { pageSize: 5, status: MatchStatus.ACTIVE, liveOnly: true }, // neither finished nor abandoned
            { headers: bearer(player.token), timeoutMs: 10_000 },
          );
          found.push(...reply.matches);
        } catch {
          // that game is down: nothing to watch there
        }
      }
      if (!stop) setLive(found);
    };
    void load();
    const timer = setInterval(load, 5000);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [games, player]);
  return (
    <section data-testid="live-matches">
      <h2>Watch a match</h2>
      {live.length === 0 && <p>No match in progress.</p>}
      <ul>
        {live.map((m) => (
          <li key={m.matchId}>
            {m.config?.game} ({m.config?.mode}): {m.seats.map((s) => s.displayName).join(", ")}{" "}
            <a data-testid="watch" href={`#/watch/${m.config?.game}/${m.matchId}`}>
              Watch
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function HomePage() {
  const [player, setPlayer] = useState<Player | null>(currentPlayer());
  const [games, setGames] = useState<GameListing[]>([]);
  const [error, setError] = useState("");
  useEffect(() => {
    lobby
      .listGames({}, { timeoutMs: 10_000 })
      .then((reply) => setGames(reply.games))
      .catch((err) => setError(describeError(err)));
  }, []);
  if (!player) return <Register onDone={setPlayer} />;
  return (
    <div className="home">
      <Who player={player} onChange={setPlayer} />
      {error && <p className="error">{error}</p>}
      <MyMatches player={player} />
      <h2>Games</h2>
      <div className="games">
        {games.map((g) => (
          <GameCard key={g.game} listing={g} player={player} />
        ))}
      </div>
      <LiveMatches games={games} player={player} />
      <RecentReplays games={games} player={player} />
    </div>
  );
}
