import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/index.js';
import { SecretBox } from '../secrets/index.js';
import { apiFlowKind } from './kinds/api-flow/api-flow.kind.js';
import { browserKind } from './kinds/browser/browser.kind.js';
import { openedSettings, sealSettings } from './sealed-settings.js';

const box = new SecretBox(randomBytes(32));

function sealing(kind: typeof apiFlowKind | typeof browserKind, secrets: Record<string, string>) {
  const settings = { secrets };
  return () => sealSettings(kind, settings, settings, [], box);
}

describe('sealing a monitor’s secrets', () => {
  it.each([
    ['an API flow', apiFlowKind],
    ['a browser journey', browserKind],
  ])(
    'refuses, in %s, a secret too short to be masked, naming it; the parse alone still takes it (stored ones run)',
    (_kind, kind) => {
      const refused = (() => {
        try {
          sealing(kind, { PASSWORD: 'hunter22', PIN: '123' })();
        } catch (error) {
          return error;
        }
      })();
      expect(refused).toBeInstanceOf(DomainError);
      expect((refused as DomainError).errors).toEqual([
        {
          path: 'secrets.PIN',
          message: 'Must be at least 4 characters: shorter values cannot be masked in results',
        },
      ]);
      expect(
        kind.settings.safeParse({ steps: [], secrets: { PIN: '123' } }).error?.issues ?? [],
      ).not.toContainEqual(expect.objectContaining({ path: ['secrets', 'PIN'] }));
    },
  );

  it('seals a secret of four characters or more, never keeping it in the settings, and opens it to run', () => {
    const { settings, sealed } = sealing(apiFlowKind, { PIN: '1234' })();
    expect(settings).toEqual({ secrets: {} });
    expect(JSON.stringify(sealed)).not.toContain('1234');
    expect(openedSettings(apiFlowKind, settings, sealed, box)).toEqual({ secrets: { PIN: '1234' } });
  });
});
