import './contact-methods.css';
import { useState } from 'preact/hooks';
import { api, problemText } from '../api/client.js';
import { type ContactMethod, contactMethodKeys, useContactMethods } from '../api/contact-methods.js';
import { write } from '../api/query.js';
import { Confirm } from '../ui/confirm.js';
import { FormError, Notice } from '../ui/form.js';
import { AddMethodForm, EditMethodForm } from './contact-method-form.js';
import { VerifyMethod } from './contact-method-verify.js';
import { eventsText, hoursText, METHOD_TYPES } from './contact-method-words.js';

/**
 * The signed-in person's contact methods: how escalation policies page them. Each is verified by a
 * code sent to it (entered right after adding it), used only in its hours and for its events.
 */
export function ContactMethods() {
  const methods = useContactMethods();
  const [justAdded, setJustAdded] = useState<number | null>(null);
  return (
    <section aria-labelledby="contact-methods-title">
      <h2 id="contact-methods-title">My contact methods</h2>
      <p class="muted">
        How you are reached when an escalation policy pages you, directly or while you are on call. A method
        is used once you enter the code sent to it.
      </p>
      <FormError message={methods.error} />
      {methods.data?.length === 0 && <p>None yet: you cannot be paged until you add one.</p>}
      {methods.data && methods.data.length > 0 && (
        <ul class="contact-methods">
          {methods.data.map((method) => (
            <MethodItem key={method.id} method={method} justAdded={method.id === justAdded} />
          ))}
        </ul>
      )}
      <AddMethodForm onAdded={(method) => setJustAdded(method.id)} />
    </section>
  );
}

function MethodItem({ method, justAdded }: { method: ContactMethod; justAdded: boolean }) {
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const name = `${METHOD_TYPES[method.type].name} ${method.address}`;
  const remove = async () => {
    setRemoving(false);
    const { error, response } = await write(
      api.DELETE('/api/me/contact-methods/{id}', { params: { path: { id: method.id } } }),
      contactMethodKeys.mine,
    );
    if (!response.ok) setFailure(problemText(error));
  };
  return (
    <li>
      <p>
        <strong>{METHOD_TYPES[method.type].name}</strong> <span class="address">{method.address}</span>
        {method.label && <span class="muted"> ({method.label})</span>}{' '}
        {method.verified ? (
          <span class="status status-up">
            <span aria-hidden="true">✓</span> Verified
          </span>
        ) : (
          <span class="status status-unknown">
            <span aria-hidden="true">○</span> Waiting for its code
          </span>
        )}
      </p>
      <p class="muted">
        {hoursText(method.hours)}; told of {eventsText(method.events)}.
      </p>
      {justAdded && method.verified && <Notice>Verified: you can be paged at {method.address}.</Notice>}
      {!method.verified && <VerifyMethod method={method} justAdded={justAdded} />}
      <FormError message={failure} />
      {editing ? (
        <EditMethodForm method={method} onDone={() => setEditing(false)} />
      ) : (
        <ul class="inline">
          <li>
            <button type="button" class="link" onClick={() => setEditing(true)}>
              Change hours and events<span class="visually-hidden"> of {name}</span>…
            </button>
          </li>
          <li>
            <button type="button" class="link" onClick={() => setRemoving(true)}>
              Remove<span class="visually-hidden"> {name}</span>…
            </button>
          </li>
        </ul>
      )}
      <Confirm
        open={removing}
        title={`Remove ${name}?`}
        confirmLabel="Remove"
        cancelLabel="Keep it"
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(false)}
      >
        You will no longer be paged there. Adding it again needs a new code.
      </Confirm>
    </li>
  );
}
