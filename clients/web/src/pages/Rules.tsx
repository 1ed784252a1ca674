// A game's rules page for one mode: the how-to-play `menagerie rules GAME` prints (the game's howto.toml, one
// source), in sections from the game service's GetRules. ?rule=<name> (a refusal's link) or ?section=<anchor>
// picks the section to show first, scrolled to and marked.
import { useEffect, useState } from "react";
import { describeError, matches } from "../api";
import type { GetRulesResponse, RulesSection } from "../gen/menagerie/common/v1/matches_pb";

interface Props {
  game: string;
  mode: string;
  rule?: string;
  section?: string;
}

/** The section a link asks for: by anchor, else the first that explains the rule named. */
function wanted(sections: RulesSection[], rule?: string, anchor?: string): RulesSection | undefined {
  if (anchor) return sections.find((s) => s.anchor === anchor);
  return rule ? sections.find((s) => s.rules.includes(rule)) : undefined;
}

/** The link to the section of the rules page that explains `rule`, if a section does. */
export function ruleLink(game: string, mode: string, sections: RulesSection[], rule: string): string | undefined {
  const found = wanted(sections, rule);
  return found ? `#/rules/${game}/${mode}?section=${found.anchor}&rule=${encodeURIComponent(rule)}` : undefined;
}

/** The rule a refusal names: its message is "<rule>: <detail>" (IllegalAction), the rule one the sections list. */
export function refusedRule(message: string, sections: RulesSection[]): string | undefined {
  return sections.flatMap((s) => s.rules).find((rule) => message.startsWith(`${rule}: `));
}

export function RulesPage({ game, mode, rule, section }: Props) {
  const [rules, setRules] = useState<GetRulesResponse | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    matches(game)
      .getRules({ mode }, { timeoutMs: 10_000 })
      .then(setRules)
      .catch((err) => setError(describeError(err)));
  }, [game, mode]);
  const target = rules ? wanted(rules.sections, rule, section) : undefined;
  useEffect(() => {
    if (target) document.getElementById(`rules-${target.anchor}`)?.scrollIntoView({ block: "start" });
  }, [target]);
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
        </>
      )}
    </div>
  );
}
