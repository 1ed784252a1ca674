// A game's rules page for one mode: the how-to-play `menagerie rules` prints (the game's howto.toml, one source), in
// sections from the game service's GetRules, then the game's RULES.md (how its authors read the rulebook) in readings,
// each under its stable anchors. ?rule=<name> (a refusal's link) or ?section=<anchor> picks the section to show first,
// scrolled to and marked; ?reading=<anchor> opens the reading under that anchor the same way.
import { useEffect, useState } from "react";
import { describeError, matches } from "../api";
import type { GetRulesResponse, RulesReading, RulesSection } from "../gen/menagerie/common/v1/matches_pb";

interface Props {
  game: string;
  mode: string;
  rule?: string;
  section?: string;
  reading?: string;
}

/** The section a link asks for: by anchor, else the first that explains the rule named. */
function wanted(sections: RulesSection[], rule?: string, anchor?: string): RulesSection | undefined {
  if (anchor) return sections.find((s) => s.anchor === anchor);
  return rule ? sections.find((s) => s.rules.includes(rule)) : undefined;
}

/** The link to the section of the rules page that explains `rule`, if a section does. */
function ruleLink(game: string, mode: string, sections: RulesSection[], rule: string): string | undefined {
  const found = wanted(sections, rule);
  return found ? `#/rules/${game}/${mode}?section=${found.anchor}&rule=${encodeURIComponent(rule)}` : undefined;
}

/** The link to the RULES.md reading of `rule` on the rules page, if a reading reads it. */
function readingLink(game: string, mode: string, readings: RulesReading[], rule: string): string | undefined {
  const found = readings.find((r) => r.rules.includes(rule));
  return found ? `#/rules/${game}/${mode}?reading=${found.anchor}&rule=${encodeURIComponent(rule)}` : undefined;
}

/** The rule a refusal names: its message is "<rule>: <detail>" (IllegalAction), the rule one the page lists. */
export function refusedRule(message: string, rules: GetRulesResponse | null): string | undefined {
  const named = [...(rules?.sections ?? []), ...(rules?.readings ?? [])].flatMap((s) => s.rules);
  return named.find((rule) => message.startsWith(`${rule}: `));
}

/** A refused move's rule and where the rules page explains it: its how-to section, its RULES.md reading. */
export interface Refusal {
  rule: string;
  section?: string;
  reading?: string;
}

/** Where the rules page explains `rule`. */
export function refusalOf(game: string, mode: string, rules: GetRulesResponse, rule: string): Refusal {
  return {
    rule,
    section: ruleLink(game, mode, rules.sections, rule),
    reading: readingLink(game, mode, rules.readings, rule),
  };
}

/** Beside a refusal's message: the rule it names, a link to the rule and one to how it is read. */
export function RefusalLinks({ refusal }: { refusal: Refusal }) {
  return (
    <span className="refusal-rule">
      (rule: <b data-testid="refusal-rule-name">{refusal.rule}</b>){" "}
      {refusal.section && (
        <a data-testid="refusal-rule" href={refusal.section} target="_blank" rel="noreferrer">
          (the rule)
        </a>
      )}{" "}
      {refusal.reading && (
        <a data-testid="refusal-reading" href={refusal.reading} target="_blank" rel="noreferrer">
          (how it is read)
        </a>
      )}
    </span>
  );
}

function Reading({ reading, chosen, rule }: { reading: RulesReading; chosen: boolean; rule?: string }) {
  return (
    <details
      id={reading.anchor}
      open={chosen}
      data-testid="rules-reading"
      data-anchor={reading.anchor}
      className={chosen ? "rules-section chosen" : "rules-section"}
    >
      {/* The reading's other anchors (one per rule it reads), as in RULES.md. */}
      {reading.anchors.slice(1).map((a) => (
        <a key={a} id={a} />
      ))}
      <summary>
        <b>{reading.heading}</b>
      </summary>
      <pre>{reading.text}</pre>
      {reading.rules.length > 0 && (
        <p className="small" data-testid="reading-rules">
          Refusals that name {reading.rules.length === 1 ? "this rule" : "these rules"}: {reading.rules.join(", ")}
          {chosen && rule && (
            <>
              {" "}
              — you were refused under <b data-testid="reading-refused">{rule}</b>
            </>
          )}
        </p>
      )}
    </details>
  );
}

export function RulesPage({ game, mode, rule, section, reading }: Props) {
  const [rules, setRules] = useState<GetRulesResponse | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    matches(game)
      .getRules({ mode }, { timeoutMs: 10_000 })
      .then(setRules)
      .catch((err) => setError(describeError(err)));
  }, [game, mode]);
  const target = rules && !reading ? wanted(rules.sections, rule, section) : undefined;
  const chosenReading = rules && reading ? rules.readings.find((r) => r.anchors.includes(reading)) : undefined;
  useEffect(() => {
    if (target) document.getElementById(`rules-${target.anchor}`)?.scrollIntoView({ block: "start" });
  }, [target]);
  useEffect(() => {
    if (chosenReading) document.getElementById(chosenReading.anchor)?.scrollIntoView({ block: "start" });
  }, [chosenReading]);
  return (
    <div className="rules" data-testid="rules">
      <a href="#/">← Lobby</a>
      {error && <p className="error">{error}</p>}
      {rules && (
        <>
          <h2 data-testid="rules-title">{rules.title || game}</h2>
          <p className="small">
            Mode <b>{mode}</b>. The same text as <code>menagerie rules {game}</code> in a terminal.
          </p>
          {rules.sections.length === 0 && <p>This game ships no how-to-play.</p>}
          {rules.sections.map((s) => (
            <section
              key={s.anchor}
              id={`rules-${s.anchor}`}
              data-testid="rules-section"
              data-anchor={s.anchor}
              className={s === target ? "rules-section chosen" : "rules-section"}
            >
              {s.heading && <h3>{s.heading}</h3>}
              <pre>{s.text}</pre>
              {s.rules.length > 0 && (
                <p className="small" data-testid="rules-named">
                  Refusals that name {s.rules.length === 1 ? "this rule" : "these rules"}: {s.rules.join(", ")}
                  {s === target && rule && (
                    <>
                      {" "}
                      — you were refused under <b data-testid="rules-refused">{rule}</b>
                    </>
                  )}
                </p>
              )}
            </section>
          ))}
          {rules.readings.length > 0 && (
            <>
              <h2 id="readings">How the rules are read</h2>
              <p className="small">
                Where the rulebook is silent or ambiguous, the choice made and why: the game's RULES.md, section by
                section.
              </p>
              {rules.readings.map((r) => (
                <Reading key={r.anchor} reading={r} chosen={r === chosenReading} rule={rule} />
              ))}
            </>
          )}
        </>
      )}
    </div>
  );
}
