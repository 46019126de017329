import { z } from 'zod';
import { type AuthContext, idParams } from '../../../libs/contract/index.js';
import { invalidInput, notAllowed, notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import {
  createdScimTokenView,
  createScimTokenBody,
  type ScimTokenRepository,
  scimTokenView,
  toScimTokenView,
} from '../../../libs/scim/index.js';

const TAGS = ['SCIM'];

/** The owner or admin signed in: a SCIM token provisions people, so a person answers for it. */
function maker(auth: AuthContext): { userId: number; role: 'owner' | 'admin' } {
  if (auth.userId === undefined || (auth.role !== 'owner' && auth.role !== 'admin'))
    throw notAllowed(
      'SCIM tokens are made by an owner or admin signed in with the session cookie, not by an API token.',
    );
  return { userId: auth.userId, role: auth.role };
}

/** `/api/scim-tokens`: the organization's SCIM tokens, each shown once; rotation is a new one, then the old revoked. */
export function scimTokenRoutes(deps: {
  tokens: ScimTokenRepository;
  customerExists(organizationId: number, customerId: number): Promise<boolean>;
  /** The organization's identity provider (null: none such): what it says of roles. */
  identityProvider(
    organizationId: number,
    id: number,
  ): Promise<{ defaultRole: unknown; customerId: number | null } | null>;
  /** The SCIM base URL clients are given: PUBLIC_URL's, else this request's origin. */
  baseUrl(origin: string): string;
}): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/scim-tokens',
      operationId: 'listScimTokens',
      summary: "The organization's SCIM tokens, revoked ones too (never the tokens themselves)",
      description: 'For owners and admins signed in (an API token is refused: 403).',
      tags: TAGS,
      access: 'admin',
      success: { status: 200, description: 'SCIM tokens, oldest first', schema: z.array(scimTokenView) },
      handle: async ({ auth }) => {
        maker(auth);
        return (await deps.tokens.list(auth.organizationId)).map(toScimTokenView);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/scim-tokens',
      operationId: 'createScimToken',
      summary: 'Make a SCIM token for a provisioning client (Entra ID, Okta); the answer shows it once',
      description:
        "Its role mapping decides people's roles from their SCIM groups (the highest role their groups map to, else `defaultRole`). Only an owner makes a token that may give the owner role, and a token made by an admin cannot change, deactivate or delete owners.",
      tags: TAGS,
      access: 'admin',
      body: createScimTokenBody,
      // A token is refused before its body is read, as it would be with any body.
      admit: async (auth) => {
        maker(auth);
        return { release() {} };
      },
      success: {
        status: 201,
        description: 'Made',
        schema: createdScimTokenView,
        headers: ['Cache-Control'],
      },
      handle: async ({ auth, body, ctx }) => {
        const person = maker(auth);
        if (body.identityProviderId !== undefined && body.roleMapping.length > 0)
          throw invalidInput(
            "With an identity provider, its role mapping decides: edit the provider's rules",
            [{ path: 'roleMapping', message: 'must be empty with identityProviderId' }],
          );
        const targets = [
          ...body.roleMapping.map((rule, index) => ({ ...rule, path: `roleMapping.${index}` })),
          { ...body.defaultRole, path: 'defaultRole' },
        ];
        for (const target of targets) {
          if (target.role === 'owner' && person.role !== 'owner')
            throw notAllowed('Only an owner makes a SCIM token that may give the owner role.', [
              { path: `${target.path}.role`, message: 'only an owner may map to owner' },
            ]);
          if (
            target.customerId !== undefined &&
            !(await deps.customerExists(auth.organizationId, target.customerId))
          )
            throw invalidInput(`No customer ${target.customerId} in this organization`, [
              { path: `${target.path}.customerId`, message: 'no such customer in this organization' },
            ]);
        }
        if (body.identityProviderId !== undefined) {
          const provider = await deps.identityProvider(auth.organizationId, body.identityProviderId);
          if (!provider)
            throw invalidInput(`No identity provider ${body.identityProviderId} in this organization`, [
              { path: 'identityProviderId', message: 'no such identity provider in this organization' },
            ]);
          // SCIM gives the roles signing in through the provider gives: a person no rule maps (every
          // new one, before their groups come) needs the provider's default role.
          if (provider.customerId === null && provider.defaultRole === null)
            throw invalidInput(
              `Identity provider ${body.identityProviderId} has no default role, so the people SCIM makes would get none; set the provider's default role first`,
              [
                {
                  path: 'identityProviderId',
                  message: "the provider has no default role: set the provider's default role first",
                },
              ],
            );
        }
        const { record, token } = await deps.tokens.create({
          organizationId: auth.organizationId,
          name: body.name,
          identityProviderId: body.identityProviderId ?? null,
          roleMapping: body.roleMapping,
          defaultRole: { role: body.defaultRole.role, customerId: body.defaultRole.customerId ?? null },
          grant: person.role,
          createdBy: person.userId,
        });
        ctx.set('Location', `/api/scim-tokens/${record.id}`);
        ctx.set('Cache-Control', 'no-store');
        return { ...toScimTokenView(record), token, baseUrl: deps.baseUrl(ctx.origin) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/scim-tokens/:id',
      operationId: 'revokeScimToken',
      summary: 'Revoke a SCIM token (its client is refused from its next request)',
      tags: TAGS,
      access: 'admin',
      params: idParams,
      success: { status: 204, description: 'Revoked' },
      handle: async ({ auth, params }) => {
        maker(auth);
        if (!(await deps.tokens.revoke(auth.organizationId, params.id)))
          throw notFound(`No active SCIM token ${params.id}`);
      },
    }),
  ];
}
