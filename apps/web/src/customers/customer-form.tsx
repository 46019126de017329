import { createCustomerBody, patchCustomerBody } from '../../../../libs/customers/customer.schema.js';
import { api } from '../api/client.js';
import { type Customer, customerKeys } from '../api/customers.js';
import { useOrganization } from '../api/organization.js';
import { usePackages } from '../api/packages.js';
import { write } from '../api/query.js';
import { PolicyField } from '../escalation/policy-field.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';

/** Creates a customer, or edits one: name, e-mails and package (checked by the API's own schema first). */
export function CustomerForm({
  customer,
  onSaved,
}: {
  customer: Customer | null;
  /** After the API took it (the cache is read again by then). */
  onSaved?: (customer: Customer) => void;
}) {
  // Packages are listed for admins; others type the package's id.
  const packages = usePackages();
  const organization = useOrganization();
  // An e-mail left empty: none for a new customer, cleared on an edit.
  const optional = (address: string) => address || (customer ? null : undefined);
  const blank = { name: '', email: '', notificationEmail: '', packageId: '', escalationPolicyId: '' };
  const form = useForm(
    customer
      ? {
          name: customer.name,
          email: customer.email ?? '',
          notificationEmail: customer.notificationEmail ?? '',
          packageId: String(customer.packageId),
          escalationPolicyId: customer.escalationPolicyId ? String(customer.escalationPolicyId) : '',
        }
      : blank,
    {
      schema: customer ? patchCustomerBody : createCustomerBody,
      body: ({ name, email, notificationEmail, packageId, escalationPolicyId }) => ({
        name,
        // None chosen: the schema says it is required, and nothing is sent.
        packageId: (packageId ? Number(packageId) : undefined) as number,
        email: optional(email),
        notificationEmail: optional(notificationEmail),
        escalationPolicyId: escalationPolicyId ? Number(escalationPolicyId) : null,
      }),
    },
  );
  const { errors } = form;

  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = customer
      ? await write(
          api.PATCH('/api/customers/{id}', { params: { path: { id: customer.id } }, body }),
          customerKeys.all,
        )
      : await write(
          api.POST('/api/customers', {
            body: {
              ...body,
              email: body.email ?? undefined,
              notificationEmail: body.notificationEmail ?? undefined,
            },
          }),
          customerKeys.all,
        );
    if (!form.answered(answer) || !answer.data) return;
    if (!customer) form.reset(blank);
    onSaved?.(answer.data);
  };

  return (
    <form onSubmit={save} noValidate aria-label={customer ? 'Edit the customer' : 'New customer'}>
      {form.saved && customer && <Notice>Saved.</Notice>}
      <FormError message={form.message} />
      <Field label="Customer name" error={errors.name}>
        {(props) => <input {...props} required {...form.bind('name')} />}
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
            <select {...props} required {...form.bind('packageId')}>
              <option value="">Choose a package</option>
              {packages.data.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.displayName}
                </option>
              ))}
            </select>
          ) : (
            <input {...props} inputMode="numeric" required {...form.bind('packageId')} />
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
          {(props) => <input {...props} type="email" {...form.bind('email')} />}
        </Field>
        <Field label="Alert e-mail (optional)" error={errors.notificationEmail}>
          {(props) => <input {...props} type="email" {...form.bind('notificationEmail')} />}
        </Field>
      </div>
      <PolicyField
        about="Its websites’ alerts follow it unless a website chooses its own."
        bound={form.bind('escalationPolicyId')}
        error={errors.escalationPolicyId}
        fallbacks={[{ whose: 'the organization’s default', policyId: organization.data?.escalationPolicyId }]}
      />
      <button type="submit" class="primary">
        {customer ? 'Save the customer' : 'Create the customer'}
      </button>
    </form>
  );
}
