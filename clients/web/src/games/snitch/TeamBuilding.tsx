// Build Your Team (mode "advanced"): the Galleons left, the Team so far with each pick's cost, the rules'
// checklist, the rival's public side and the cards on offer. Every fact is the view's (the engine's words):
// the board adds up nothing and decides no rule; a card is clickable when a legal action picks it.
import type { Action, CoachView, DraftView, TeamOfferView, View } from "../../gen/menagerie/snitch/v1/snitch_pb";
import { seatName, type BoardProps, type LegalAction } from "../types";
import "./building.css";

type Props = BoardProps<View, Action>;

/** The team-building phase's decisions: the board draws their choices as cards. */
export const BUILDING_KINDS = ["team_building", "flag_choice"];

/** Whether the board draws this action as a card of its own (see GameUI.onBoard). */
export function buildingAction(action: Action): boolean {
  return ["pickForTeam", "dropFromTeam", "confirmTeam", "chooseFlag"].includes(action.kind.case ?? "");
}

/** The legal action that picks this offer (the same part and card), if the seat may pick it now. */
function pickOf(props: Props, offer: TeamOfferView): LegalAction<Action> | undefined {
  return props.actions.find(
    (a) => a.action.kind.case === "pickForTeam" && a.action.kind.value.part === offer.part && a.action.kind.value.card === offer.card,
  );
}

function firstOf(props: Props, kind: Action["kind"]["case"]): LegalAction<Action>[] {
  return props.actions.filter((a) => a.action.kind.case === kind);
}

function Galleons({ draft }: { draft: DraftView }) {
  return (
    <div className="galleons" data-testid="galleons-left" data-left={draft.galleonsLeft}>
      <b>{draft.galleonsLeft}</b>
      <span>
        Galleons left
        <small>
          {" "}
          of {draft.funding} · spent {draft.cost}
        </small>
      </span>
    </div>
  );
}

function Checklist({ draft }: { draft: DraftView }) {
  const open = draft.requirements.filter((r) => !r.met);
  return (
    <section className="checklist" data-testid="requirements" data-open={open.length}>
      <h4>{open.length ? `Still needed (${open.length})` : "The Team is complete"}</h4>
      <ul>
        {draft.requirements.map((r) => (
          <li key={r.text} data-testid="requirement" data-met={r.met ? "yes" : "no"} className={r.met ? "met" : "open"}>
            {r.met ? "✓" : "○"} {r.text}
            {r.need > 0 && (
              <small>
                {" "}
                · {r.have}/{r.need}
              </small>
            )}
          </li>
        ))}
      </ul>
      {draft.missing && <p className="small">{draft.missing}</p>}
    </section>
  );
}

