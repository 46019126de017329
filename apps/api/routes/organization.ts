import { z } from 'zod';
import type { Organization, OrganizationRepository } from '../../../libs/auth/index.js';
import { invalidInput, notAllowed, notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import {
  isLogoOfType,
  LOGO_TYPES,
  type LogoStore,
  MAX_LOGO_BYTES,
  patchOrganizationBody,
} from '../../../libs/organizations/index.js';

export const organizationView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    timezone: z.string().describe('Reports’ days and schedules are in it'),
    branding: z.object({
      accentColor: z.string().nullable(),
      footerText: z.string().nullable(),
      logo: z
        .object({ contentType: z.enum(LOGO_TYPES), sha256: z.string() })
        .nullable()
        .describe('GET /api/organization/logo serves it'),
    }),
    escalationPolicyId: z.number().int().nullable().describe('The default escalation policy'),
    requireSso: z.boolean().describe('Password sign-ins refused but the break-glass owners’'),
    breakGlassUserIds: z.array(z.number().int()).describe('Owners who may still sign in with a password'),
  })
  .meta({ id: 'Organization' });

const logoBody = z
  .strictObject({
    contentType: z.enum(LOGO_TYPES),
    data: z
      .string()
      .max(Math.ceil((MAX_LOGO_BYTES * 4) / 3) + 4)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')
      .describe(`The image, base64; at most ${MAX_LOGO_BYTES / 1024} KB`),
  })
  .meta({ id: 'LogoUpload' });

