import { useState } from 'preact/hooks';
import { api, fieldErrors, problemText, type Schemas } from '../api/client.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { useLoad } from '../ui/use-load.js';

/** Creates a customer, or edits one: name, e-mails and package. */
export function CustomerForm({
  customer,
  onSaved,
}: {
  customer: Schemas['Customer'] | null;
  onSaved: (customer: Schemas['Customer']) => void;
}) {
  // Packages are listed for admins; others type the package's id.
  const packages = useLoad(async () => (await api.GET('/api/packages')).data ?? null, []);
  const [name, setName] = useState(customer?.name ?? '');
  const [email, setEmail] = useState(customer?.email ?? '');
  const [notificationEmail, setNotificationEmail] = useState(customer?.notificationEmail ?? '');
  const [packageId, setPackageId] = useState(customer ? String(customer.packageId) : '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const answer = customer
      ? await api.PATCH('/api/customers/{id}', {
          params: { path: { id: customer.id } },
          body: {
            name,
            email: email || null,
            notificationEmail: notificationEmail || null,
            packageId: Number(packageId),
          },
        })
      : await api.POST('/api/customers', {
          body: {
            name,
            packageId: Number(packageId),
            ...(email ? { email } : {}),
            ...(notificationEmail ? { notificationEmail } : {}),
          },
        });
    if (answer.data) {
      setErrors({});
      setMessage(null);
      setSaved(true);
      if (!customer) {
        setName('');
        setEmail('');
        setNotificationEmail('');
      }
      onSaved(answer.data);
    } else {
      setErrors(fieldErrors(answer.error));
      setMessage(problemText(answer.error));
    }
  };

  return (
    <form onSubmit={save} noValidate aria-label={customer ? 'Edit the customer' : 'New customer'}>
      {saved && customer && <Notice>Saved.</Notice>}
      <FormError message={message} />
      <Field label="Customer name" error={errors.name}>
        {(props) => (
          <input {...props} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <Field
        label="Package"
        error={errors.packageId}
        hint={
          packages.data
            ? undefined
            : `The package’s id (only admins list packages)${customer ? `; now: ${customer.packageDisplayName}` : ''}`
        }
      >
        {(props) =>
          packages.data ? (
            <select
              {...props}
              required
              value={packageId}
              onChange={(e) => setPackageId(e.currentTarget.value)}
            >
              <option value="">Choose a package</option>
              {packages.data.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.displayName}
                </option>
              ))}
            </select>
          ) : (
            <input
              {...props}
              inputMode="numeric"
              required
              value={packageId}
              onInput={(e) => setPackageId(e.currentTarget.value)}
            />
          )
        }
      </Field>
      {packages.data?.length === 0 && (
        <p class="muted">
          No packages yet: an admin creates one first (POST /api/packages or `npm run admin`).
        </p>
      )}
      <div class="row">
        <Field label="Contact e-mail (optional)" error={errors.email}>
          {(props) => (
            <input {...props} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Alert e-mail (optional)" error={errors.notificationEmail}>
          {(props) => (
            <input
              {...props}
              type="email"
              value={notificationEmail}
              onInput={(e) => setNotificationEmail(e.currentTarget.value)}
            />
          )}
        </Field>
      </div>
      <button type="submit" class="primary">
        {customer ? 'Save the customer' : 'Create the customer'}
      </button>
    </form>
  );
}
