import type { Customer } from '../api/customers.js';

/** A customer select's options: none chosen first, then each customer by name (its id the value). */
export function CustomerOptions({ customers }: { customers: Customer[] | undefined }) {
  return (
    <>
      <option value="">Choose a customer</option>
      {customers?.map((c) => (
        <option key={c.id} value={String(c.id)}>
          {c.name}
        </option>
      ))}
    </>
  );
}
