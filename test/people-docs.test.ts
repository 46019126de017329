import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROLES } from '../libs/contract/index.js';

const api = readFileSync('docs/api.md', 'utf8');
const architecture = readFileSync('docs/architecture.md', 'utf8');

/** What the people feature's documentation must keep saying (issue 24: "docs/api.md has the role table"). */
describe('people: the documentation', () => {
  it('docs/api.md has a row for every role, with its scopes', () => {
    for (const role of ROLES)
      expect(api).toMatch(new RegExp(`^\\| \`${role}\` +\\| .+\\| (read|read, )`, 'm'));
  });

  it('docs/api.md describes personal tokens and packages read with the read scope', () => {
    for (const route of ['POST\n?\\s*/api/me/tokens', 'GET /api/me/tokens', 'DELETE /api/me/tokens/\\{id\\}'])
      expect(api).toMatch(new RegExp(route));
    expect(api).toMatch(/`read` +\| GET everything of its organization \(packages too\)/);
    expect(api).toContain('`GET /api/packages` (its customer');
  });

  it('docs/architecture.md lists libs/audit among the libraries', () => {
    expect(architecture).toMatch(/^\| `libs\/audit` +\| the audit log/m);
  });
});
