import { useState } from 'preact/hooks';
import { journeySettings } from '../../../../libs/journeys/journey-options.schema.js';
import { api } from '../api/client.js';
import { Field } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import type { BrowserCheck, JourneyBody } from './journey-choices.js';
import { type StepDraft, shownFields, stepDraft, stepOf } from './journey-drafts.js';
import { optionsDraft, optionsOf, withRecording } from './journey-options-draft.js';
import { JourneyOptionsFields } from './journey-options-fields.js';
import { RecorderImport } from './journey-recorder.js';
import { JourneyStepsEditor } from './journey-steps-editor.js';
import { CheckTiming, type FormProps, MonitorForm, paths, toNumber } from './monitor-forms.js';

/** The API's defaults for a journey: every 10 minutes, a minute to play. */
const INTERVAL_SECONDS = 600;
const TIMEOUT_SECONDS = 60;
/** The journey's own fields besides its steps, each shown at its control. */
const shownOutsideSteps = paths(
  'name',
  'intervalSeconds',
  'timeoutSeconds',
  'steps',
  'device',
  'viewport',
  'locale',
  'timezone',
  'extraHeaders',
  'basicAuth',
  'cookies',
  'variables',
  'secrets',
);
/**
 * The shape of a journey as the API's own schema has it (actions, locators, CSS selectors, roles,
 * keys, RE2 patterns, locale, time zone, headers), checked here before sending; the monitor's own
 * fields pass through to the API. The rules across fields (a placeholder naming a variable or secret
 * the journey has, a first step that goes somewhere) and the SSRF guard's judgement of each URL's
 * host are the API's, shown at the field it names.
 */
const journeyShape = journeySettings.loose();

/**
 * A browser journey: its steps (added, moved, removed, each with its action's fields), a recording
 * from Playwright's codegen converted into them, the browser it runs in, its variables and
 * write-only secrets.
 */
export function JourneyForm({ websiteRef, onDone, journey }: FormProps & { journey: BrowserCheck | null }) {
  const [steps, setSteps] = useState<StepDraft[]>(() =>
    (journey?.steps ?? [undefined]).map((step) => stepDraft(step)),
  );
  const [options, setOptions] = useState(() => optionsDraft(journey));
  const form = useForm<{ name: string; interval: string; timeout: string }, JourneyBody>(
    {
      name: journey?.name ?? '',
      interval: String(journey?.intervalSeconds ?? INTERVAL_SECONDS),
      timeout: String(journey?.timeoutSeconds ?? TIMEOUT_SECONDS),
    },
    {
      schema: journeyShape,
      shows: (path) => {
        const inStep = /^steps\.(\d+)(?:\.([^.]+))?/.exec(path);
        const draft = inStep && steps[Number(inStep[1])];
        return draft ? shownFields(draft).includes(inStep[2] ?? '') : shownOutsideSteps(path);
      },
      body: (v) => ({
        version: 1,
        steps: steps.map(stepOf),
        ...optionsOf(options),
        intervalSeconds: Number(toNumber(v.interval, INTERVAL_SECONDS)),
        timeoutSeconds: Number(toNumber(v.timeout, TIMEOUT_SECONDS)),
        ...(v.name.trim() ? { name: v.name } : {}),
      }),
    },
  );
  const { errors } = form;

  const save = async () => {
    const body = form.check();
    if (!body) return;
    const answer = journey
      ? await api.PATCH('/api/monitors/{id}', { params: { path: { id: journey.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/monitors', {
          params: { path: { websiteRef } },
          body: { ...body, kind: 'browser' },
        });
    if (form.answered(answer) && answer.data) onDone(answer.data);
  };

  return (
    <MonitorForm
      title={journey ? `Edit “${journey.name}”` : 'New browser journey'}
      submit={journey ? 'Save the browser journey' : 'Add the browser journey'}
      message={form.message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      <p class="hint">
        A real browser plays the steps in order on a fresh page, as a person would: the first step that fails
        stops it and is named in the incident, with a screenshot of the page and a trace to download.
      </p>
      <RecorderImport
        onConverted={(recording, keep) => {
          const next = withRecording({ steps, options }, recording, keep);
          setSteps(next.steps);
          setOptions(next.options);
        }}
      />
      <JourneyStepsEditor steps={steps} errors={errors} onChange={setSteps} />
      <JourneyOptionsFields options={options} errors={errors} onChange={setOptions} />
      <CheckTiming
        errors={errors}
        interval={form.bind('interval', 'intervalSeconds')}
        timeout={form.bind('timeout', 'timeoutSeconds')}
      />
      <Field label="Name (optional)" error={errors.name} hint="Empty: named after its first page.">
        {(props) => <input {...props} {...form.bind('name')} />}
      </Field>
    </MonitorForm>
  );
}
