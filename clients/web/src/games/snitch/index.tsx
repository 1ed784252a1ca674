// Catch the Golden Snitch: the pitch (its Zones by row and column, with the Players, the Quaffle and
// the Bludgers in each), the Snitch race (each Seeker's space and the Snitch's), the Coaches, and the
// viewer's hand, and the roll under way. A Zone, a race space or a card is clickable when a legal action
// names it; dice to re-roll are toggled on the roll (Rolls.tsx), Dice tokens to spend on their tray
// (Tokens.tsx).
import type { MouseEvent } from "react";
import { Snitch } from "../../gen/menagerie/snitch/v1/snitch_pb";
import type { Action, PlayerView, View, ZoneView } from "../../gen/menagerie/snitch/v1/snitch_pb";
import { seatName, targetProps, type BoardProps, type GameUI } from "../types";
import { BUILDING_KINDS, buildingAction, TeamBuildingBoard } from "./TeamBuilding";
import { dieTarget, RollSection, sets as rerollSets } from "./Rolls";
import { TokenTray, tokenSets } from "./Tokens";

type Props = BoardProps<View, Action>;

// Actions whose `player` is one of the deciding Coach's own Players (their messages say "your Player"; a
// Team's index is its Coach's seat).
const OWN_PLAYER = new Set(["passQuaffle", "shoot", "steal", "beat", "recover", "react", "removeStunned"]);

/** The Pitch Player an action names: by its Team and index, or the deciding Coach's own by its index. */
function playerTarget(action: Action, fields: Record<string, unknown>, viewer?: number): string | undefined {
  if (typeof fields.player !== "number") return undefined;
  if (typeof fields.team === "number") return `player:${fields.team}:${fields.player}`;
  return OWN_PLAYER.has(action.kind.case ?? "") && viewer !== undefined ? `player:${viewer}:${fields.player}` : undefined;
}

/** The board element an action names: its Zone, race space, card, die or Pitch Player (its own fields). */
function target(action: Action, view: View | undefined, viewer?: number): string | undefined {
  const die = dieTarget(action, view);
  if (die) return die;
  const fields = (action.kind.value ?? {}) as Record<string, unknown>;
  if (typeof fields.zone === "string" && fields.zone) return `zone:${fields.zone}`;
  if (typeof fields.space === "number" && action.kind.case === "placeRaceToken") return `space:${fields.space}`;
  if (typeof fields.card === "number") return `card:${fields.card}`;
  return playerTarget(action, fields, viewer);
}

const TEAM_COLOURS = ["#b22222", "#1f4e9c"];

// A Pitch Player by the engine's short code and name ("C1", "Chaser 1"): the words the actions and events use.
function PlayerChip({ player, props }: { player: PlayerView; props: Props }) {
  const t = targetProps(props, `player:${player.team}:${player.index}`);
  // A chip lies in its Zone, itself clickable: the chip's click narrows to the Player alone.
  const select = t.onClick;
  const onClick = select
    ? (event: MouseEvent) => {
        event.stopPropagation();
        select();
      }
    : undefined;
  return (
    <span
      className={`chip ${player.stunned ? "stunned" : ""} ${t.className}`}
      onClick={onClick}
      data-target={t["data-target"]}
      style={{ borderColor: TEAM_COLOURS[player.team % 2] }}
      data-label={player.label}
      title={`${player.label} (${player.name})${player.stunned ? " (stunned)" : ""}${player.hasQuaffle ? " — has the Quaffle" : ""}`}
    >
      {player.code}
      {player.hasQuaffle ? "●" : ""}
    </span>
  );
}

function Zone({ zone, players, props }: { zone: ZoneView; players: PlayerView[]; props: Props }) {
  const t = targetProps(props, `zone:${zone.id}`);
  const owner = zone.scoringAreaOf ?? zone.deploymentZoneOf;
  return (
    <div
      className={`zone ${t.className} ${zone.orange ? "orange" : ""}`}
      onClick={t.onClick}
      data-target={t["data-target"]}
      style={{
        gridRow: zone.row + 1,
        gridColumn: zone.column + 1,
        background:
          owner !== undefined ? `linear-gradient(${TEAM_COLOURS[owner % 2]}26, ${TEAM_COLOURS[owner % 2]}26), #e9f3e3` : undefined,
      }}
    >
      <div className="small">
        {zone.name}
        {zone.scoringAreaOf !== undefined ? " · hoops" : ""}
      </div>
      <div>
        {players.map((p) => (
          <PlayerChip key={`${p.team}-${p.index}`} player={p} props={props} />
        ))}
      </div>
      <div className="small">
        {zone.quaffle && players.every((p) => !p.hasQuaffle) ? "Quaffle (loose) " : ""}
        {zone.bludgerNames.map((name) => (
          <span key={name} className="bludger" data-label={name}>
            {name}{" "}
          </span>
        ))}
      </div>
    </div>
  );
}

