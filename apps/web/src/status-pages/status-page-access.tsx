import { useId } from 'preact/hooks';
import type { StatusPage } from '../api/status-pages.js';
import { Field } from '../ui/form.js';
import type { Bound } from '../ui/use-form.js';

export type AccessMode = StatusPage['access']['mode'];

const MODES: Array<[AccessMode, string, string]> = [
  ['public', 'Anyone with the link', 'The page, its badge and widget are open to all.'],
  [
    'password',
    'Visitors with a password',
    'Visitors give the page’s password once; it lasts 12 hours on their browser.',
  ],
  [
    'cidr',
    'Visitors from these networks',
    'Only client addresses in the ranges you list; others see that the page is private.',
  ],
  [
    'clients',
    'Signed-in client users',
    'The customer’s client users (and your team) signed in to this app; others are asked to sign in.',
  ],
];

/** The form's access values: what `accessBody` makes of them. */
export interface AccessValues {
  accessMode: AccessMode;
  password: string;
  cidrs: string;
}

/** The ranges as a list: one per line or comma. */
export const cidrList = (text: string) =>
  text
    .split(/[\n,]/)
    .map((range) => range.trim())
    .filter(Boolean);

/** The access part of a create or patch body; a password only when one was typed (write-only). */
export function accessBody(values: AccessValues) {
  return {
    mode: values.accessMode,
    ...(values.password ? { password: values.password } : {}),
    cidrs: cidrList(values.cidrs),
  };
}

/** The first problem of the ranges: the list's, or one range's (`access.cidrs.<i>`, named by its line). */
function rangesError(errors: Record<string, string | undefined>, cidrs: string): string | undefined {
  if (errors['access.cidrs']) return errors['access.cidrs'];
  const list = cidrList(cidrs);
  for (const [path, message] of Object.entries(errors)) {
    const index = /^access\.cidrs\.(\d+)$/.exec(path)?.[1];
    if (index !== undefined && message)
      return `${list[Number(index)] ?? `Range ${Number(index) + 1}`}: ${message}`;
  }
  return undefined;
}

/** Who may see the published page: the mode, its password (write-only: set or change) or its ranges. */
export function AccessFields({
  values,
  errors,
  passwordSet,
  onMode,
  bind,
}: {
  values: AccessValues;
  errors: Record<string, string | undefined>;
  /** Whether the saved page has a password: the field then changes it, and may stay empty. */
  passwordSet: boolean;
  onMode: (mode: AccessMode) => void;
  bind: (key: 'password' | 'cidrs', path: string) => Bound;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend>Access: who may see the published page</legend>
      {MODES.map(([mode, label, hint]) => (
        <div key={mode}>
          <div class="field check">
            <input
              type="radio"
              id={`${name}-${mode}`}
              name={name}
              checked={values.accessMode === mode}
              aria-describedby={`${name}-${mode}-hint`}
              onChange={() => onMode(mode)}
            />
            <label for={`${name}-${mode}`}>{label}</label>
          </div>
          <p class="muted" id={`${name}-${mode}-hint`} style={{ margin: '0 0 .75rem 1.75rem' }}>
            {hint}
          </p>
        </div>
      ))}
      {errors['access.mode'] && <p class="error">{errors['access.mode']}</p>}
      {values.accessMode === 'password' && (
        <Field
          label={passwordSet ? 'Change the password (optional)' : 'Set a password'}
          error={errors['access.password']}
          hint={
            passwordSet
              ? 'A password is set. Type a new one to change it: visitors who gave the old one must give the new one.'
              : 'At least 8 characters. It is stored hashed and never shown again.'
          }
        >
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="new-password"
              {...bind('password', 'access.password')}
            />
          )}
        </Field>
      )}
      {values.accessMode === 'cidr' && (
        <Field
          label="Allowed networks"
          error={rangesError(errors, values.cidrs)}
          hint="IPv4 or IPv6 addresses or CIDR ranges, one per line, e.g. 203.0.113.0/24 or 2001:db8::/48."
        >
          {(props) => <textarea {...props} rows={3} {...bind('cidrs', 'access.cidrs')} />}
        </Field>
      )}
    </fieldset>
  );
}
