import { z } from 'zod';
import {
  lighthousePresetSchema,
  lighthouseThresholdsSchema,
} from '../../../../libs/lighthouse/lighthouse.schema.js';
import { api, type Schemas } from '../api/client.js';
import { Check, Field } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { type FormProps, MonitorForm, NumberInput, paths, toNumber } from '../websites/monitor-forms.js';
import { errorUnder, lines } from './form-parts.js';
import { CATEGORIES, type Category } from './scores.js';

type LighthouseCheck = Schemas['LighthouseCheck'];
type Schedule = LighthouseCheck['schedule'];
/** Pages one check audits at most (the API's bound: each is a minute of a worker's browser). */
const MAX_URLS = 5;

/**
 * Thresholds and presets as the API's schema has them, checked before sending; each page's URL
 * and the package's runs a day are the API's to judge, shown at their field.
 */
const lighthouseShape = z
  .object({
    schedule: z.enum(['daily', 'weekly']),
    urls: z.array(z.string()).min(1).max(MAX_URLS).optional(),
    presets: z.array(lighthousePresetSchema).min(1),
    thresholds: lighthouseThresholdsSchema,
  })
  .loose();

type Values = {
  name: string;
  schedule: string;
  urls: string;
  mobile: boolean;
  desktop: boolean;
  maxDrop: string;
} & Record<`min.${Category}`, string>;

/** A Lighthouse check: how often, which pages, mobile and/or desktop, and the scores that raise an alert. */
export function LighthouseForm({ websiteRef, onDone, check }: FormProps & { check: LighthouseCheck | null }) {
  const thresholds = check?.thresholds ?? {};
  const form = useForm<Values, Record<string, unknown>>(
    {
      name: check?.name ?? '',
      schedule: check?.schedule ?? 'daily',
      urls: (check?.urls ?? []).join('\n'),
      mobile: check ? check.presets.includes('mobile') : true,
      desktop: check ? check.presets.includes('desktop') : false,
      maxDrop: thresholds.maxDrop === undefined ? '' : String(thresholds.maxDrop),
      ...(Object.fromEntries(
        CATEGORIES.map(([category]) => [
          `min.${category}`,
          thresholds[category] === undefined ? '' : String(thresholds[category]),
        ]),
      ) as Record<`min.${Category}`, string>),
    },
    {
      schema: lighthouseShape,
      shows: paths('name', 'schedule', 'urls', 'presets', 'thresholds'),
      body: (v) => {
        const urls = lines(v.urls);
        const minimums = CATEGORIES.flatMap(([category]) => {
          const text = v[`min.${category}`];
          return text.trim() === '' ? [] : [[category, Number(toNumber(text, 0))]];
        });
        return {
          schedule: v.schedule as Schedule,
          presets: [...(v.mobile ? ['mobile' as const] : []), ...(v.desktop ? ['desktop' as const] : [])],
          thresholds: {
            ...Object.fromEntries(minimums),
            ...(v.maxDrop.trim() ? { maxDrop: Number(v.maxDrop) } : {}),
          },
          ...(urls.length > 0 ? { urls } : {}),
          ...(v.name.trim() ? { name: v.name } : {}),
        };
      },
    },
  );
  const { errors } = form;

  const save = async () => {
    const body = form.check();
    if (!body) return;
    const answer = check
      ? await api.PATCH('/api/monitors/{id}', { params: { path: { id: check.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/monitors', {
          params: { path: { websiteRef } },
          body: { ...body, kind: 'lighthouse' } as Schemas['LighthouseCheckCreate'],
        });
    if (form.answered(answer) && answer.data) onDone(answer.data);
  };

  return (
    <MonitorForm
      title={check ? `Edit “${check.name}”` : 'New Lighthouse check'}
      submit={check ? 'Save the Lighthouse check' : 'Add the Lighthouse check'}
      message={form.message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      <p class="hint">
        Lighthouse audits each page in a real browser and scores its performance, accessibility, best
        practices and SEO; the scores and lab metrics are kept as history, with each run’s full report.
      </p>
      <Field label="How often" error={errors.schedule}>
        {(props) => (
          <select {...props} {...form.bind('schedule')}>
            <option value="daily">Every day</option>
            <option value="weekly">Every week</option>
          </select>
        )}
      </Field>
      <Field
        label="Pages (optional)"
        error={errorUnder(errors, 'urls')}
        hint={`One address a line, at most ${MAX_URLS}. Empty: the website’s own address.`}
      >
        {(props) => <textarea {...props} rows={3} spellcheck={false} {...form.bind('urls')} />}
      </Field>
      <fieldset class="choice">
        <legend>Audited as</legend>
        <div class="row">
          <Check
            label="Mobile (a phone on a slow 4G link)"
            checked={form.values.mobile}
            onChange={(on) => form.set('mobile', on)}
          />
          <Check label="Desktop" checked={form.values.desktop} onChange={(on) => form.set('desktop', on)} />
        </div>
        {errors.presets && (
          <p class="error-text" role="alert">
            <span aria-hidden="true">⚠ </span>
            {errors.presets}
          </p>
        )}
      </fieldset>
      <fieldset>
        <legend>Alert when (optional)</legend>
        <p class="hint">Empty fields never alert.</p>
        <div class="row">
          {CATEGORIES.map(([category, name]) => (
            <Field key={category} label={`${name} under`} error={errors[`thresholds.${category}`]}>
              {(props) => (
                <NumberInput {...props} {...form.bind(`min.${category}`, `thresholds.${category}`)} />
              )}
            </Field>
          ))}
        </div>
        <Field
          label="Any score falls by more than (points)"
          error={errors['thresholds.maxDrop']}
          hint="Since the run before, such as 10."
        >
          {(props) => <NumberInput {...props} {...form.bind('maxDrop', 'thresholds.maxDrop')} />}
        </Field>
      </fieldset>
      <Field label="Name (optional)" error={errors.name} hint="Empty: named after the page.">
        {(props) => <input {...props} {...form.bind('name')} />}
      </Field>
    </MonitorForm>
  );
}
