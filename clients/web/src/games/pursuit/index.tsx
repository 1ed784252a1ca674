// Pursuit (co-op dice): the beast track, the dice (yours and the beast's), each player's board with
// its actions (Ready / Set), health, shields and cards. Board rows and cards are clickable when a
// legal action names them. Keeping dice is a set choice: each die is toggled on the board (sets).
import { Pursuit } from "../../gen/menagerie/pursuit/v1/pursuit_pb";
import type { Action, Die, PlayerView, Reroll, View } from "../../gen/menagerie/pursuit/v1/pursuit_pb";
import { ActionName, CardKind, Color, Difficulty, Face } from "../../gen/menagerie/pursuit/v1/pursuit_pb";
import { enumWord, partProps, seatName, targetProps, type BoardProps, type GameUI, type LegalAction } from "../types";
import type { SetChoice } from "../sets";

type Props = BoardProps<View, Action>;

function target(action: Action, view: View | undefined, viewer?: number): string | undefined {
  const k = action.kind;
  switch (k.case) {
    case "contribute":
    case "playReroll":
    case "playDieCard":
    case "discard":
    case "playMuffliato":
    case "playProtego":
      return `card:${k.value.card}`;
    case "ready":
    case "set":
      return `board:${view?.active ?? viewer}:${k.value.action}`;
    case "activate":
      return `board:${k.value.seat}:${k.value.action}`;
    default:
      return undefined;
  }
}

// Letters, not emoji: they read the same in every font (a headless browser has no emoji font).
const FACE_ICON: Record<number, string> = {
  [Face.PROTECT]: "P",
  [Face.CAPTURE]: "C",
  [Face.DISTRACT]: "D",
  [Face.INSIGHT]: "I",
  [Face.WILD]: "✱",
  [Face.REACTION]: "!",
};
const faceName = (f: Face) => enumWord(Face[f], "");

/** What a rolled die counts as in a Reroll's fields: the teal die (keep_teal), or a black die by its face (keep). */
function dieCounts(die: Die): string {
  return die.color === Color.TEAL ? "teal" : `black:${die.face}`;
}

/** The dice a Reroll keeps, as its fields name them: black faces, and the teal die when keep_teal. */
function keptDice(reroll: Reroll): string[] {
  return [...reroll.keep.map((face) => `black:${face}`), ...(reroll.keepTeal ? ["teal"] : [])];
}

/** Keeping dice: every Reroll the server lists, each by the dice it keeps; the dice kept so far start picked. */
function sets(actions: LegalAction<Action>[], view: View): SetChoice[] {
  const options = actions.flatMap((a) => (a.action.kind.case === "reroll" ? [{ index: a.index, takes: keptDice(a.action.kind.value) }] : []));
  if (options.length < 2) return [];
  const parts = view.dice.map((die, i) => ({
    key: `die:${i}`,
    counts: dieCounts(die),
    name: `${faceName(die.face)}${die.color === Color.TEAL ? " (teal)" : ""}`,
  }));
  const initial = parts.filter((_, i) => view.kept[i]).map((p) => p.key);
  return [{ title: "Dice to keep (the others are rolled again)", parts, options, initial }];
}

type DieProps = { die: Die; kept?: boolean; toggle?: ReturnType<typeof partProps> };

function DieFace({ die, kept, toggle }: DieProps) {
  const { className: toggleClass = "", ...toggleRest } = toggle ?? {};
  return (
    <span
      className={`die ${die.color === Color.TEAL ? "teal" : "black"} ${kept ? "kept" : ""} ${toggleClass}`}
      title={faceName(die.face)}
      data-face={faceName(die.face)}
      data-kept={kept ? "yes" : "no"}
      {...toggleRest}
    >
      {FACE_ICON[die.face] ?? "?"}
      <small>{faceName(die.face)}</small>
    </span>
  );
}

