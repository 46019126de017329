import type { Schemas } from '../api/client.js';
import { Field } from '../ui/form.js';
import type { RoleMappingRule } from './sso-api.js';

export const ROLE_NAMES = ['viewer', 'editor', 'admin', 'owner', 'client'] as const;
type RoleName = (typeof ROLE_NAMES)[number];

/** A rule as its row edits it: every field a string, whichever kind it is. */
export interface RuleRow {
  kind: 'group' | 'claim';
  name: string;
  value: string;
  role: RoleName;
  customerId: string;
}

export const emptyRule = (): RuleRow => ({
  kind: 'group',
  name: '',
  value: '',
  role: 'viewer',
  customerId: '',
});

export function ruleRowOf(rule: RoleMappingRule): RuleRow {
  const customerId = rule.customerId === undefined ? '' : String(rule.customerId);
  return 'group' in rule
    ? { kind: 'group', name: rule.group, value: '', role: rule.role, customerId }
    : { kind: 'claim', name: rule.claim, value: rule.value ?? '', role: rule.role, customerId };
}

/** The API's rule of a row (the customer only for the client role, as the API wants). */
export function ruleOfRow(row: RuleRow): RoleMappingRule {
  const target = {
    role: row.role,
    ...(row.role === 'client' && row.customerId ? { customerId: Number(row.customerId) } : {}),
  };
  if (row.kind === 'group') return { group: row.name.trim(), ...target };
  return { claim: row.name.trim(), ...(row.value.trim() ? { value: row.value.trim() } : {}), ...target };
}

/**
 * The role mapping's rows: a group (or a claim, with the value it must have) and the role it gives;
 * the client role names its customer. The highest staff role among a person's rules wins.
 */
export function RoleRules({
  rows,
  onChange,
  customers,
  errors,
  intro,
}: {
  rows: RuleRow[];
  onChange: (rows: RuleRow[]) => void;
  customers: Schemas['Customer'][];
  errors: Record<string, string>;
  /** When the rules are applied, in the words of the screen using them (default: at each sign-in). */
  intro?: string;
}) {
  const change = (index: number, patch: Partial<RuleRow>) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  return (
    <fieldset class="role-rules">
      <legend>Role mapping</legend>
      <p class="muted">
        {intro ??
          'Each sign-in gives the highest staff role among the rules a person matches (else the client role of the one customer their rules name, else the default role); a person no rule matches is refused.'}
      </p>
      {rows.length === 0 && <p>No rules: everyone gets the default role (or is refused without one).</p>}
      <ol class="rule-rows">
        {rows.map((row, index) => {
          const at = (field: string) => errors[`roleMapping.${index}.${field}`];
          const n = index + 1;
          return (
            <li key={index} class="rule-row">
              <Field label={`Rule ${n}: match`}>
                {(props) => (
                  <select
                    {...props}
                    value={row.kind}
                    onChange={(e) => change(index, { kind: e.currentTarget.value as RuleRow['kind'] })}
                  >
                    <option value="group">a group</option>
                    <option value="claim">a claim or attribute</option>
                  </select>
                )}
              </Field>
              <Field
                label={row.kind === 'group' ? `Rule ${n}: group` : `Rule ${n}: claim`}
                error={at(row.kind)}
              >
                {(props) => (
                  <input
                    {...props}
                    required
                    value={row.name}
                    placeholder={row.kind === 'group' ? 'monitoring-admins' : 'department'}
                    onInput={(e) => change(index, { name: e.currentTarget.value })}
                  />
                )}
              </Field>
              {row.kind === 'claim' && (
                <Field
                  label={`Rule ${n}: value`}
                  error={at('value')}
                  hint="Empty: any value but false or none"
                >
                  {(props) => (
                    <input
                      {...props}
                      value={row.value}
                      onInput={(e) => change(index, { value: e.currentTarget.value })}
                    />
                  )}
                </Field>
              )}
              <Field label={`Rule ${n}: role`} error={at('role')}>
                {(props) => (
                  <select
                    {...props}
                    value={row.role}
                    onChange={(e) => change(index, { role: e.currentTarget.value as RoleName })}
                  >
                    {ROLE_NAMES.map((role) => (
                      <option key={role} value={role}>
                        {role === 'client' ? 'client of a customer' : role}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {row.role === 'client' && (
                <Field label={`Rule ${n}: customer`} error={at('customerId')}>
                  {(props) => (
                    <select
                      {...props}
                      value={row.customerId}
                      onChange={(e) => change(index, { customerId: e.currentTarget.value })}
                    >
                      <option value="">Choose a customer</option>
                      {customers.map((customer) => (
                        <option key={customer.id} value={String(customer.id)}>
                          {customer.name}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              )}
              <button
                type="button"
                class="link"
                onClick={() => onChange(rows.filter((_, at2) => at2 !== index))}
              >
                Remove rule {n}
              </button>
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => onChange([...rows, emptyRule()])}>
        Add a rule
      </button>
    </fieldset>
  );
}