/** The organization's settings: its name, timezone, and the branding of its client reports. */
export function organizationRoutes(deps: {
  organizations: OrganizationRepository;
  logos: LogoStore;
  escalationPolicyExists(organizationId: number, id: number): Promise<boolean>;
  /** The role of a user of the organization (null: no such user): break-glass users must be owners. */
  roleOfUser(organizationId: number, userId: number): Promise<string | null>;
  /** How many enabled identity providers the organization has: SSO is required only with one. */
  enabledIdentityProviders(organizationId: number): Promise<number>;
}): Route[] {
  /** Break-glass users are owners of the organization; SSO is required only when a provider can sign people in. */
  const checkSso = async (
    auth: { organizationId: number; role?: string },
    current: Organization,
    body: { requireSso?: boolean; breakGlassUserIds?: number[] },
  ) => {
    const { organizationId } = auth;
    if (body.requireSso === undefined && body.breakGlassUserIds === undefined) return;
    // Who may still sign in with a password is the owners' to say, as who is an owner is: an admin
    // requiring SSO could otherwise lock every owner out.
    if (auth.role !== 'owner')
      throw notAllowed(
        'Only an owner (signed in) may require single sign-on or name its break-glass owners; ask an owner of your organization.',
        [
          {
            path: body.requireSso === undefined ? 'breakGlassUserIds' : 'requireSso',
            message: 'owners only',
          },
        ],
      );
    const problems: Array<{ path: string; message: string }> = [];
    const requireSso = body.requireSso ?? current.requireSso ?? false;
    const breakGlass = body.breakGlassUserIds ?? current.breakGlassUserIds ?? [];
    if (requireSso && breakGlass.length === 0)
      problems.push({
        path: 'breakGlassUserIds',
        message:
          'name at least one owner who may still sign in with a password, should the identity provider fail',
      });
    for (const [index, userId] of (body.breakGlassUserIds ?? []).entries())
      if ((await deps.roleOfUser(organizationId, userId)) !== 'owner')
        problems.push({
          path: `breakGlassUserIds.${index}`,
          message: `user ${userId} is not an owner of your organization`,
        });
    if (body.requireSso === true && (await deps.enabledIdentityProviders(organizationId)) === 0)
      problems.push({
        path: 'requireSso',
        message:
          'add and enable an identity provider first (POST /api/identity-providers): nobody could sign in',
      });
    if (problems.length > 0) throw invalidInput('Single sign-on cannot be required so', problems);
  };
  const view = async (organization: Organization | null) => {
    if (!organization) throw notFound('No such organization');
    const logo = await deps.logos.get(organization.id);
    return {
      id: organization.id,
      name: organization.name,
      timezone: organization.timezone ?? 'UTC',
      branding: {
        accentColor: organization.branding?.accentColor ?? null,
        footerText: organization.branding?.footerText ?? null,
        logo: logo && { contentType: logo.contentType, sha256: logo.sha256 },
      },
      escalationPolicyId: organization.escalationPolicyId ?? null,
      requireSso: organization.requireSso ?? false,
      breakGlassUserIds: organization.breakGlassUserIds ?? [],
    };
  };
  return [
    defineRoute({
      method: 'get',
      path: '/api/organization',
      operationId: 'getOrganization',
      summary: 'Your organization: its name, timezone and report branding',
      tags: ['Organization'],
      access: 'read',
      success: { status: 200, description: 'The organization', schema: organizationView },
      handle: async ({ auth }) => view(await deps.organizations.findById(auth.organizationId)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/organization',
      operationId: 'updateOrganization',
      summary: 'Change your organization’s name, timezone, report branding or single sign-on requirement',
      tags: ['Organization'],
      access: 'admin',
      body: patchOrganizationBody,
      success: { status: 200, description: 'The organization as it is now', schema: organizationView },
      handle: async ({ auth, body }) => {
        const current = await deps.organizations.findById(auth.organizationId);
        if (!current) throw notFound('No such organization');
        const policyId = body.escalationPolicyId;
        if (
          typeof policyId === 'number' &&
          !(await deps.escalationPolicyExists(auth.organizationId, policyId))
        )
          throw invalidInput('Invalid escalationPolicyId', [
            { path: 'escalationPolicyId', message: `No escalation policy ${policyId} in your organization` },
          ]);
        await checkSso(auth, current, body);
        const branding = body.branding && {
          accentColor: current.branding?.accentColor ?? null,
          footerText: current.branding?.footerText ?? null,
          ...Object.fromEntries(Object.entries(body.branding).filter(([, v]) => v !== undefined)),
        };
        return view(
          await deps.organizations.update(auth.organizationId, {
            ...(body.name === undefined ? {} : { name: body.name }),
            ...(body.timezone === undefined ? {} : { timezone: body.timezone }),
            ...(branding ? { branding } : {}),
            ...(policyId === undefined ? {} : { escalationPolicyId: policyId }),
            ...(body.requireSso === undefined ? {} : { requireSso: body.requireSso }),
            ...(body.breakGlassUserIds === undefined ? {} : { breakGlassUserIds: body.breakGlassUserIds }),
          }),
        );
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/organization/logo',
      operationId: 'putOrganizationLogo',
      summary: 'Upload the logo on your client reports (PNG, JPEG or WebP, base64)',
      tags: ['Organization'],
      access: 'admin',
      body: logoBody,
      success: { status: 200, description: 'The organization with its logo', schema: organizationView },
      handle: async ({ auth, body }) => {
        const data = Buffer.from(body.data, 'base64');
        if (data.length === 0 || data.length > MAX_LOGO_BYTES)
          throw invalidInput('The logo is too large or empty', [
            {
              path: 'data',
              message: `must be 1 byte to ${MAX_LOGO_BYTES / 1024} KB (it is ${data.length} bytes)`,
            },
          ]);
        if (!isLogoOfType(data, body.contentType))
          throw invalidInput(`That is not a ${body.contentType} image`, [
            { path: 'data', message: `its bytes are not those of a ${body.contentType} file` },
          ]);
        await deps.logos.put(auth.organizationId, body.contentType, data);
        return view(await deps.organizations.findById(auth.organizationId));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/organization/logo',
      operationId: 'deleteOrganizationLogo',
      summary: 'Remove the logo from your client reports',
      tags: ['Organization'],
      access: 'admin',
      success: { status: 204, description: 'Removed' },
      handle: async ({ auth }) => {
        await deps.logos.remove(auth.organizationId);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/organization/logo',
      operationId: 'getOrganizationLogo',
      summary: 'Your organization’s logo, as uploaded (base64)',
      tags: ['Organization'],
      access: 'read',
      success: {
        status: 200,
        description: 'The image as it was uploaded (base64), ready for a data: URL',
        schema: z
          .object({ contentType: z.enum(LOGO_TYPES), data: z.string(), sha256: z.string() })
          .meta({ id: 'Logo' }),
      },
      problems: [404],
      handle: async ({ auth, ctx }) => {
        const logo = await deps.logos.get(auth.organizationId);
        if (!logo) throw notFound('Your organization has no logo: PUT /api/organization/logo');
        ctx.set('Cache-Control', 'private, max-age=300');
        ctx.set('ETag', `"${logo.sha256}"`);
        return { contentType: logo.contentType, data: logo.data.toString('base64'), sha256: logo.sha256 };
      },
    }),
  ];
}
