import type { Schemas } from '../api/client.js';
import { Check, Field, FormError } from '../ui/form.js';

export interface HeaderRow {
  name: string;
  value: string;
  secret: boolean;
  /** A stored secret header: its value is never shown; empty keeps it. */
  stored: boolean;
  removed: boolean;
}

/** A website's headers as rows: the plain ones with their values, the secret ones by name only. */
export function headerRows(website: Schemas['Website'] | null): HeaderRow[] {
  return [
    ...Object.entries(website?.customHeaders ?? {}).map(([name, value]) => ({
      name,
      value,
      secret: false,
      stored: false,
      removed: false,
    })),
    ...(website?.secretHeaderNames ?? []).map((name) => ({
      name,
      value: '',
      secret: true,
      stored: true,
      removed: false,
    })),
  ];
}

/** The rows as the API takes them: plain headers, and the secret ones set, replaced or removed (null). */
export function headerFields(rows: HeaderRow[]) {
  const customHeaders: Record<string, string> = {};
  const secretHeaders: Record<string, string | null> = {};
  for (const row of rows) {
    if (!row.name.trim()) continue;
    if (row.stored && row.removed) secretHeaders[row.name] = null;
    else if (row.stored) {
      if (row.value) secretHeaders[row.name] = row.value;
    } else if (row.secret) secretHeaders[row.name.trim()] = row.value;
    else customHeaders[row.name.trim()] = row.value;
  }
  return { customHeaders, ...(Object.keys(secretHeaders).length > 0 ? { secretHeaders } : {}) };
}

/** The request headers' rows: add, rename, make secret, remove; a stored secret is replaced or removed only. */
export function HeaderRows({
  rows,
  errors,
  onChange,
}: {
  rows: HeaderRow[];
  errors: Record<string, string>;
  onChange: (rows: HeaderRow[]) => void;
}) {
  const updateHeader = (index: number, change: Partial<HeaderRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const headerError = (n: string) => errors[`customHeaders.${n}`] ?? errors[`secretHeaders.${n}`];
  return (
    <>
      {rows.length === 0 && <p class="muted">No headers: add one for an API key or a cookie.</p>}
      {rows.map((row, index) => (
        <div class="row header-row" key={index}>
          <Field label={`Header ${index + 1} name`} error={headerError(row.name)}>
            {(props) => (
              <input
                {...props}
                value={row.name}
                readOnly={row.stored}
                onInput={(e) => updateHeader(index, { name: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field
            label={`Header ${index + 1} value`}
            hint={row.stored ? 'Secret, set: never shown. Type a value to replace it.' : undefined}
          >
            {(props) =>
              row.secret ? (
                <input
                  {...props}
                  type="password"
                  autocomplete="off"
                  value={row.value}
                  disabled={row.removed}
                  onInput={(e) => updateHeader(index, { value: e.currentTarget.value })}
                />
              ) : (
                <input
                  {...props}
                  autocomplete="off"
                  value={row.value}
                  onInput={(e) => updateHeader(index, { value: e.currentTarget.value })}
                />
              )
            }
          </Field>
          {row.stored ? (
            <Check
              label={`Remove ${row.name}`}
              checked={row.removed}
              onChange={(removed) => updateHeader(index, { removed })}
            />
          ) : (
            <>
              <Check
                label={`Header ${index + 1} is secret (write-only)`}
                checked={row.secret}
                onChange={(secret) => updateHeader(index, { secret })}
              />
              <button type="button" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
                Remove header {index + 1}
              </button>
            </>
          )}
        </div>
      ))}
      <FormError message={errors.customHeaders ?? errors.secretHeaders} />
      <button
        type="button"
        onClick={() =>
          onChange([...rows, { name: '', value: '', secret: false, stored: false, removed: false }])
        }
      >
        Add a header
      </button>
    </>
  );
}
