import type { Schemas } from '../api/client.js';
import { Field } from '../ui/form.js';

type Assertion = Schemas['CheckConfig']['assertions'][number];
type Source = Assertion['source'];
type Operator = Assertion['operator'];

const MAX_ASSERTIONS = 20;
const SOURCES: Array<[Source, string]> = [
  ['jsonBody', 'JSON body at a path'],
  ['header', 'Response header'],
  ['body', 'Body text'],
  ['status', 'Status code'],
  ['responseTime', 'Response time (ms)'],
];
const OPERATORS: Array<[Operator, string]> = [
  ['equals', 'equals'],
  ['notEquals', 'does not equal'],
  ['contains', 'contains'],
  ['notContains', 'does not contain'],
  ['matches', 'matches (RE2 pattern)'],
  ['lessThan', 'is less than'],
  ['greaterThan', 'is greater than'],
  ['exists', 'exists'],
  ['notExists', 'does not exist'],
];
const WITHOUT_VALUE: ReadonlySet<Operator> = new Set(['exists', 'notExists']);
const hasPath = (source: Source) => source === 'jsonBody' || source === 'header';
/** Status and response time are always there: "exists" says nothing of them. */
const operatorsOf = (source: Source) =>
  hasPath(source) || source === 'body' ? OPERATORS : OPERATORS.filter(([op]) => !WITHOUT_VALUE.has(op));

/** An assertion as the API takes it: no path where it has none, no value for exists/notExists. */
function normalized(assertion: Assertion): Assertion {
  const { path, value, ...rest } = assertion;
  return {
    ...rest,
    ...(hasPath(rest.source) ? { path: path ?? '' } : {}),
    ...(WITHOUT_VALUE.has(rest.operator) ? {} : { value: value ?? '' }),
  };
}

/**
 * The conditions a website's answer must meet, one row each; the API's errors shown at the field
 * they name (`assertions.<n>.<field>`).
 */
export function AssertionsEditor({
  assertions,
  onChange,
  errors,
}: {
  assertions: Assertion[];
  onChange: (assertions: Assertion[]) => void;
  errors: Record<string, string>;
}) {
  const update = (index: number, change: Partial<Assertion>) =>
    onChange(assertions.map((a, i) => (i === index ? normalized({ ...a, ...change }) : a)));
  return (
    <fieldset class="assertions">
      <legend>Assertions on the answer</legend>
      <p class="hint">
        All must hold, else the website is down and the failed ones are named in the incident. A JSON path is
        RFC 9535 (e.g. <code>$.status</code>); its first match is tested.
      </p>
      {errors.assertions && <p class="error-text">{errors.assertions}</p>}
      {assertions.length === 0 && <p>No assertions: add one to test a JSON API's answer or a header.</p>}
      {assertions.map((assertion, index) => {
        const error = (field: string) => errors[`assertions.${index}.${field}`];
        return (
          <fieldset class="row assertion" key={index}>
            <legend class="visually-hidden">{`Assertion ${index + 1}`}</legend>
            <Field label="Tests" error={error('source')}>
              {(props) => (
                <select
                  {...props}
                  value={assertion.source}
                  onChange={(e) => {
                    const source = e.currentTarget.value as Source;
                    const operator = operatorsOf(source).some(([op]) => op === assertion.operator)
                      ? assertion.operator
                      : 'equals';
                    update(index, { source, operator });
                  }}
                >
                  {SOURCES.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {hasPath(assertion.source) && (
              <Field
                label={assertion.source === 'header' ? 'Header name' : 'JSON path'}
                error={error('path')}
              >
                {(props) => (
                  <input
                    {...props}
                    value={assertion.path ?? ''}
                    placeholder={assertion.source === 'header' ? 'content-type' : '$.status'}
                    onInput={(e) => update(index, { path: e.currentTarget.value })}
                  />
                )}
              </Field>
            )}
            <Field label="Condition" error={error('operator')}>
              {(props) => (
                <select
                  {...props}
                  value={assertion.operator}
                  onChange={(e) => update(index, { operator: e.currentTarget.value as Operator })}
                >
                  {operatorsOf(assertion.source).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {!WITHOUT_VALUE.has(assertion.operator) && (
              <Field label="Value" error={error('value')}>
                {(props) => (
                  <input
                    {...props}
                    value={String(assertion.value ?? '')}
                    onInput={(e) => update(index, { value: e.currentTarget.value })}
                  />
                )}
              </Field>
            )}
            <button
              type="button"
              class="link"
              aria-label={`Remove assertion ${index + 1}`}
              onClick={(event) => {
                // Focus goes to "Add an assertion", not lost with the removed row.
                event.currentTarget
                  .closest('fieldset.assertions')
                  ?.querySelector<HTMLButtonElement>('.add')
                  ?.focus();
                onChange(assertions.filter((_, i) => i !== index));
              }}
            >
              Remove
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        class="add"
        disabled={assertions.length >= MAX_ASSERTIONS}
        onClick={() =>
          onChange([...assertions, { source: 'jsonBody', path: '', operator: 'equals', value: '' }])
        }
      >
        Add an assertion
      </button>
      {assertions.length >= MAX_ASSERTIONS && <p class="hint">At most {MAX_ASSERTIONS} assertions.</p>}
    </fieldset>
  );
}
