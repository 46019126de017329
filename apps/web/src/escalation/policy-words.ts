import type { PolicyTarget } from '../api/escalation.js';

/** What a step may name: each kind of target by id and name (a list not read yet: empty). */
export interface TargetDirectory {
  schedules: readonly { id: number; name: string }[];
  people: readonly { id: number; name: string }[];
  channels: readonly { id: number; name: string }[];
}

type Kind = 'schedule' | 'user' | 'channel';

const kindOf = (target: PolicyTarget): [Kind, number] =>
  'schedule' in target
    ? ['schedule', target.schedule]
    : 'user' in target
      ? ['user', target.user]
      : ['channel', target.channel];

/** A target as a select's option value: `schedule:3`, `user:5`, `channel:7`. */
export function targetValue(target: PolicyTarget): string {
  const [kind, id] = kindOf(target);
  return `${kind}:${id}`;
}

/** The target an option value names (null: none). */
export function targetOf(value: string): PolicyTarget | null {
  const match = /^(schedule|user|channel):(\d+)$/.exec(value);
  if (!match) return null;
  const id = Number(match[2]);
  return match[1] === 'schedule' ? { schedule: id } : match[1] === 'user' ? { user: id } : { channel: id };
}

const KIND_WORDS: Record<Kind, { list: keyof TargetDirectory; unknown: string; after: string }> = {
  schedule: { list: 'schedules', unknown: 'Schedule', after: ' (whoever is on call)' },
  user: { list: 'people', unknown: 'Person', after: '' },
  channel: { list: 'channels', unknown: 'Channel', after: ' (channel)' },
};

/** A target in words: "Ops nights (whoever is on call)", "Bob Baker", "Ops hook (channel)". */
export function targetName(target: PolicyTarget, directory: TargetDirectory): string {
  const [kind, id] = kindOf(target);
  const words = KIND_WORDS[kind];
  const name = directory[words.list].find((one) => one.id === id)?.name ?? `${words.unknown} ${id}`;
  return `${name}${words.after}`;
}

/** A step's wait in words. */
export function waitText(minutes: number): string {
  if (minutes === 0) return 'goes on at once';
  if (minutes % 60 === 0) return `waits ${minutes / 60} h`;
  return minutes > 60 ? `waits ${Math.floor(minutes / 60)} h ${minutes % 60} min` : `waits ${minutes} min`;
}

/** How often the steps run, in words. */
export function repeatText(repeat: number): string {
  return repeat === 0 ? 'once through' : `${repeat + 1} times through`;
}

/**
 * What "none" means where a policy may be chosen: the first of the levels it falls back to that
 * names a policy (the customer's, then the organization's default), else no escalation at all.
 */
export function noneLabel(fallbacks: readonly { whose: string; policy: string | null }[]): string {
  const first = fallbacks.find((fallback) => fallback.policy !== null);
  return first
    ? `None (falls back to ${first.whose}: ${first.policy})`
    : 'None (no escalation: alerts go to their channels only)';
}
