import { useState } from 'preact/hooks';
import { api, problemText } from '../api/client.js';
import { maintenanceKeys, useWebsiteWindows, type MaintenanceWindow as Window } from '../api/maintenance.js';
import { write } from '../api/query.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { FormError } from '../ui/form.js';
import { describeRecurrence } from './recurrence-text.js';
import { WindowForm } from './window-form.js';
import { formatIn } from './zoned-time.js';

/** A website's windows with their editor: on the website's page. */
export function WebsiteMaintenance({ websiteId }: { websiteId: number }) {
  const { caller } = useSession();
  const editor = canEdit(caller);
  const windows = useWebsiteWindows(websiteId);
  const [editing, setEditing] = useState<Window | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Window | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const remove = async (window: Window) => {
    setDeleting(null);
    const { error, response } = await write(
      api.DELETE('/api/maintenance-windows/{id}', { params: { path: { id: window.id } } }),
      maintenanceKeys.all,
    );
    setMessage(response.ok ? null : problemText(error));
  };
  return (
    <div id="maintenance">
      <FormError message={message ?? windows.error} />
      {windows.data?.length === 0 && (
        <p>
          No maintenance windows.{' '}
          {editor && 'Plan one so that planned work neither opens incidents nor sends alerts.'}
        </p>
      )}
      {windows.data && windows.data.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">First</th>
              <th scope="col">Repeats</th>
              {editor && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {windows.data.map((w) => (
              <tr key={w.id}>
                <td data-label="Title">{w.title}</td>
                <td data-label="First">
                  {formatIn(w.startsAt, w.timezone)} – {formatIn(w.endsAt, w.timezone)}{' '}
                  <span class="muted">({w.timezone})</span>
                </td>
                <td data-label="Repeats">{describeRecurrence(w)}</td>
                {editor && (
                  <td data-label="Actions">
                    <ul class="inline">
                      <li>
                        <button type="button" class="link" onClick={() => setEditing(w)}>
                          Edit <span class="visually-hidden">{w.title}</span>
                        </button>
                      </li>
                      <li>
                        <button type="button" class="link" onClick={() => setDeleting(w)}>
                          Delete <span class="visually-hidden">{w.title}</span>
                        </button>
                      </li>
                    </ul>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editor && editing === null && (
        <p>
          <button type="button" onClick={() => setEditing('new')}>
            Add a maintenance window
          </button>
        </p>
      )}
      {editor && editing !== null && (
        <WindowForm
          key={editing === 'new' ? 'new' : editing.id}
          websiteId={websiteId}
          window={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      )}
      <Confirm
        open={deleting !== null}
        title={`Delete the window “${deleting?.title ?? ''}”?`}
        confirmLabel="Delete the window"
        cancelLabel="Keep it"
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        Its occurrences stop; one running now ends at once and checks count again.
      </Confirm>
    </div>
  );
}
