// Hash routes: #/ lobby, #/queue/<ticket>, #/match/<game>/<match>, #/watch/<game>/<match>, #/leaderboard/<game>,
// #/rules/<game>/<mode> (?section=<anchor> or ?rule=<name>: the section to show; ?reading=<anchor>: the RULES.md
// reading to open),
// #/replay/<game>/<match> (?seat=<n>: that seat's views; ?step=<version>: the step to open at).
// A match page takes ?board=generic: the generic board (the one a game without its own gets) for any game.
import { useEffect, useState } from "react";
import { HomePage } from "./pages/Home";
import { LeaderboardPage } from "./pages/Leaderboard";
import { MatchPage } from "./pages/Match";
import { QueuePage } from "./pages/Queue";
import { ReplayPage } from "./pages/Replay";
import { RulesPage } from "./pages/Rules";

function useHash(): string {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const changed = () => setHash(window.location.hash);
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return hash;
}

function Page({ hash }: { hash: string }) {
  const [path, query = ""] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  const params = new URLSearchParams(query);
  switch (parts[0]) {
    case "queue":
      return <QueuePage key={parts[1]} ticketId={parts[1]} table={params.get("table") ?? undefined} code={params.get("code") ?? undefined} />;
    case "match":
      return <MatchPage key={hash} game={parts[1]} matchId={parts[2]} spectate={false} board={params.get("board") ?? undefined} />;
    case "watch":
      return <MatchPage key={hash} game={parts[1]} matchId={parts[2]} spectate={true} board={params.get("board") ?? undefined} />;
    case "replay": {
      const seat = params.get("seat"), step = params.get("step");
      return (
        <ReplayPage
          key={`${parts[1]}/${parts[2]}/${seat ?? ""}`}
          game={parts[1]}
          matchId={parts[2]}
          seat={seat === null || seat === "" ? undefined : Number(seat)}
          step={step && /^\d+$/.test(step) ? BigInt(step) : undefined}
          board={params.get("board") ?? undefined}
        />
      );
    }
    case "leaderboard":
      return <LeaderboardPage game={parts[1]} />;
    case "rules":
      return (
        <RulesPage
          key={hash}
          game={parts[1]}
          mode={parts[2] ?? ""}
          rule={params.get("rule") ?? undefined}
          section={params.get("section") ?? undefined}
          reading={params.get("reading") ?? undefined}
        />
      );
    default:
      return <HomePage />;
  }
}

export function App() {
  const hash = useHash();
  return (
    <>
      <header className="top">
        <a href="#/">
          <h1>Menagerie</h1>
        </a>
      </header>
      <main>
        <Page hash={hash} />
      </main>
    </>
  );
}
