import type { Middleware } from 'koa';
import { type Access, AppError, type AppState } from '../../libs/http/index.js';
import { CONTACT_METHOD_ROUTE_PATHS } from './routes/contact-methods.js';
import { PASSWORD_CHANGE_PATH, personOf } from './routes/sessions.js';
import { PERSONAL_TOKEN_ROUTE_PATHS } from './routes/tokens.js';
import { TWO_FACTOR_ROUTE_PATHS } from './routes/two-factor.js';

/** Routes for people only with a body or an id to validate: a token is refused before that. */
const PEOPLE_ONLY_PATHS = new Set([
  ...TWO_FACTOR_ROUTE_PATHS,
  ...PERSONAL_TOKEN_ROUTE_PATHS,
  ...CONTACT_METHOD_ROUTE_PATHS,
  PASSWORD_CHANGE_PATH,
]);
/** What a person who must still enrol may reach: the enrolment, who they are, and signing out. */
const ENROLMENT_PATHS = new Set([...TWO_FACTOR_ROUTE_PATHS, '/api/me', '/api/auth/logout']);

/**
 * Wraps the access guard: once it has let a caller through, one whose organization requires
 * two-factor for their role and who has not turned it on gets 403 everywhere but `ENROLMENT_PATHS`.
 * An API token gets the two-factor and personal-token routes' 403 here, before their body or id is
 * validated (a 400 or 404 would hide that the route is not for it).
 */
export function withTwoFactorEnrolment(
  guard: (access: Access) => Middleware<AppState>,
): (access: Access) => Middleware<AppState> {
  return (access) => {
    const guarded = guard(access);
    return (ctx, next) =>
      guarded(ctx, async () => {
        const path = (ctx as { _matchedRoute?: string })._matchedRoute ?? '';
        if (PEOPLE_ONLY_PATHS.has(path) && ctx.state.auth) personOf(ctx.state.auth);
        if (ctx.state.auth?.mustEnrolTwoFactor && !ENROLMENT_PATHS.has(path))
          throw new AppError('forbidden', {
            detail:
              'Your organization requires two-factor sign-in for your role: enrol first (POST /api/me/two-factor, then POST /api/me/two-factor/confirm).',
            extensions: { reason: 'two-factor-enrolment-required' },
          });
        await next();
      });
  };
}
