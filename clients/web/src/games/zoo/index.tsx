// Fantasy Zoo: each player's row of enclosure cards (top and bottom enclosures with their animals),
// the three values and the score; the viewer's hand, picks and goals. Cards are clickable when a
// legal action names them.
import { Zoo } from "../../gen/menagerie/zoo/v1/zoo_pb";
import type { Action, Card, Enclosure, PlacedCard, PlayerZoo, View } from "../../gen/menagerie/zoo/v1/zoo_pb";
import { EnclosureType, Habitat } from "../../gen/menagerie/zoo/v1/zoo_pb";
import { enumWord, seatName, targetProps, type BoardProps, type GameUI } from "../types";

type Props = BoardProps<View, Action>;

function target(action: Action): string | undefined {
  switch (action.kind.case) {
    case "pick":
    case "build":
    case "place":
    case "keep":
      return `card:${action.kind.value.card}`;
    case "chooseReward":
      return `goal:${action.kind.value.goal}`;
    case "chooseSecretGoal":
      return `secret:${action.kind.value.goal}`;
    default:
      return undefined;
  }
}

const typeName = (t: EnclosureType) => enumWord(EnclosureType[t], "");
const habitatName = (h: Habitat) => enumWord(Habitat[h], "");

function CardFace({ card, props, effect }: { card: Card; props: Props; effect?: string }) {
  const t = targetProps(props, `card:${card.id}`);
  const animal = card.animal;
  const enc = card.enclosures;
  return (
    <div className={`zoo-card ${t.className}`} onClick={t.onClick} data-target={t["data-target"]} title={effect}>
      <div className={`animal habitat-${habitatName(animal?.habitat ?? 0)}`}>
        <b>{animal?.name}</b> <small>#{card.id}</small>
        <div className="small">
          {habitatName(animal?.habitat ?? 0)}
          {animal?.size === 2 ? " · large" : ""}
        </div>
        {effect && <div className="effect">{effect}</div>}
      </div>
      {enc && (
        <div className="enc-side">
          <span className={`enc type-${typeName(enc.top)}`}>{typeName(enc.top)}</span>
          <span className={`enc type-${typeName(enc.bottom)}`}>{typeName(enc.bottom)}</span>
        </div>
      )}
    </div>
  );
}

function EnclosureBox({ enclosure }: { enclosure?: Enclosure }) {
  if (!enclosure) return <div className="enclosure empty" />;
  return (
    <div className={`enclosure type-${typeName(enclosure.type)}`}>
      <div className="small">{typeName(enclosure.type)}</div>
      {enclosure.animals.map((a, i) => (
        <div key={i} className="resident">
          {a.animal?.name}
          {enclosure.large ? " (large)" : ""}
        </div>
      ))}
    </div>
  );
}

function Row({ zoo, props }: { zoo: PlayerZoo; props: Props }) {
  const row = [...zoo.row].sort((a: PlacedCard, b: PlacedCard) => a.position - b.position);
  const v = zoo.values;
  return (
    <section className={`zoo-row ${zoo.seat === props.viewer ? "mine" : ""}`} data-testid="zoo-row">
      <header>
        <b>{seatName(props.names, zoo.seat)}</b>
        <span className="values">
          <span className="value dangerous" title="Dangerous">
            ⚔ {v?.dangerous ?? 0}
          </span>
          <span className="value cute" title="Cute">
            ♥ {v?.cute ?? 0}
          </span>
          <span className="value rare" title="Rare">
            ★ {v?.rare ?? 0}
          </span>
          <span className="score" title="Score: the product of the two lower values">
            = {zoo.score}
          </span>
        </span>
        <span className="small">
          {zoo.animals} animals · hand {zoo.handSize} · {zoo.finished ? "finished" : ""}
        </span>
      </header>
      <div className="enclosures">
        {row.map((placed) => (
          <div key={placed.position} className="placed" title={`position ${placed.position}`}>
            <EnclosureBox enclosure={placed.top} />
            <EnclosureBox enclosure={placed.bottom} />
            <div className="small center">{placed.position === 0 ? "sheet" : placed.position}</div>
          </div>
        ))}
      </div>
    </section>
  );
}

function ZooBoard(props: Props) {
  const { view } = props;
  const texts = view.texts;
  const hand = view.hand.length > 0 ? view.hand : view.picks;
  return (
    <div className="zoo-board">
      <p className="small">
        Round {view.round} of {view.rounds}
        {view.pick ? ` · pick ${view.pick}` : ""} · draw pile {view.drawPileSize}
        {texts?.score ? ` · ${texts.score}` : ""}
      </p>
      {view.zoos.map((zoo) => (
        <Row key={zoo.seat} zoo={zoo} props={props} />
      ))}
      {hand.length > 0 && (
        <section className="hand">
          <h4>{view.hand.length > 0 ? "Your hand" : "Your cards to play"}</h4>
          <div className="cards">
            {hand.map((card) => (
              <CardFace key={card.id} card={card} props={props} effect={texts?.effects[card.id]} />
            ))}
            {view.kept && view.kept.id !== 0 && (
              <CardFace card={view.kept} props={props} effect={`kept for next round · ${texts?.effects[view.kept.id] ?? ""}`} />
            )}
          </div>
        </section>
      )}
      {view.openGoals.length > 0 && (
        <section className="goals">
          <h4>Open goals</h4>
          {view.openGoals.map((g) => {
            const t = targetProps(props, `goal:${g.goal?.id}`);
            const words = texts?.openGoals[g.goal?.id ?? 0];
            return (
              <div key={g.goal?.id} className={`goal ${t.className} ${g.open ? "" : "met"}`} onClick={t.onClick}>
                <b>{g.goal?.title}</b> {words && `${words.needs} → ${words.rewards}`}
              </div>
            );
          })}
        </section>
      )}
      {view.zoos
        .filter((z) => z.secretGoals.length > 0)
        .map((z) => (
          <section key={z.seat} className="goals">
            <h4>Secret goals of {seatName(props.names, z.seat)}</h4>
            {z.secretGoals.map((g) => {
              const t = targetProps(props, `secret:${g.id}`);
              const words = texts?.secretGoals[g.id];
              return (
                <div key={g.id} className={`goal ${t.className}`} onClick={t.onClick}>
                  <b>{g.title}</b> {words && `${words.needs} → ${words.rewards}`}
                </div>
              );
            })}
          </section>
        ))}
    </div>
  );
}

export const zoo: GameUI<View, Action> = { id: "zoo", service: Zoo, Board: ZooBoard, target };
