// Catch the Golden Snitch: for now a generic rendering of the view (its fields as the server sends
// them) beside the clickable legal actions; a drawn pitch and race are still to come.
import { Snitch } from "../../gen/menagerie/snitch/v1/snitch_pb";
import { ViewSchema, type Action, type View } from "../../gen/menagerie/snitch/v1/snitch_pb";
import { toJson } from "@bufbuild/protobuf";
import type { BoardProps, GameUI } from "../types";

function SnitchBoard({ view }: BoardProps<View, Action>) {
  const json = toJson(ViewSchema, view, { alwaysEmitImplicit: false }) as Record<string, unknown>;
  delete json.prompt; // shown above the board
  return (
    <div className="generic-board">
      <p className="small">
        Game sequence {view.sequence} · Quaffle in {view.quaffleZone || "–"} · Snitch at{" "}
        {view.race?.snitch ?? "–"}
      </p>
      <pre data-testid="generic-view">{JSON.stringify(json, null, 1)}</pre>
    </div>
  );
}

export const snitch: GameUI<View, Action> = { id: "snitch", service: Snitch, Board: SnitchBoard };
