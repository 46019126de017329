import { z } from 'zod';
import { defineRoute, type Route, requireSameOrigin } from '../../../libs/http/index.js';
import type { Invitations, PasswordReset, SessionStore } from '../../../libs/people/index.js';
import {
  newPassword,
  normalizeEmail,
  oneTimeToken,
  personName,
  signedInView,
  toUserView,
} from '../../../libs/people/index.js';
import { clientOf, setSessionCookie } from './sessions.js';

const TAGS = ['People'];

const acceptInvitationBody = z
  .strictObject({ token: oneTimeToken, name: personName, password: newPassword })
  .meta({ id: 'InvitationAcceptance' });

const passwordResetBody = z
  .strictObject({ email: z.string().max(254).transform(normalizeEmail) })
  .meta({ id: 'PasswordResetRequest' });

const passwordResetConfirmBody = z
  .strictObject({ token: oneTimeToken, password: newPassword })
  .meta({ id: 'PasswordResetConfirmation' });

/** What a request taken for later work answers (a JSON body, as every other answer of the API). */
const acceptedView = z
  .object({ status: z.literal('accepted') })
  .meta({ id: 'Accepted', description: 'Taken; the work goes on after the answer' });

const LINK_PROBLEM = 'An unknown, used or expired token answers the same 400 naming `token`.';
const PASSWORD_RULES =
  'A password the policy refuses (its schema describes the rule) is 400 naming `password`.';

/**
 * The routes the links of invitation and password-reset mails lead to, and asking for a reset: for
 * anyone, so the API mounts them behind a per-address budget (`limitedPerAddress`).
 */
export function accountLinkRoutes(deps: {
  invitations: Invitations;
  passwordReset: PasswordReset;
  sessions: SessionStore;
}): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/auth/accept-invitation',
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation: makes the user and signs them in (session cookie)',
      description: `${LINK_PROBLEM} ${PASSWORD_RULES} Sets \`webmon_session\` as login does.`,
      tags: TAGS,
      access: 'public',
      body: acceptInvitationBody,
      problems: [403],
      success: {
        status: 201,
        description: 'The user, signed in',
        schema: signedInView,
        headers: ['Cache-Control', 'Set-Cookie'],
      },
      handle: async ({ body, ctx }) => {
        // As login: another site must not sign a browser in to an account it made.
        if (ctx.get('origin')) requireSameOrigin(ctx);
        const { sessionId, user } = await deps.invitations.accept(body, clientOf(ctx));
        setSessionCookie(ctx, sessionId, deps.sessions.absoluteMs);
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Location', '/api/me');
        return { user: toUserView(user) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/password-reset',
      operationId: 'requestPasswordReset',
      summary: 'Ask for a password-reset link by e-mail (valid 1 h, once)',
      description:
        'Always 202, at once, whether the e-mail is a user’s or not (the mail, if any, goes afterwards); 503 when SMTP_URL is unset.',
      tags: TAGS,
      access: 'public',
      body: passwordResetBody,
      problems: [503],
      success: {
        status: 202,
        description: 'A link is mailed if the e-mail is a user’s',
        schema: acceptedView,
      },
      handle: async ({ body, ctx }) => {
        await deps.passwordReset.request(body.email, ctx.state.log);
        return { status: 'accepted' as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/password-reset/confirm',
      operationId: 'confirmPasswordReset',
      summary: 'Set a new password with the link’s token; every session of the user ends',
      description: `${LINK_PROBLEM} ${PASSWORD_RULES}`,
      tags: TAGS,
      access: 'public',
      body: passwordResetConfirmBody,
      success: { status: 204, description: 'Password set; sign in with it' },
      handle: async ({ body }) => {
        await deps.passwordReset.confirm(body);
      },
    }),
  ];
}
