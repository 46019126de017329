import { resolve } from 'node:path';
import { type AppConfig, decodeSecretsKey, requireSecretsKey } from '../../../libs/config/index.js';
import { readStoredSecretsKey } from '../../../libs/embedded/index.js';
import { MonitorRepository } from '../../../libs/monitors/index.js';
import { ChannelRepository } from '../../../libs/notifications/index.js';
import { TwoFactorRepository } from '../../../libs/people/index.js';
import { type ResealReport, SecretBox } from '../../../libs/secrets/index.js';
import { IdentityProviderRepository, ServiceProviderKeys } from '../../../libs/sso/index.js';
import { SubscriberRepository } from '../../../libs/status-subscriptions/index.js';
import { WebsiteRepository } from '../../../libs/websites/index.js';
import { print } from './command-line.js';
import type { AdminCommand } from './context.js';

/** SECRETS_KEY, or the key `npm start` keeps in its data directory. */
function secretBoxFor(config: AppConfig): SecretBox {
  const stored = config.SECRETS_KEY
    ? undefined
    : readStoredSecretsKey(resolve(process.env.DATA_DIR || '.data'));
  const key = (stored && decodeSecretsKey(stored)) || requireSecretsKey(config);
  return new SecretBox(key, config.SECRETS_KEYS_PREVIOUS);
}

const progress = (what: string) => (report: ResealReport) =>
  process.stderr.write(`${what}: ${report.documents} checked, ${report.resealed} resealed…\n`);

/** Secrets: every stored one sealed again under SECRETS_KEY (after a key rotation). */
export const secretCommands: Record<string, AdminCommand> = {
  'reseal-secrets': async ({ db, config }) => {
    const box = secretBoxFor(config);
    const websites = await new WebsiteRepository(db).resealSecrets(box, progress('websites'));
    const channels = await new ChannelRepository(db).resealSecrets(box, progress('notification channels'));
    const totpSecrets = await new TwoFactorRepository(db).resealSecrets(box, progress('two-factor secrets'));
    const monitorSecrets = await new MonitorRepository(db).resealSecrets(
      box,
      progress('heartbeat ping tokens and monitor credentials'),
    );
    const subscriberSecrets = await new SubscriberRepository(db).resealSecrets(
      box,
      progress('status page subscribers’ unsubscribe tokens and webhook secrets'),
    );
    const samlKeys = await new ServiceProviderKeys(db, box).resealSecrets(
      progress('SAML service-provider keys'),
    );
    const identityProviderSecrets = await new IdentityProviderRepository(db).resealSecrets(
      box,
      progress('OIDC client secrets'),
    );
    print({
      websites,
      notificationChannels: channels,
      twoFactorSecrets: totpSecrets,
      monitorSecrets,
      subscriberSecrets,
      samlKeys,
      identityProviderSecrets,
    });
    const unreadable =
      websites.unreadable +
      channels.unreadable +
      totpSecrets.unreadable +
      monitorSecrets.unreadable +
      subscriberSecrets.unreadable +
      samlKeys.unreadable +
      identityProviderSecrets.unreadable;
    if (unreadable > 0)
      throw new Error(
        `${unreadable} secret(s) could not be opened with SECRETS_KEY or SECRETS_KEYS_PREVIOUS; add the key that sealed them to SECRETS_KEYS_PREVIOUS and run again`,
      );
  },
};
