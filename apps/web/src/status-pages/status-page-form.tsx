import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import {
  createStatusPageBody,
  patchStatusPageBody,
} from '../../../../libs/status-pages/status-page.schema.js';
import { api } from '../api/client.js';
import { useCustomerWebsites } from '../api/customers.js';
import { useVisibleCustomers } from '../api/organization.js';
import { write } from '../api/query.js';
import { type StatusPage, statusPageKeys } from '../api/status-pages.js';
import { CustomerOptions } from '../customers/customer-options.js';
import { Check, Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { AccessFields, accessBody } from './status-page-access.js';
import { SectionFields, sectionDraft, sectionsBody } from './status-page-sections.js';

/** The languages a page may speak, each named in itself. */
const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'es', name: 'Español' },
] as const;

/** The runtime's IANA zones, offered as suggestions (any the API knows may be typed). */
const TIME_ZONES: readonly string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

export const publicLink = (slug: string) => `${location.origin}/status/${slug}`;

/** A status page's settings: its customer, title and address, websites, branding, visibility and embedding. */
export function StatusPageForm({
  page,
  onSaved,
}: {
  page: StatusPage | null;
  onSaved: (page: StatusPage) => void;
}) {
  const { query } = useLocation();
  const customers = useVisibleCustomers();
  const [sections, setSections] = useState(() =>
    (page?.sections ?? []).map((s) => sectionDraft(s.name, s.websiteIds.map(String))),
  );
  const form = useForm(
    {
      customerId: String(page?.customerId ?? query.customerId ?? ''),
      title: page?.title ?? '',
      slug: page?.slug ?? '',
      allSites: page ? page.websiteIds === null : true,
      websiteIds: (page?.websiteIds ?? []).map(String),
      logoUrl: page?.branding.logoUrl ?? '',
      accentColor: page?.branding.accentColor ?? '',
      footerText: page?.branding.footerText ?? '',
      public: page?.public ?? false,
      showResponseTimes: page?.showResponseTimes ?? true,
      noticeDays: String(page?.maintenanceNoticeDays ?? 7),
      embed: (page?.embedAllowedOrigins ?? []).join('\n'),
      accessMode: page?.access.mode ?? 'public',
      password: '',
      cidrs: (page?.access.cidrs ?? []).join('\n'),
      language: page?.language ?? 'en',
      timezone: page?.timezone ?? 'UTC',
    },
    {
      schema: page ? patchStatusPageBody : createStatusPageBody,
      body: (v) => ({
        // None chosen: the schema says it is required, and nothing is sent.
        ...(page ? {} : { customerId: (v.customerId ? Number(v.customerId) : undefined) as number }),
        title: v.title,
        slug: v.slug,
        websiteIds: v.allSites ? null : v.websiteIds.map(Number),
        branding: {
          logoUrl: v.logoUrl || null,
          accentColor: v.accentColor || null,
          footerText: v.footerText || null,
        },
        public: v.public,
        showResponseTimes: v.showResponseTimes,
        maintenanceNoticeDays: Number(v.noticeDays),
        embedAllowedOrigins: v.embed
          .split(/[\n,]/)
          .map((o) => o.trim())
          .filter(Boolean),
        access: accessBody(v),
        language: v.language as (typeof LANGUAGES)[number]['code'],
        timezone: v.timezone.trim(),
        sections: sectionsBody(sections),
      }),
    },
  );
  const { values, errors } = form;
  const websites = useCustomerWebsites(values.customerId ? Number(values.customerId) : null);
  // What a section may hold: the websites the page shows.
  const shownWebsites = (websites.data ?? []).filter(
    (w) => values.allSites || values.websiteIds.includes(String(w.id)),
  );

  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = page
      ? await write(
          api.PATCH('/api/status-pages/{id}', { params: { path: { id: page.id } }, body }),
          statusPageKeys.all,
        )
      : await write(
          api.POST('/api/status-pages', { body: { ...body, customerId: Number(values.customerId) } }),
          statusPageKeys.all,
        );
    if (form.answered(answer) && answer.data) {
      // Write-only: the field empties once the password is saved.
      form.set('password', '');
      onSaved(answer.data);
    }
  };

  return (
    <form onSubmit={save} noValidate aria-label={page ? 'Status page settings' : 'New status page'}>
      {form.saved && page && <Notice>Saved.</Notice>}
      <FormError message={form.message} />
      <Field
        label="Customer"
        error={errors.customerId}
        hint={page ? 'A page stays with its customer.' : undefined}
      >
        {(props) => (
          <select
            {...props}
            required
            disabled={page !== null}
            value={values.customerId}
            onChange={(e) => {
              form.set('customerId', e.currentTarget.value);
              form.set('websiteIds', []);
            }}
          >
            <CustomerOptions customers={customers.data} />
          </select>
        )}
      </Field>
      <Field label="Page title" error={errors.title}>
        {(props) => <input {...props} required {...form.bind('title')} />}
      </Field>
      <Field
        label="Address (slug)"
        error={errors.slug}
        hint={`The page is served at ${publicLink(values.slug || 'your-slug')}; lowercase letters, digits and dashes.`}
      >
        {(props) => <input {...props} required autoCapitalize="none" {...form.bind('slug')} />}
      </Field>
      <fieldset>
        <legend>Websites shown</legend>
        <Check
          label="All the customer’s websites, as they come and go"
          checked={values.allSites}
          onChange={(on) => form.set('allSites', on)}
          error={errors.websiteIds}
        />
        {!values.allSites && websites.data?.length === 0 && (
          <p class="muted">This customer has no websites yet.</p>
        )}
        {!values.allSites && (
          <div class="row">
            {websites.data?.map((w) => (
              <Check
                key={w.id}
                label={w.name}
                checked={values.websiteIds.includes(String(w.id))}
                onChange={(on) =>
                  form.set(
                    'websiteIds',
                    on
                      ? [...values.websiteIds, String(w.id)]
                      : values.websiteIds.filter((i) => i !== String(w.id)),
                  )
                }
              />
            ))}
          </div>
        )}
      </fieldset>
      <fieldset>
        <legend>Branding</legend>
        <Field label="Logo URL (optional)" error={errors['branding.logoUrl']} hint="An https:// image.">
          {(props) => <input {...props} type="url" {...form.bind('logoUrl', 'branding.logoUrl')} />}
        </Field>
        <Field
          label="Accent colour (optional)"
          error={errors['branding.accentColor']}
          hint="Hex, e.g. #1f5fbf."
        >
          {(props) => <input {...props} {...form.bind('accentColor', 'branding.accentColor')} />}
        </Field>
        <Field label="Footer text (optional)" error={errors['branding.footerText']}>
          {(props) => <input {...props} {...form.bind('footerText', 'branding.footerText')} />}
        </Field>
      </fieldset>
      <fieldset>
        <legend>Language and time</legend>
        <Field
          label="Language"
          error={errors.language}
          hint="Every word visitors and subscribers read: the page, its forms and its mails."
        >
          {(props) => (
            <select {...props} {...form.bind('language')}>
              {LANGUAGES.map((language) => (
                <option value={language.code} lang={language.code}>
                  {language.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Time zone"
          error={errors.timezone}
          hint="An IANA time zone such as Europe/Berlin: dates and times are shown in it, the zone named."
        >
          {(props) => (
            <>
              <input
                {...props}
                list="status-page-time-zones"
                autoCapitalize="none"
                spellcheck={false}
                {...form.bind('timezone')}
              />
              <datalist id="status-page-time-zones">
                {TIME_ZONES.map((zone) => (
                  <option value={zone} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      </fieldset>
      <SectionFields sections={sections} onChange={setSections} websites={shownWebsites} errors={errors} />
      <Field
        label="Announce maintenance this many days ahead"
        error={errors.maintenanceNoticeDays}
        hint="The page lists its websites’ maintenance windows from this long before they begin (0–90)."
      >
        {(props) => (
          <input
            {...props}
            type="number"
            min={0}
            max={90}
            {...form.bind('noticeDays', 'maintenanceNoticeDays')}
          />
        )}
      </Field>
      <Check
        label="Published: served at its address (who may see it: Access below)"
        checked={values.public}
        onChange={(on) => form.set('public', on)}
        error={errors.public}
      />
      <AccessFields
        values={values}
        errors={errors}
        passwordSet={page?.access.passwordSet ?? false}
        onMode={(mode) => form.set('accessMode', mode)}
        bind={(key, path) => form.bind(key, path)}
      />
      <Check
        label="Show response times"
        checked={values.showResponseTimes}
        onChange={(on) => form.set('showResponseTimes', on)}
        error={errors.showResponseTimes}
      />
      <Field
        label="Sites that may embed it (optional)"
        error={errors.embedAllowedOrigins ?? errors['embedAllowedOrigins.0']}
        hint="Origins such as https://shop.example, one per line; none: no site may frame it."
      >
        {(props) => <textarea {...props} rows={2} {...form.bind('embed', 'embedAllowedOrigins')} />}
      </Field>
      <button type="submit" class="primary">
        {page ? 'Save the status page' : 'Create the status page'}
      </button>
    </form>
  );
}
