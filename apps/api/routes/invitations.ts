import { z } from 'zod';
import { idParams } from '../../../libs/contract/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { Invitations } from '../../../libs/people/index.js';
import { createInvitationBody, invitationView, toInvitationView } from '../../../libs/people/index.js';

const TAGS = ['People'];

/** `/api/invitations`: admins invite people by e-mail, see the pending invitations and withdraw them. */
export function invitationRoutes(invitations: Invitations): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/invitations',
      operationId: 'createInvitation',
      summary: 'Invite a person by e-mail: a one-time link, valid 72 h, to choose a name and password',
      description:
        'The mail goes through SMTP_URL (503 when it is unset or the server refuses the mail; nothing is kept then). `customerId` is required for a client and refused otherwise; only an owner invites an owner; an e-mail with an account already is 409.',
      tags: TAGS,
      access: 'admin',
      body: createInvitationBody,
      problems: [409, 503],
      success: { status: 201, description: 'Invited', schema: invitationView },
      handle: async ({ auth, body, ctx }) => {
        const invitation = await invitations.invite(auth, body);
        ctx.set('Location', `/api/invitations/${invitation.id}`);
        return toInvitationView(invitation);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/invitations',
      operationId: 'listInvitations',
      summary: "The organization's invitations not yet accepted (expired ones too), oldest first",
      tags: TAGS,
      access: 'admin',
      success: { status: 200, description: 'Invitations', schema: z.array(invitationView) },
      handle: async ({ auth }) => (await invitations.list(auth.organizationId)).map(toInvitationView),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/invitations/:id',
      operationId: 'deleteInvitation',
      summary: 'Withdraw an invitation: its link stops working',
      tags: TAGS,
      access: 'admin',
      params: idParams,
      success: { status: 204, description: 'Withdrawn' },
      handle: async ({ auth, params }) => {
        await invitations.withdraw(auth.organizationId, params.id);
      },
    }),
  ];
}
