import { useEffect, useRef, useState } from 'preact/hooks';
import type { EventKind } from '../../../../libs/events/event-kinds.js';
import {
  TEMPLATE_MAX_CHARS,
  TEMPLATE_VARIABLES,
  type TemplateVariable,
} from '../../../../libs/templates/variables.js';
import { api, problemText, type Schemas } from '../api/client.js';
import { Check, Field } from '../ui/form.js';
import { EVENT_LABELS } from './event-labels.js';

type Preview = Schemas['TemplatePreview'];

/** Typing pauses this long before the API renders the preview. */
const PREVIEW_DELAY_MS = 300;

/** A list's item fields (`group[].name` → `name`). */
const itemFields = (list: string) =>
  TEMPLATE_VARIABLES.filter((v) => v.path.startsWith(`${list}[].`)).map((v) => v.path.slice(list.length + 3));

/** What a click on a variable inserts: its value, a loop over a list's items, or a list joined. */
function snippetOf(variable: TemplateVariable): string {
  const [list, field] = variable.path.split('[].');
  if (field) return `{{ item.${field} }}`;
  if (!variable.list) return `{{ ${variable.path} }}`;
  const fields = itemFields(list ?? variable.path);
  if (fields.length === 0) return `{{ ${variable.path} | join: ", " }}`;
  // One line per item, no blank lines between them.
  return `{% for item in ${variable.path} %}\n- ${fields.map((f) => `{{ item.${f} }}`).join(' ')}{% endfor %}`;
}

/** The template rendered by the API for a sample event, again each time typing pauses. */
function usePreview(type: string, template: string, eventType: string, grouped: boolean) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (template.trim() === '') {
      setPreview(null);
      return;
    }
    // An answer to an older text that comes late is not shown over a newer one.
    const aborted = new AbortController();
    const timer = setTimeout(async () => {
      const { data, error } = await api
        .POST('/api/notification-channels/template-preview', {
          body: {
            type: type as Schemas['ChannelType'],
            template,
            eventType: eventType as EventKind,
            grouped,
          },
          signal: aborted.signal,
        })
        .catch(() => ({ data: undefined, error: undefined }));
      if (aborted.signal.aborted) return;
      setPreview(data ?? null);
      setFailure(data ? null : problemText(error));
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      aborted.abort();
    };
  }, [type, template, eventType, grouped]);
  return { preview: template.trim() === '' ? null : preview, failure };
}

/**
 * A channel's message template: the text, the variables to insert with a click, and a live
 * preview for a sample event of a kind chosen here, with its error at its line and column.
 */
export function TemplateEditor({
  type,
  value,
  error,
  events,
  onChange,
}: {
  type: string;
  value: string;
  /** The form's or the API's refusal of the template. */
  error: string | undefined;
  events: string[];
  onChange: (value: string) => void;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [eventType, setEventType] = useState(
    events.includes('website.down') ? 'website.down' : (events[0] ?? 'test'),
  );
  const [grouped, setGrouped] = useState(false);
  const { preview, failure } = usePreview(type, value, eventType, grouped);

  const insert = (variable: TemplateVariable) => {
    const snippet = snippetOf(variable);
    const box = area.current;
    const start = box?.selectionStart ?? value.length;
    const end = box?.selectionEnd ?? value.length;
    onChange(`${value.slice(0, start)}${snippet}${value.slice(end)}`);
    // Back in the text, after what was inserted.
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(start + snippet.length, start + snippet.length);
    });
  };

  return (
    <fieldset>
      <legend>Message template (optional)</legend>
      <Field
        label="Template"
        error={error}
        hint={`Liquid: {{ variable }}, {% if %}…{% endif %}, {% for %}, filters such as | upcase or | date: "%H:%M". Up to ${TEMPLATE_MAX_CHARS.toLocaleString()} characters; empty: the default message.`}
      >
        {(props) => (
          <textarea
            {...props}
            ref={area}
            rows={6}
            spellcheck={false}
            value={value}
            onInput={(e) => onChange(e.currentTarget.value)}
          />
        )}
      </Field>
      <details>
        <summary>
          Variables: click one to insert it (a list’s [] fields are item.… inside its for loop)
        </summary>
        <ul>
          {TEMPLATE_VARIABLES.map((variable) => (
            <li key={variable.path}>
              <button type="button" class="link" onClick={() => insert(variable)}>
                <span class="visually-hidden">Insert </span>
                <code>{variable.path}</code>
              </button>{' '}
              <span class="hint">{variable.description}</span>
            </li>
          ))}
        </ul>
      </details>
      {value.trim() !== '' && (
        <>
          <Field label="Preview with a sample event">
            {(props) => (
              <select {...props} value={eventType} onChange={(e) => setEventType(e.currentTarget.value)}>
                {events.map((kind) => (
                  <option key={kind} value={kind}>
                    {EVENT_LABELS[kind as EventKind] ?? kind}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Check
            label="As a grouped message (several websites in group)"
            checked={grouped}
            onChange={setGrouped}
          />
          <PreviewOutput preview={preview} failure={failure} />
        </>
      )}
    </fieldset>
  );
}

function PreviewOutput({ preview, failure }: { preview: Preview | null; failure: string | null }) {
  return (
    <div role="status" aria-live="polite" aria-label="Template preview">
      {failure && <p class="error-text">⚠ The preview did not come: {failure}</p>}
      {!failure && !preview && <p class="hint">Rendering…</p>}
      {preview?.problem && (
        <div class="banner error">
          <p>
            <span aria-hidden="true">⚠ </span>
            {preview.problem.message}
          </p>
          <p class="hint">While the template fails, this channel sends the default message.</p>
        </div>
      )}
      {preview?.text != null && <pre class="log">{preview.text}</pre>}
      {preview && preview.unknownVariables.length > 0 && (
        <p class="banner warn">
          Not a variable of any event (they render empty):{' '}
          {preview.unknownVariables.map((name, i) => (
            <span key={name}>
              {i > 0 && ', '}
              <code>{name}</code>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
