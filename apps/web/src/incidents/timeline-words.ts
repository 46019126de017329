/** What the incident page reads of an escalation or held item (the API's IncidentTimelineItem). */
interface Item {
  text: string | null;
  escalation?: { policyId: number; policyName: string; round: number; step: number } | undefined;
}

export interface EscalationParts {
  /** "step 2 of 3", with "(round 1 of 2)" when the policy repeats. */
  label: string;
  /** Each target's outcome ("Alice by sms: sent"), `ok` when it went out. */
  outcomes: { text: string; ok: boolean }[];
}

/** How an outcome that reached its target ends: sent now, or the channel had the alert itself. */
const REACHED = [': sent', ': told by the alert itself'];

/**
 * An escalation step's text, "<policy>, <step label>: <outcome>; <outcome>", in its parts; a text
 * of another shape stays whole as one outcome, its label from the item's step.
 */
export function escalationParts(item: Item): EscalationParts | null {
  const { escalation, text } = item;
  if (!escalation) return null;
  const prefix = `${escalation.policyName}, `;
  const rest = text?.startsWith(prefix) ? text.slice(prefix.length) : null;
  const colon = rest?.indexOf(': ') ?? -1;
  const label = rest && colon > 0 ? rest.slice(0, colon) : `step ${escalation.step + 1}`;
  const said = rest && colon > 0 ? rest.slice(colon + 2) : (text ?? '');
  return {
    label,
    outcomes: said
      .split('; ')
      .filter(Boolean)
      .map((outcome) => ({ text: outcome, ok: REACHED.some((end) => outcome.endsWith(end)) })),
  };
}

/** An outcome's "(on call, schedule 3)" with the schedule's name when it is known: "(on call in Primary)". */
export function withScheduleNames(text: string, names: ReadonlyMap<number, string>): string {
  return text.replace(/\(on call, schedule (\d+)\)/g, (whole, id: string) => {
    const name = names.get(Number(id));
    return name ? `(on call in ${name})` : whole;
  });
}

/** A held item's text as a sentence: "Held: Shared server is down (it depends on it)". */
export const heldText = (text: string | null) =>
  text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : 'Held: a website it depends on is down';
