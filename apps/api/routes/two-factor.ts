import type { AuthContext } from '../../../libs/contract/index.js';
import { notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { SessionStore, TwoFactor, User, UserRepository } from '../../../libs/people/index.js';
import { recoveryCodesView, twoFactorCodeBody, twoFactorEnrolmentView } from '../../../libs/people/index.js';
import { personOf } from './sessions.js';

const TAGS = ['People'];

/** The two-factor routes: open to every person, client users and people who must still enrol included. */
export const TWO_FACTOR_ROUTE_PATHS = ['/api/me/two-factor', '/api/me/two-factor/confirm'];

/** `/api/me/two-factor`: the signed-in person turns TOTP sign-in on and off. */
export function twoFactorRoutes(deps: {
  twoFactor: TwoFactor;
  users: UserRepository;
  sessions: SessionStore;
}): Route[] {
  const me = async (auth: AuthContext): Promise<User> => {
    const user = await deps.users.findById(auth.organizationId, personOf(auth).userId);
    if (!user) throw notFound('No such user');
    return user;
  };
  return [
    defineRoute({
      method: 'post',
      path: '/api/me/two-factor',
      operationId: 'startTwoFactorEnrolment',
      summary: 'Start a TOTP enrolment: answers the secret once; confirm it with a code',
      description:
        'The secret is stored sealed and stays pending until `POST /api/me/two-factor/confirm`; starting again replaces a pending one. 409 when two-factor is already on.',
      tags: TAGS,
      access: 'read',
      problems: [409],
      success: {
        status: 200,
        description: 'The secret to add to an authenticator app',
        schema: twoFactorEnrolmentView,
        headers: ['Cache-Control'],
      },
      handle: async ({ auth, ctx }) => {
        const enrolment = await deps.twoFactor.start(await me(auth));
        ctx.set('Cache-Control', 'no-store');
        return enrolment;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/me/two-factor/confirm',
      operationId: 'confirmTwoFactor',
      summary: 'Turn two-factor sign-in on with a current code; answers ten recovery codes once',
      description:
        'A wrong or already used code is 400 naming `code`; 409 when no enrolment is pending. Only hashes of the recovery codes are kept. Every other session of the person ends (they were opened with the password alone).',
      tags: TAGS,
      access: 'read',
      body: twoFactorCodeBody,
      problems: [409],
      success: {
        status: 200,
        description: 'On; the recovery codes, each usable once',
        schema: recoveryCodesView,
        headers: ['Cache-Control'],
      },
      handle: async ({ auth, body, ctx }) => {
        const recoveryCodes = await deps.twoFactor.confirm(await me(auth), body.code);
        const { userId, sessionHandle } = personOf(auth);
        await deps.sessions.endOthers(userId, sessionHandle);
        ctx.set('Cache-Control', 'no-store');
        return { recoveryCodes };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/me/two-factor',
      operationId: 'disableTwoFactor',
      summary: 'Turn two-factor sign-in off, with a current code or a recovery code',
      description: 'A wrong code is 400 naming `code`; 409 when two-factor is not on.',
      tags: TAGS,
      access: 'read',
      body: twoFactorCodeBody,
      problems: [409],
      success: { status: 204, description: 'Off' },
      handle: async ({ auth, body }) => {
        await deps.twoFactor.disable(await me(auth), body.code);
      },
    }),
  ];
}
