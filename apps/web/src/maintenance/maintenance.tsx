import { useState } from 'preact/hooks';
import { maintenanceKeys, windowsOfEveryWebsite } from '../api/maintenance.js';
import { useApiQuery } from '../api/query.js';
import { FormError } from '../ui/form.js';
import { describeRecurrence } from './recurrence-text.js';
import { formatIn } from './zoned-time.js';

/** Every window of the organization, website by website (the API lists them per website). */
export function Maintenance() {
  const [progress, setProgress] = useState<{ done: number; of: number } | null>(null);
  const all = useApiQuery([...maintenanceKeys.all, 'every website'], () =>
    windowsOfEveryWebsite(setProgress),
  );
  return (
    <section>
      <h1>Maintenance</h1>
      <p>Planned work: checks go on, but no incident opens and no alert goes out while a window runs.</p>
      <FormError message={all.error} />
      {!all.data && progress && (
        <p role="status">
          Reading the windows of {progress.of} websites…{' '}
          <progress max={progress.of} value={progress.done} aria-label="Websites read" /> {progress.done}/
          {progress.of}
        </p>
      )}
      {all.data?.length === 0 && (
        <p>No maintenance windows yet: open a website’s page and add one under “Maintenance”.</p>
      )}
      {all.data?.map(({ website, windows }) => (
        <div class="group" key={website.id}>
          <h2>
            <a href={`/websites/${website.publicId}`}>{website.name}</a>
          </h2>
          <ul>
            {windows.map((w) => (
              <li key={w.id}>
                <strong>{w.title}</strong>: {formatIn(w.startsAt, w.timezone)} –{' '}
                {formatIn(w.endsAt, w.timezone)} ({w.timezone}); {describeRecurrence(w)}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {all.data && all.data.length > 0 && (
        <p class="muted">To change or delete a window, open its website’s page.</p>
      )}
    </section>
  );
}
