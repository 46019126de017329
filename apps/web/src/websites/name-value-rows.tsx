import { Check, Field } from '../ui/form.js';
import { type Row, SEALED } from './api-flow-drafts.js';

/**
 * Name and value rows of a monitor: headers, variables (plain) or secrets (write-only, a stored one
 * shown as "(set)" and removed by a check box), refused at `<field>.<name>`.
 */
export function NameValueRows<R extends Row>({
  noun,
  rows,
  secret = false,
  errors,
  field,
  blank,
  isNameRefusal,
  onChange,
}: {
  /** "header": its rows are "Header 1 name", "Header 1 value". */
  noun: string;
  rows: R[];
  /** Values typed as passwords. @defaultValue false */
  secret?: boolean;
  errors: Record<string, string>;
  field: string;
  blank: R;
  /** Whether a refusal of a row is of its name (shown there) rather than of its value. */
  isNameRefusal: (error: string) => boolean;
  onChange: (rows: R[]) => void;
}) {
  const update = (at: number, change: Partial<R>) =>
    onChange(rows.map((row, i) => (i === at ? { ...row, ...change } : row)));
  const Noun = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;
  return (
    <>
      {rows.map((row, at) => {
        const stored = 'stored' in row && row.stored === true;
        const removed = 'removed' in row && row.removed === true;
        const error = errors[`${field}.${row.name.trim()}`];
        const ofName = error !== undefined && isNameRefusal(error);
        const value = {
          autocomplete: 'off',
          spellcheck: false,
          // A stored secret's value never comes back: what it shows instead, as the API does.
          placeholder: stored ? SEALED : undefined,
          value: row.value,
          disabled: removed,
          onInput: (e: Event) =>
            update(at, { value: (e.currentTarget as HTMLInputElement).value } as Partial<R>),
        };
        return (
          <div class="row" key={at}>
            <Field label={`${Noun} ${at + 1} name`} error={ofName ? error : undefined}>
              {(props) => (
                <input
                  {...props}
                  spellcheck={false}
                  value={row.name}
                  readOnly={stored}
                  onInput={(e) => update(at, { name: e.currentTarget.value } as Partial<R>)}
                />
              )}
            </Field>
            <Field
              label={`${Noun} ${at + 1} value`}
              error={ofName ? undefined : error}
              hint={stored ? 'Set: never shown. Type a value to replace it.' : undefined}
            >
              {(props) =>
                secret ? <input {...props} {...value} type="password" /> : <input {...props} {...value} />
              }
            </Field>
            {stored ? (
              <Check
                label={`Remove ${row.name}`}
                checked={removed}
                onChange={(gone) => update(at, { removed: gone } as unknown as Partial<R>)}
              />
            ) : (
              <button type="button" class="link" onClick={() => onChange(rows.filter((_, i) => i !== at))}>
                Remove <span class="visually-hidden">{`${noun} ${at + 1}`}</span>
              </button>
            )}
          </div>
        );
      })}
      {errors[field] && <p class="error-text">{errors[field]}</p>}
      <p>
        <button type="button" onClick={() => onChange([...rows, { ...blank }])}>
          Add a {noun}
        </button>
      </p>
    </>
  );
}