function Track({ view }: { view: View }) {
  const track = view.track;
  if (!track?.beast) return null;
  const cells = Array.from({ length: track.length + 1 }, (_, i) => i);
  return (
    <section className="track" data-testid="beast-track">
      <h4>
        {track.beast.name} (level {track.beast.level})
      </h4>
      <div className="cells">
        <span className="cell end">escape</span>
        {cells.map((i) => (
          <span key={i} className={`cell ${i === track.position ? "beast" : ""} ${i === track.length ? "suitcase" : ""}`}>
            {i === track.position ? track.beast?.name.slice(0, 3) : i === track.length ? "case" : i}
          </span>
        ))}
      </div>
      <p className="small">{track.cardText}</p>
      <p className="small">
        Captured: {view.captured.map((id) => view.beastNames[id] ?? id).join(", ") || "none"} · escaped:{" "}
        {view.escaped.map((id) => view.beastNames[id] ?? id).join(", ") || "none"} ({view.escapesAllowed} allowed) · to
        come: {view.beastsToCome.map((b) => b.name).join(", ") || "none"}
      </p>
    </section>
  );
}

function PlayerBoard({ player, props }: { player: PlayerView; props: Props }) {
  const { view } = props;
  const active = view.active === player.seat;
  return (
    <section className={`pursuit-player ${active ? "active" : ""} ${player.seat === props.viewer ? "mine" : ""}`}>
      <header>
        <b>{seatName(props.names, player.seat)}</b> · {player.character?.name} · ♥ {player.health} health · {player.shields}{" "}
        shields · {player.handSize} cards
      </header>
      <table className="ready">
        <tbody>
          {(player.character?.ready ?? []).map((pattern) => {
            const t = targetProps(props, `board:${player.seat}:${pattern.action}`);
            const ready = player.ready.includes(pattern.action);
            const set = player.set.includes(pattern.action);
            return (
              <tr key={pattern.action} className={t.className} onClick={t.onClick} data-target={t["data-target"]}>
                <td>{pattern.name || enumWord(ActionName[pattern.action], "")}</td>
                <td>
                  {pattern.faces.map((f, i) => (
                    <span key={i} className="face">
                      {FACE_ICON[f]}
                    </span>
                  ))}
                </td>
                <td className="small">activated by {faceName(pattern.activatedBy)}</td>
                <td>{set ? "set" : ready ? "ready" : ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {player.hand.length > 0 && (
        <div className="cards">
          {player.hand.map((card) => {
            const t = targetProps(props, `card:${card.id}`);
            const info = view.cardBook.find((c) => c.kind === card.kind);
            return (
              <span key={card.id} className={`pursuit-card ${t.className}`} onClick={t.onClick} title={info?.text}>
                {info?.name ?? enumWord(CardKind[card.kind], "")}
                {card.kind === CardKind.DIE ? ` ${FACE_ICON[card.face] ?? ""}×${card.dice}` : ""}
              </span>
            );
          })}
        </div>
      )}
    </section>
  );
}

function PursuitBoard(props: Props) {
  const { view } = props;
  return (
    <div className="pursuit-board">
      <p className="small">
        Turn {view.turn} · {seatName(props.names, view.active)} is active · deck {view.deckSize} ·{" "}
        <span data-testid="difficulty">{enumWord(Difficulty[view.difficulty], "")}</span>
      </p>
      <Track view={view} />
      <section className="dice" data-testid="dice">
        <h4>
          Dice {view.rolls ? `(roll ${view.rolls} of ${view.rollLimit})` : ""}
        </h4>
        {view.dice.map((d, i) => (
          <DieFace key={i} die={d} kept={view.kept[i]} toggle={partProps(props, `die:${i}`)} />
        ))}
        {view.pool.length > 0 && (
          <span className="small">
            {" "}
            to assign: {view.pool.map((d, i) => <DieFace key={i} die={{ face: d.face, color: d.color } as Die} />)}
          </span>
        )}
      </section>
      {view.beastDice.length > 0 && (
        <section className="beast-dice">
          <h4>The beast rolled</h4>
          {view.beastDice.map((d, i) => (
            <span key={i} className={view.ignored.includes(i) ? "ignored" : ""}>
              <DieFace die={d} /> <small>{view.beastDieEffects[i]}</small>
            </span>
          ))}
        </section>
      )}
      <div className="players">
        {view.players.map((p) => (
          <PlayerBoard key={p.seat} player={p} props={props} />
        ))}
      </div>
    </div>
  );
}

export const pursuit: GameUI<View, Action> = { id: "pursuit", service: Pursuit, Board: PursuitBoard, target, sets };
