import { usePolicies } from '../api/escalation.js';
import { Field } from '../ui/form.js';
import type { Bound } from '../ui/use-form.js';
import { noneLabel } from './policy-words.js';

/**
 * The escalation policy a website, a customer or the organization follows: a select of the
 * organization's policies whose "none" says what it falls back to (`fallbacks`: the levels above,
 * nearest first, each with the policy id it names).
 */
export function PolicyField({
  label = 'Escalation policy',
  about = 'Who is paged, in which order, until someone acknowledges.',
  bound,
  error,
  fallbacks,
}: {
  label?: string;
  /** What the choice is for, before the link to the policies. */
  about?: string;
  /** The control's value (a policy's id, '' for none), as `form.bind` gives it. */
  bound: Bound;
  error?: string | undefined;
  fallbacks: readonly { whose: string; policyId: number | null | undefined }[];
}) {
  const policies = usePolicies();
  const nameOf = (id: number) => policies.data?.find((p) => p.id === id)?.name ?? `policy ${id}`;
  const known = policies.data?.some((p) => String(p.id) === bound.value) ?? false;
  return (
    <Field
      label={label}
      error={error ?? policies.error ?? undefined}
      hint={
        <>
          {about}{' '}
          {policies.data?.length === 0 ? (
            <a href="/escalation-policies/new">Create the first policy</a>
          ) : (
            <a href="/escalation-policies">The escalation policies</a>
          )}
        </>
      }
    >
      {(props) => (
        <select {...props} {...bound}>
          <option value="">
            {noneLabel(
              fallbacks.map((f) => ({ whose: f.whose, policy: f.policyId ? nameOf(f.policyId) : null })),
            )}
          </option>
          {/* Still shown while the list loads (or if it could not be read). */}
          {bound.value && !known && <option value={bound.value}>{nameOf(Number(bound.value))}</option>}
          {policies.data?.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