function Race({ view, props }: { view: View; props: Props }) {
  const race = view.race;
  if (!race) return null;
  const spaces = Array.from({ length: race.spaces + 1 }, (_, i) => i);
  return (
    <section className="race" data-testid="snitch-race">
      <h4>The Snitch race</h4>
      <div className="cells">
        {spaces.map((i) => {
          const t = targetProps(props, `space:${i}`);
          const seekers = race.seekers.map((space, seat) => (space === i ? seat : -1)).filter((s) => s >= 0);
          const tokens = race.tokens.filter((token) => token.space === i);
          return (
            <span key={i} className={`cell ${t.className}`} onClick={t.onClick} title={tokens.map((x) => x.kind).join(", ")}>
              <small>{i}</small>
              {race.snitch === i && <b className="snitch-ball">✦</b>}
              {seekers.map((seat) => (
                <span key={seat} className="dot" style={{ background: TEAM_COLOURS[seat % 2] }} />
              ))}
              {tokens.length > 0 && <span className="small">•{tokens.length}</span>}
            </span>
          );
        })}
      </div>
      <p className="small">
        Snitch on {race.snitch}; Seekers on {race.seekers.join(" and ")}
        {race.ahead !== undefined ? ` · ${seatName(props.names, race.ahead)} is ahead` : ""}
      </p>
    </section>
  );
}

function SnitchBoard(props: Props) {
  const { view } = props;
  // Build Your Team (mode "advanced"): no Team is on the Pitch yet, so the board is the team-building one.
  if (BUILDING_KINDS.includes(view.prompt?.kind ?? "")) return <TeamBuildingBoard {...props} />;
  const rows = Math.max(1, ...view.zones.map((z) => z.row + 1));
  const columns = Math.max(1, ...view.zones.map((z) => z.column + 1));
  return (
    <div className="snitch-board">
      <p className="small">
        Game Sequence {view.sequence} · {seatName(props.names, view.attacking)} attacks
        {view.decisionDetail ? ` · ${view.decisionDetail}` : ""}
      </p>
      <div className="coaches">
        {view.coaches.map((c) => (
          <span key={c.seat} className="coach" style={{ borderColor: TEAM_COLOURS[c.seat % 2] }}>
            <b>{seatName(props.names, c.seat)}</b> · {c.house} · goals {c.goals} ({c.celebrated} celebrated) · tempo{" "}
            {c.tempo} · hand {c.handSize}
          </span>
        ))}
      </div>
      <div
        className="pitch"
        data-testid="snitch-pitch"
        style={{ gridTemplateRows: `repeat(${rows}, auto)`, gridTemplateColumns: `repeat(${columns}, 1fr)` }}
      >
        {view.zones.map((zone) => (
          <Zone key={zone.id} zone={zone} players={view.players.filter((p) => p.zone === zone.id)} props={props} />
        ))}
      </div>
      <TokenTray {...props} />
      <RollSection {...props} />
      <Race view={view} props={props} />
      {view.hand.length > 0 && (
        <section className="hand">
          <h4>Your hand</h4>
          <div className="cards">
            {view.hand.map((card) => {
              const t = targetProps(props, `card:${card.id}`);
              return (
                <div key={card.id} className={`tactical ${t.className}`} onClick={t.onClick} data-target={t["data-target"]}>
                  <b>{card.name}</b> <small>#{card.id}</small>
                  {card.blocks.map((block, i) => (
                    <div key={i} className="small">
                      {block}
                    </div>
                  ))}
                  {card.intrepid && <div className="small">Intrepid: {card.intrepid}</div>}
                </div>
              );
            })}
          </div>
        </section>
      )}
    </div>
  );
}

export const snitch: GameUI<View, Action> = {
  id: "snitch",
  service: Snitch,
  Board: SnitchBoard,
  target,
  onBoard: buildingAction,
  sets: (actions, view) => [...tokenSets(actions), ...rerollSets(actions, view)],
};
