import { useId } from 'preact/hooks';
import { MAX_PAGE_SECTIONS } from '../../../../libs/status-pages/status-page.schema.js';
import { Check, Field } from '../ui/form.js';

/** A section as the form holds it: a key of its own (for the list's order), its name and websites. */
export interface SectionDraft {
  key: number;
  name: string;
  websiteIds: string[];
}

let nextKey = 1;
export const sectionDraft = (name = '', websiteIds: string[] = []): SectionDraft => ({
  key: nextKey++,
  name,
  websiteIds,
});

/** The body's sections from the drafts, in their order. */
export const sectionsBody = (drafts: readonly SectionDraft[]) =>
  drafts.map((draft) => ({ name: draft.name.trim(), websiteIds: draft.websiteIds.map(Number) }));

/** The errors about a section's websites (`sections.<i>.websiteIds…`), as one line. */
function websiteErrors(errors: Record<string, string>, index: number): string | undefined {
  const prefix = `sections.${index}.websiteIds`;
  const found = Object.entries(errors)
    .filter(([path]) => path === prefix || path.startsWith(`${prefix}.`))
    .map(([, message]) => message);
  return found.length > 0 ? found.join('; ') : undefined;
}

/**
 * The page's sections: named groups of its websites in the order visitors see them. Each can be
 * renamed, moved up or down, removed, and given websites not in another section.
 */
export function SectionFields({
  sections,
  onChange,
  websites,
  errors,
}: {
  sections: readonly SectionDraft[];
  onChange: (sections: SectionDraft[]) => void;
  /** The websites the page shows (the only ones a section may hold). */
  websites: ReadonlyArray<{ id: number; name: string }>;
  errors: Record<string, string>;
}) {
  const hintId = useId();
  const change = (index: number, section: SectionDraft) =>
    onChange(sections.map((current, i) => (i === index ? section : current)));
  const move = (index: number, by: number) => {
    const next = [...sections];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + by, 0, moved);
    onChange(next);
  };
  const holder = new Map(sections.flatMap((s) => s.websiteIds.map((id) => [id, s] as const)));
  const listError = errors.sections;
  return (
    <fieldset aria-describedby={hintId}>
      <legend>Sections</legend>
      <p id={hintId} class="hint">
        Group the page’s websites under headings, in this order. Websites in no section follow under “Other
        websites” (in the page’s language); no sections: one list.
      </p>
      {listError && (
        <p class="error-text">
          <span aria-hidden="true">⚠ </span>
          {listError}
        </p>
      )}
      {sections.map((section, index) => {
        const label = section.name.trim() || `Section ${index + 1}`;
        const websiteError = websiteErrors(errors, index);
        return (
          <fieldset key={section.key} class="section-draft">
            <legend>{`Section ${index + 1}: ${label}`}</legend>
            <Field label="Section name" error={errors[`sections.${index}.name`]}>
              {(props) => (
                <input
                  {...props}
                  required
                  maxLength={100}
                  value={section.name}
                  onInput={(event) => change(index, { ...section, name: event.currentTarget.value })}
                />
              )}
            </Field>
            <fieldset class="plain">
              <legend>{`Websites in ${label}`}</legend>
              {websites.length === 0 && <p class="muted">The page shows no websites yet.</p>}
              {websites.map((website) => {
                const id = String(website.id);
                const elsewhere = holder.get(id);
                const inOther = elsewhere !== undefined && elsewhere.key !== section.key;
                return (
                  <Check
                    key={website.id}
                    label={
                      inOther
                        ? `${website.name} (in ${elsewhere.name.trim() || 'another section'})`
                        : website.name
                    }
                    checked={section.websiteIds.includes(id)}
                    disabled={inOther}
                    onChange={(on) =>
                      change(index, {
                        ...section,
                        websiteIds: on
                          ? [...section.websiteIds, id]
                          : section.websiteIds.filter((other) => other !== id),
                      })
                    }
                  />
                );
              })}
              {websiteError && (
                <p class="error-text">
                  <span aria-hidden="true">⚠ </span>
                  {websiteError}
                </p>
              )}
            </fieldset>
            <div class="row">
              <button
                type="button"
                disabled={index === 0}
                aria-label={`Move up: ${label}`}
                onClick={() => move(index, -1)}
              >
                Move up
              </button>
              <button
                type="button"
                disabled={index === sections.length - 1}
                aria-label={`Move down: ${label}`}
                onClick={() => move(index, 1)}
              >
                Move down
              </button>
              <button
                type="button"
                class="danger"
                aria-label={`Remove ${label}`}
                onClick={() => onChange(sections.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </div>
          </fieldset>
        );
      })}
      <button
        type="button"
        disabled={sections.length >= MAX_PAGE_SECTIONS}
        onClick={() => onChange([...sections, sectionDraft()])}
      >
        Add a section
      </button>
    </fieldset>
  );
}
