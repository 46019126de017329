import type { AppConfig } from '../../libs/config/index.js';
import type { Redis } from '../../libs/redis/index.js';
import { SamlAssertionLedger, SamlSignIn, ssoPaths } from '../../libs/sso/index.js';
import type { ApiServices } from './compose.js';
import type { composeSso } from './compose-sso.js';
import { samlRoutes } from './routes/sso-saml.js';

/**
 * SAML 2.0 sign-in beside OIDC's: the same providers, flows (Redis, bound to the browser) and
 * completion; its own SP keys, assertion ledger and routes (metadata, ACS).
 */
export function composeSaml(deps: {
  redis: Redis;
  config: AppConfig;
  services: ApiServices;
  sso: ReturnType<typeof composeSso>;
}) {
  const { sso } = deps;
  const saml = new SamlSignIn({
    keys: deps.services.samlKeys,
    ledger: new SamlAssertionLedger(deps.redis, deps.config.REDIS_KEY_PREFIX),
    flows: sso.flows,
    completion: sso.completion,
    urls: (providerId) => {
      const paths = ssoPaths(providerId);
      return { entityId: sso.publicUrl(paths.metadata), acsUrl: sso.publicUrl(paths.acs) };
    },
  });
  return {
    saml,
    /** `GET /api/auth/sso/{id}/start` of a SAML provider: the AuthnRequest's URL. */
    start: saml.start.bind(saml),
    routes: samlRoutes({ saml, providers: sso.providers, sessionMs: sso.sessionMs }),
  };
}
