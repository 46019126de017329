import { z } from 'zod';
import { scopeList, toTokenView } from '../../../libs/auth/index.js';
import { parseWith, print, required, UsageError } from './command-line.js';
import type { AdminCommand } from './context.js';

/** API tokens: made, revoked by prefix and listed (never the secrets). */
export const tokenCommands: Record<string, AdminCommand> = {
  'create-token': async ({ values, tokens, requireOrganization }) => {
    const id = await requireOrganization(values.org);
    const scopes = parseWith(scopeList, required(values.scopes, '--scopes').split(','), '--scopes');
    const name = parseWith(z.string().trim().min(1).max(100), values.name ?? 'cli', '--name');
    const { record, token } = await tokens.create({ organizationId: id, name, scopes });
    print({ organizationId: id, tokenId: record.id, scopes, token });
  },
  'revoke-token': async ({ values, tokens }) => {
    const prefix = required(values['token-prefix'], '--token-prefix');
    if (!/^wm_[A-Za-z0-9_-]{8}$/.test(prefix))
      throw new UsageError(
        '--token-prefix: give the 11-character prefix shown by list-tokens (wm_ and 8 more)',
      );
    const matches = (await tokens.findByPrefix(prefix)).filter((t) => t.revokedAt === null);
    if (matches.length === 0) throw new Error(`no active token with prefix ${prefix}`);
    if (matches.length > 1)
      throw new Error(`${matches.length} active tokens share prefix ${prefix}; revoke by id over the API`);
    const token = matches[0]!;
    await tokens.revoke(token.organizationId, token.id);
    print({ revoked: true, organizationId: token.organizationId, tokenId: token.id, prefix });
  },
  'list-tokens': async ({ values, tokens, requireOrganization }) => {
    const list = values.org
      ? await tokens.list(await requireOrganization(values.org))
      : await tokens.listAll();
    for (const token of list) print({ organizationId: token.organizationId, ...toTokenView(token) });
  },
};
