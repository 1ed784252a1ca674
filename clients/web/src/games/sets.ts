// Choices that are sets of board parts (Pursuit's dice to keep, Snitch's dice to re-roll): the player
// toggles the parts on the board, and the one legal action whose parts are exactly the ones picked is
// the choice confirmed. A game says which parts each action takes, from the action's own fields
// (GameUI.sets); nothing here knows a rule: a selection is only ever matched against the server's list.

/** One board element a set choice can take: its key on the board, what it counts as, its name. */
export interface SetPart {
  /** The board element's key (e.g. "die:2"): the one the board draws as toggleable. */
  key: string;
  /**
   * What the part counts as in an action's fields: parts that count alike are interchangeable (two black
   * dice showing capture are the same to a Reroll that keeps one capture).
   */
  counts: string;
  /** The part in words, for the bar that shows the selection ("capture (black)"). */
  name: string;
}

/** One legal action of a set choice and the parts it takes (what they count as, repeated as often as taken). */
export interface SetOption {
  index: number;
  takes: string[];
}

/** A choice of a set of board parts: legal actions that differ only in which parts they take. */
export interface SetChoice {
  /** What is chosen, in words ("Dice to keep"). */
  title: string;
  /** Every part of the board the choice is about (only those some option takes can be toggled). */
  parts: SetPart[];
  options: SetOption[];
  /** The parts picked when the choice opens (the dice already kept): keys of `parts`. */
  initial?: string[];
}

/** How many times each value occurs. */
function tally(values: Iterable<string>): Map<string, number> {
  const counted = new Map<string, number>();
  for (const value of values) counted.set(value, (counted.get(value) ?? 0) + 1);
  return counted;
}

function sameTally(a: Map<string, number>, b: Map<string, number>): boolean {
  return a.size === b.size && [...a].every(([value, n]) => b.get(value) === n);
}

/** The keys of the parts some option of the choice takes: the ones the board lets the player toggle. */
export function toggleable(choice: SetChoice): Set<string> {
  const taken = new Set(choice.options.flatMap((o) => o.takes));
  return new Set(choice.parts.filter((p) => taken.has(p.counts)).map((p) => p.key));
}

/**
 * The options whose parts are exactly the picked ones (as counted), or none when a picked key is not a
 * part of this choice.
 */
export function matching(choice: SetChoice, picked: readonly string[]): SetOption[] {
  const byKey = new Map(choice.parts.map((p) => [p.key, p]));
  if (picked.some((key) => !byKey.has(key))) return [];
  const wanted = tally(picked.map((key) => byKey.get(key)!.counts));
  return choice.options.filter((o) => sameTally(tally(o.takes), wanted));
}

/** The legal action the picked parts mean for this choice: exactly one option matches, else undefined. */
export function chosenIndex(choice: SetChoice, picked: readonly string[]): number | undefined {
  const found = matching(choice, picked);
  return found.length === 1 ? found[0].index : undefined;
}

/** The selection with `key` toggled. */
export function toggled(picked: readonly string[], key: string): string[] {
  return picked.includes(key) ? picked.filter((k) => k !== key) : [...picked, key];
}

/** The parts picked when the choices open (each choice's `initial`, once). */
export function initialPicks(choices: readonly SetChoice[]): string[] {
  return [...new Set(choices.flatMap((c) => c.initial ?? []))];
}

/** The indexes of the legal actions the set choices stand for (left out of the plain list). */
export function setIndexes(choices: readonly SetChoice[]): Set<number> {
  return new Set(choices.flatMap((c) => c.options.map((o) => o.index)));
}
