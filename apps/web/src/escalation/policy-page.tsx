import './escalation.css';
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, problemText } from '../api/client.js';
import { policyKeys, usePolicy } from '../api/escalation.js';
import { invalidate } from '../api/query.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { FormError, Loading } from '../ui/form.js';
import { PolicyForm } from './policy-form.js';
import { PolicySteps } from './policy-steps.js';
import { useTargetDirectory } from './target-directory.js';

/** An escalation policy (`/escalation-policies/new`: a new one): its steps, for editors its form and deletion. */
export function EscalationPolicyPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const { caller } = useSession();
  const editor = canEdit(caller);
  const policy = usePolicy(params.ref === 'new' ? null : Number(params.ref));
  const { directory, error } = useTargetDirectory();
  const [deleting, setDeleting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  if (policy.notFound)
    return (
      <section>
        <h1>Policy not found</h1>
        <p>
          <a href="/escalation-policies">Back to the escalation policies</a>
        </p>
      </section>
    );
  if (policy.data === undefined) return <Loading error={policy.error} />;
  const p = policy.data;
  const remove = async () => {
    setDeleting(false);
    if (!p) return;
    const answer = await api.DELETE('/api/escalation-policies/{id}', { params: { path: { id: p.id } } });
    // 409: a website, a customer or the default uses it; the API names them.
    if (!answer.response.ok) return setRefusal(problemText(answer.error));
    route('/escalation-policies');
    await invalidate(policyKeys.all);
  };
  return (
    <section>
      <p>
        <a href="/escalation-policies">← Escalation policies</a>
      </p>
      <h1>{p ? p.name : 'Create an escalation policy'}</h1>
      <FormError message={error} />
      {p && !editor && <PolicySteps policy={p} directory={directory} />}
      {editor && (
        <PolicyForm
          key={p?.id ?? 'new'}
          policy={p}
          directory={directory}
          onSaved={(saved) => {
            if (!p) route(`/escalation-policies/${saved.id}`);
          }}
        />
      )}
      {p && editor && (
        <section aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete</h2>
          <p class="muted">Incidents escalating by it now keep their steps until they end.</p>
          <FormError message={refusal} />
          <button type="button" class="danger" onClick={() => setDeleting(true)}>
            Delete the policy…
          </button>
          <Confirm
            open={deleting}
            title={`Delete ${p.name}?`}
            confirmLabel="Delete the policy"
            cancelLabel="Keep it"
            onConfirm={() => void remove()}
            onCancel={() => setDeleting(false)}
          >
            It can only go while no website, customer or the organization’s default uses it.
          </Confirm>
        </section>
      )}
    </section>
  );
}