function capitalised(word: string): string {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

function TeamSoFar({ draft, props }: { draft: DraftView; props: Props }) {
  const undo = firstOf(props, "dropFromTeam")[0];
  const rows = [
    ...draft.players.map((p) => ({ key: `p${p.id}`, name: p.name, what: capitalised(p.position), cost: p.cost })),
    ...draft.tactics.map((t) => ({ key: `t${t.id}`, name: t.name, what: `Tactical card ${t.id}`, cost: t.cost })),
    ...draft.spectators.map((s) => ({ key: `s${s.id}`, name: s.name, what: "Spectator", cost: s.cost })),
  ];
  return (
    <section className="team-so-far" data-testid="team-so-far" data-picks={draft.picks.length}>
      <h4>
        Your Team{draft.house ? `: ${capitalised(draft.house)}` : ""}
        {draft.ready ? " (formed)" : ""}
      </h4>
      {rows.length === 0 && <p className="small">Nothing picked yet.</p>}
      <table>
        <tbody>
          {rows.map((row, i) => (
            <tr key={`${row.key}-${i}`} data-testid="team-pick">
              <td>{row.name}</td>
              <td className="small">{row.what}</td>
              <td className="cost">{row.cost} G</td>
            </tr>
          ))}
        </tbody>
      </table>
      {undo && (
        <button data-testid="undo-pick" disabled={props.busy} onClick={() => props.onAct?.(undo.index)}>
          {undo.label.text}
        </button>
      )}
    </section>
  );
}

function Rival({ coach, props }: { coach: CoachView; props: Props }) {
  return (
    <div className="rival" data-testid="rival" data-confirmed={coach.teamConfirmed ? "yes" : "no"}>
      <b>{seatName(props.names, coach.seat)}</b>:{" "}
      {coach.teamConfirmed ? "has formed their Team" : "is building their Team"} — hidden until the match starts
      {coach.flag ? ` · flies the ${coach.flag} Flag` : ""}
      {coach.house ? ` · ${coach.house}` : ""}
    </div>
  );
}

function OfferCard({ offer, props }: { offer: TeamOfferView; props: Props }) {
  const pick = pickOf(props, offer);
  return (
    <button
      className={`offer ${offer.part}`}
      data-testid="offer"
      data-part={offer.part}
      data-card={offer.card}
      data-cost={offer.cost}
      data-kind={offer.kind}
      disabled={!pick || props.busy}
      title={pick?.label.text}
      onClick={() => pick && props.onAct?.(pick.index)}
    >
      <span className="offer-head">
        <b>{offer.name}</b>
        <span className="cost">{offer.cost} G</span>
      </span>
      <span className="small kind">{offer.kind}</span>
      {offer.details.map((d) => (
        <span key={d} className="small detail">
          {d}
        </span>
      ))}
    </button>
  );
}

/** Offers by what they are: Houses, then each Position, the Tactical cards, the Spectators (the view's order within). */
function groups(offers: TeamOfferView[]): [string, TeamOfferView[]][] {
  const heading: Record<string, string> = { house: "Houses", tactic: "Tactical cards", spectator: "Spectators" };
  const out = new Map<string, TeamOfferView[]>();
  for (const offer of offers) {
    const key = offer.part === "player" ? `${offer.kind}s` : heading[offer.part] ?? offer.part;
    out.set(key, [...(out.get(key) ?? []), offer]);
  }
  return [...out.entries()];
}

// The Flag colours of the box (l.460) as a page can paint them; the words stay the engine's.
const SWATCHES: Record<string, string> = { scarlet: "#b22222", green: "#1e7b3a", blue: "#1f4e9c", yellow: "#e0b000" };

function swatch(colour: string): string {
  return SWATCHES[colour] ?? colour;
}

function Choices({ draft, props }: { draft: DraftView; props: Props }) {
  const confirm = firstOf(props, "confirmTeam")[0];
  const flags = firstOf(props, "chooseFlag");
  return (
    <section className="choices" data-testid="team-choices">
      {confirm && (
        <button className="offer confirm" data-testid="confirm-team" disabled={props.busy} onClick={() => props.onAct?.(confirm.index)}>
          <b>{confirm.label.text}</b>
        </button>
      )}
      {flags.length > 0 && (
        <div className="offer-group">
          <h4>Your Flag</h4>
          <div className="offers">
            {flags.map((f) => (
              <button
                key={f.index}
                className="offer flag"
                data-testid="flag"
                disabled={props.busy}
                onClick={() => props.onAct?.(f.index)}
              >
                <span className="swatch" style={{ background: f.action.kind.case === "chooseFlag" ? swatch(f.action.kind.value.colour) : "" }} />
                <b>{f.label.text}</b>
              </button>
            ))}
          </div>
        </div>
      )}
      {groups(draft.offers).map(([heading, offers]) => (
        <div key={heading} className="offer-group">
          <h4>{heading}</h4>
          <div className="offers">
            {offers.map((offer) => (
              <OfferCard key={`${offer.part}:${offer.card}`} offer={offer} props={props} />
            ))}
          </div>
        </div>
      ))}
    </section>
  );
}

/** The team-building board: the viewer's draft (a spectator sees only the Coaches' public side). */
export function TeamBuildingBoard(props: Props) {
  const { view, viewer } = props;
  const draft = view.draft;
  const rivals = view.coaches.filter((c) => c.seat !== viewer);
  return (
    <div className="team-building" data-testid="team-building">
      <p className="small">
        Build Your Team · Funding {view.funding} Galleons{view.spectatorsOn ? " · Spectators on" : ""}
      </p>
      {draft ? (
        <div className="building-top">
          <Galleons draft={draft} />
          <TeamSoFar draft={draft} props={props} />
          <Checklist draft={draft} />
        </div>
      ) : (
        <p>The Coaches build their Teams in secret; the Teams go on the table when the match starts.</p>
      )}
      <section className="rivals">
        {rivals.map((c) => (
          <Rival key={c.seat} coach={c} props={props} />
        ))}
      </section>
      {draft && <Choices draft={draft} props={props} />}
    </div>
  );
}
