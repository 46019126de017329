/** The name under a domain whose TXT record proves it with the domain's token. */
export const CHALLENGE_LABEL = '_webmon-challenge';

export interface DnsRecordToCreate {
  type: 'CNAME' | 'TXT';
  /** The name to create the record at. */
  name: string;
  value: string;
}

/** What one DNS question answered: its values, or why there were none. */
export interface DnsAnswer {
  values: readonly string[];
  error: { code: string; message: string } | null;
}

export interface VerificationDecision {
  verified: boolean;
  /** How it was proven, when it was. */
  method: 'cname' | 'txt' | null;
  /** The outcome in words, for the person who set the records up. */
  outcome: string;
}

export const challengeName = (host: string) => `${CHALLENGE_LABEL}.${host}`;

/**
 * The records that verify `host`: a CNAME to the agency's status host (when one is configured),
 * or a TXT record holding the domain's token. Either one is enough.
 */
export function recordsToCreate(host: string, token: string, statusPagesHost?: string): DnsRecordToCreate[] {
  const txt: DnsRecordToCreate = { type: 'TXT', name: challengeName(host), value: token };
  return statusPagesHost ? [{ type: 'CNAME', name: host, value: statusPagesHost }, txt] : [txt];
}

/** Failures that are DNS's answer about the name: anything else means the question went unanswered. */
const ANSWERS = new Set(['NXDOMAIN', 'NODATA']);

function described(answer: DnsAnswer, kind: string): string {
  if (answer.error === null) return `${kind} found: ${answer.values.join(', ') || 'none'}`;
  return ANSWERS.has(answer.error.code)
    ? `no ${kind} record (${answer.error.code})`
    : `the ${kind} question went unanswered (${answer.error.message})`;
}

/**
 * Whether the answers prove the domain: its CNAME is the agency's status host (names compared
 * lowercase without the trailing dot), or one of the challenge name's TXT records is the token
 * exactly. Pure: the caller asked DNS.
 */
export function judgeVerification(
  host: string,
  answers: { cname: DnsAnswer | null; txt: DnsAnswer },
  expected: { token: string; statusPagesHost?: string },
): VerificationDecision {
  const canonical = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');
  const target = expected.statusPagesHost && canonical(expected.statusPagesHost);
  if (target && answers.cname?.values.some((value) => canonical(value) === target))
    return { verified: true, method: 'cname', outcome: `Verified: ${host} is a CNAME to ${target}` };
  if (answers.txt.values.some((value) => value === expected.token))
    return {
      verified: true,
      method: 'txt',
      outcome: `Verified: the TXT record of ${challengeName(host)} holds the token`,
    };
  const missing = [
    ...(target && answers.cname
      ? [`no CNAME of ${host} to ${target} (${described(answers.cname, 'CNAME')})`]
      : []),
    `no TXT record of ${challengeName(host)} with the token (${described(answers.txt, 'TXT')})`,
  ];
  return { verified: false, method: null, outcome: `Not verified: ${missing.join('; ')}` };
}
