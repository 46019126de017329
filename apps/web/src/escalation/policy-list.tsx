import './escalation.css';
import { usePolicies } from '../api/escalation.js';
import { canEdit, isAdmin, useSession } from '../session.js';
import { FormError } from '../ui/form.js';
import { PolicySteps } from './policy-steps.js';
import { useTargetDirectory } from './target-directory.js';

/** The organization's escalation policies, each with its steps in words. */
export function EscalationPolicies() {
  const { caller } = useSession();
  const policies = usePolicies();
  const { directory, error } = useTargetDirectory();
  const editor = canEdit(caller);
  return (
    <section>
      <h1>Escalation policies</h1>
      <p>
        Who is paged when an incident opens, and who next if nobody acknowledges: on-call people from the{' '}
        <a href="/schedules">schedules</a>, people by their own contact methods, and channels. A website
        follows its own policy, else its customer’s, else the organization’s default
        {isAdmin(caller) && (
          <>
            {' '}
            (<a href="/settings">Settings</a>)
          </>
        )}
        .
      </p>
      <FormError message={policies.error ?? error} />
      {editor && (
        <p>
          <a class="button" href="/escalation-policies/new">
            Create a policy
          </a>
        </p>
      )}
      {policies.data?.length === 0 && (
        <p>
          {editor
            ? 'No policies yet: create one, then choose it on a website, a customer or as the default.'
            : 'No policies yet.'}
        </p>
      )}
      {policies.data && policies.data.length > 0 && (
        <table class="stack policies">
          <thead>
            <tr>
              <th scope="col">Policy</th>
              <th scope="col">Steps</th>
            </tr>
          </thead>
          <tbody>
            {policies.data.map((policy) => (
              <tr key={policy.id}>
                <td data-label="Policy">
                  <a href={`/escalation-policies/${policy.id}`}>{policy.name}</a>
                </td>
                <td data-label="Steps">
                  <PolicySteps policy={policy} directory={directory} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
