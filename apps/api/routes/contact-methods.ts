import { z } from 'zod';
import {
  type ContactMethodService,
  contactMethodView,
  createContactMethodBody,
  patchContactMethodBody,
  toContactMethodView,
  verifyContactMethodBody,
} from '../../../libs/contact-methods/index.js';
import { type AuthContext, decimalId, idParams } from '../../../libs/contract/index.js';
import { notAllowed } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';

const TAGS = ['On-call'];

/** Contact methods are a person's own: an API token has none. */
function personOf(auth: AuthContext): number {
  if (auth.userId === undefined)
    throw notAllowed('Contact methods belong to a signed-in person, not to an API token');
  return auth.userId;
}

const methodParams = z.object({ id: decimalId() });

/** A person's own: an API token is refused before a body or id is validated (apps/api/enrolment-gate.ts). */
export const CONTACT_METHOD_ROUTE_PATHS = [
  '/api/me/contact-methods',
  '/api/me/contact-methods/:id',
  '/api/me/contact-methods/:id/verify',
  '/api/me/contact-methods/:id/resend',
];

/**
 * `/api/me/contact-methods`: how the signed-in person is reached when paged. Each is verified by a
 * code sent to it before it is used; every person manages their own (a viewer too).
 */
export function contactMethodRoutes(service: ContactMethodService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/me/contact-methods',
      operationId: 'listContactMethods',
      summary: 'Your contact methods',
      tags: TAGS,
      access: 'read',
      success: { status: 200, description: 'Methods, by id', schema: contactMethodView.array() },
      handle: async ({ auth }) =>
        (await service.list(auth.organizationId, personOf(auth))).map(toContactMethodView),
    }),
    defineRoute({
      method: 'post',
      path: '/api/me/contact-methods',
      operationId: 'createContactMethod',
      summary: 'Add a contact method: a code is sent to it at once',
      description:
        'The method is unverified until the code is entered (`…/verify`); 409 when the organization has nothing that sends to this type (the problem names what to add), 503 when the code could not be sent (nothing is kept).',
      tags: TAGS,
      access: 'read',
      body: createContactMethodBody,
      problems: [403, 409, 503],
      success: { status: 201, description: 'Added, unverified', schema: contactMethodView },
      handle: async ({ auth, body, ctx }) => {
        const method = await service.create(auth.organizationId, personOf(auth), body);
        ctx.set('Location', `/api/me/contact-methods/${method.id}`);
        return toContactMethodView(method);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/me/contact-methods/:id',
      operationId: 'updateContactMethod',
      summary:
        'Change a contact method’s label, hours or events (the address stays: add a new method for another)',
      tags: TAGS,
      access: 'read',
      params: methodParams,
      body: patchContactMethodBody,
      success: { status: 200, description: 'The method', schema: contactMethodView },
      handle: async ({ auth, params, body }) =>
        toContactMethodView(await service.update(auth.organizationId, personOf(auth), params.id, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/me/contact-methods/:id/verify',
      operationId: 'verifyContactMethod',
      summary: 'Enter the code sent to a contact method',
      description: 'Five wrong codes end the code; a code is valid 10 minutes.',
      tags: TAGS,
      access: 'read',
      params: methodParams,
      body: verifyContactMethodBody,
      success: { status: 200, description: 'Verified', schema: contactMethodView },
      handle: async ({ auth, params, body }) =>
        toContactMethodView(await service.verify(auth.organizationId, personOf(auth), params.id, body.code)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/me/contact-methods/:id/resend',
      operationId: 'resendContactMethodCode',
      summary: 'Send a new code (one a minute, five an hour)',
      tags: TAGS,
      access: 'read',
      params: methodParams,
      problems: [409, 429, 503],
      success: { status: 200, description: 'A new code is on its way', schema: contactMethodView },
      handle: async ({ auth, params }) =>
        toContactMethodView(await service.resend(auth.organizationId, personOf(auth), params.id)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/me/contact-methods/:id',
      operationId: 'deleteContactMethod',
      summary: 'Remove a contact method',
      tags: TAGS,
      access: 'read',
      params: idParams,
      success: { status: 204, description: 'Removed' },
      handle: async ({ auth, params }) => {
        await service.delete(auth.organizationId, personOf(auth), params.id);
      },
    }),
  ];
}
