import type { ContactEvent, ContactMethod, ContactMethodType } from '../api/contact-methods.js';

/** Each type of contact method: its name, and how its address control asks for the address. */
export const METHOD_TYPES: Record<
  ContactMethodType,
  { name: string; hint: string; input: 'email' | 'tel' | 'text'; placeholder: string }
> = {
  email: {
    name: 'E-mail',
    hint: 'An address you read when paged.',
    input: 'email',
    placeholder: 'you@example.com',
  },
  sms: {
    name: 'SMS',
    hint: '+ and the country code, e.g. +49 151 12345678 (spaces are taken out).',
    input: 'tel',
    placeholder: '+4915112345678',
  },
  voice: {
    name: 'Voice call',
    hint: '+ and the country code, e.g. +49 151 12345678 (spaces are taken out). The call reads the alert; 1 acknowledges.',
    input: 'tel',
    placeholder: '+4915112345678',
  },
  signal: {
    name: 'Signal',
    hint: 'The number of your Signal account with + and the country code, e.g. +49 151 12345678.',
    input: 'tel',
    placeholder: '+4915112345678',
  },
  ntfy: {
    name: 'ntfy',
    hint: 'The topic you subscribe to in the ntfy app (letters, digits, - and _, at most 64).',
    input: 'text',
    placeholder: 'alice-pager',
  },
  pushover: {
    name: 'Pushover',
    hint: 'Your user key, shown on your Pushover dashboard (30 letters and digits).',
    input: 'text',
    placeholder: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
  },
  telegram: {
    name: 'Telegram',
    hint: 'Your chat id with the organization’s bot (digits; a group’s starts with -). Message the bot first.',
    input: 'text',
    placeholder: '123456789',
  },
};

export const EVENT_NAMES: Record<ContactEvent, string> = {
  alert: 'Alerts (something is down)',
  recovery: 'Recoveries',
  acknowledged: 'Acknowledgements (someone is on it)',
};

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
/** ISO weekdays (1 Monday … 7 Sunday) with their short names, in the week's order. */
export const WEEKDAYS = DAY_NAMES.map((name, index) => ({ day: index + 1, name }));

/** ISO weekdays in words: "every day", "Mon–Fri", "Mon, Wed, Sat–Sun". */
export function daysText(days: readonly number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  if (sorted.length === 7) return 'every day';
  const runs: number[][] = [];
  for (const day of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1) === day - 1) run.push(day);
    else runs.push([day]);
  }
  const name = (day: number) => DAY_NAMES[day - 1] ?? String(day);
  return runs
    .map((run) =>
      run.length >= 2 ? `${name(run[0] as number)}–${name(run.at(-1) as number)}` : name(run[0] as number),
    )
    .join(', ');
}

/** When a method may be used, in words. */
export function hoursText(hours: ContactMethod['hours']): string {
  if (!hours) return 'At any hour';
  const days = daysText(hours.days);
  const span =
    hours.from === hours.to
      ? 'all day'
      : `${hours.from}–${hours.to}${hours.to < hours.from ? ' (over midnight)' : ''}`;
  return `${days.charAt(0).toUpperCase()}${days.slice(1)}, ${span}, ${hours.timezone} time`;
}

/** What a method is told of, in words: "alerts, recoveries". */
export function eventsText(events: readonly ContactEvent[]): string {
  const names = { alert: 'alerts', recovery: 'recoveries', acknowledged: 'acknowledgements' };
  const said = (['alert', 'recovery', 'acknowledged'] as const)
    .filter((e) => events.includes(e))
    .map((e) => names[e]);
  return said.length > 1 ? `${said.slice(0, -1).join(', ')} and ${said.at(-1)}` : (said[0] ?? 'nothing');
}
