import { z } from 'zod';
import { crawlSettingsSchema } from '../../../../libs/crawl/crawl.schema.js';
import { api, type Schemas } from '../api/client.js';
import { Check, Field } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { type FormProps, MonitorForm, NumberInput, paths, toNumber } from '../websites/monitor-forms.js';
import { errorUnder, lines } from './form-parts.js';

type CrawlCheck = Schemas['CrawlCheck'];
type Schedule = CrawlCheck['schedule'];
const SCHEDULES: Array<[Schedule, string]> = [
  ['hourly', 'Every hour'],
  ['daily', 'Every day'],
  ['weekly', 'Every week'],
];

/**
 * The crawl's own settings as the API's schema has them (pages, depth, hosts, ignore patterns),
 * checked before sending; the package's bounds (pages, crawls a day) are the API's, shown at their field.
 */
const crawlShape = crawlSettingsSchema
  .partial()
  .extend({ schedule: z.enum(['hourly', 'daily', 'weekly']), sitemap: z.boolean() })
  .loose();

/** A site crawl: how often, how far, which hosts, what to ignore, whether other sites' links are checked. */
export function CrawlForm({ websiteRef, onDone, check }: FormProps & { check: CrawlCheck | null }) {
  const form = useForm(
    {
      name: check?.name ?? '',
      schedule: check?.schedule ?? 'daily',
      maxPages: check?.maxPages === undefined ? '' : String(check.maxPages),
      maxDepth: String(check?.maxDepth ?? 10),
      ignore: (check?.ignore ?? []).join('\n'),
      extraHosts: (check?.extraHosts ?? []).map(String).join('\n'),
      checkExternal: check?.checkExternal ?? true,
      sitemap: check?.sitemap ?? true,
    },
    {
      schema: crawlShape,
      shows: paths(
        'name',
        'schedule',
        'maxPages',
        'maxDepth',
        'ignore',
        'extraHosts',
        'checkExternal',
        'sitemap',
      ),
      body: (v) => ({
        schedule: v.schedule as Schedule,
        maxDepth: Number(toNumber(v.maxDepth, 10)),
        ignore: lines(v.ignore),
        extraHosts: lines(v.extraHosts),
        checkExternal: v.checkExternal,
        sitemap: v.sitemap,
        ...(v.maxPages.trim() ? { maxPages: Number(v.maxPages) } : {}),
        ...(v.name.trim() ? { name: v.name } : {}),
      }),
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
          body: { ...body, kind: 'crawl' },
        });
    if (form.answered(answer) && answer.data) onDone(answer.data);
  };

  return (
    <MonitorForm
      title={check ? `Edit “${check.name}”` : 'New site crawl'}
      submit={check ? 'Save the site crawl' : 'Add the site crawl'}
      message={form.message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      <p class="hint">
        Reads the site from its address, following its links and its sitemap’s, and checks every link and
        resource on the pages: broken links, http: resources on https: pages and sitemap errors are kept and
        compared from crawl to crawl.
      </p>
      <div class="row">
        <Field label="How often" error={errors.schedule}>
          {(props) => (
            <select {...props} {...form.bind('schedule')}>
              {SCHEDULES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Pages at most (optional)"
          error={errors.maxPages}
          hint="Empty: as many as the package allows."
        >
          {(props) => <NumberInput {...props} min={1} {...form.bind('maxPages')} />}
        </Field>
        <Field label="Depth (clicks from the start)" error={errors.maxDepth}>
          {(props) => <NumberInput {...props} {...form.bind('maxDepth')} />}
        </Field>
      </div>
      <Field
        label="Ignore these URLs (optional)"
        error={errorUnder(errors, 'ignore')}
        hint="One pattern a line; * is any run of characters, such as https://shop.example/private/* or *.pdf."
      >
        {(props) => <textarea {...props} rows={3} spellcheck={false} {...form.bind('ignore')} />}
      </Field>
      <Field
        label="Other hosts to crawl (optional)"
        error={errorUnder(errors, 'extraHosts')}
        hint="One host name a line, such as blog.shop.example: crawled as the site’s own."
      >
        {(props) => <textarea {...props} rows={2} spellcheck={false} {...form.bind('extraHosts')} />}
      </Field>
      <Check
        label="Check links to other sites too"
        checked={form.values.checkExternal}
        onChange={(on) => form.set('checkExternal', on)}
        error={errors.checkExternal}
      />
      <Check
        label="Read and validate the sitemaps"
        checked={form.values.sitemap}
        onChange={(on) => form.set('sitemap', on)}
        error={errors.sitemap}
      />
      <Field label="Name (optional)" error={errors.name} hint="Empty: named after the site.">
        {(props) => <input {...props} {...form.bind('name')} />}
      </Field>
    </MonitorForm>
  );
}
