import type { Db } from 'mongodb';
import type { Registry } from 'prom-client';
import type { AppConfig } from '../../libs/config/index.js';
import type { Logger } from '../../libs/logging/index.js';
import {
  AccountPasswords,
  InvitationRepository,
  Invitations,
  KnownDevices,
  PASSWORD_RESET_MAILS_PER_HOUR,
  PasswordHasher,
  PasswordReset,
  peopleMailRoutes,
  SIGN_IN_WINDOW_MS,
  SignIn,
  signInBudgets,
  smtpMailer,
  TwoFactor,
  TwoFactorRepository,
} from '../../libs/people/index.js';
import { createRedisRateLimiter, type RateLimiter, type Redis } from '../../libs/redis/index.js';
import type { ApiServices } from './compose.js';

/** People signing in, their passwords, two-factor, invitations and resets: what the API's people routes call. */
export function composePeople(deps: {
  db: Db;
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  metrics: Registry;
  services: ApiServices;
  /** Failed authentications per client address: the access guard's and failed sign-ins together. */
  authFailureLimiter: RateLimiter;
}) {
  const { db, redis, config, logger, metrics, services, authFailureLimiter } = deps;
  const { organizations } = services;
  const { customerExists } = services;
  const twoFactor = new TwoFactor({
    repository: new TwoFactorRepository(db),
    secrets: services.secrets,
    codeFailures: createRedisRateLimiter({
      redis,
      keyPrefix: config.REDIS_KEY_PREFIX,
      limit: config.SIGN_IN_FAILURES_PER_ACCOUNT,
      windowMs: SIGN_IN_WINDOW_MS,
    }),
  });
  const organizationName = async (organizationId: number) =>
    (await organizations.findById(organizationId))?.name ?? null;
  // People's mail: SMTP_URL, else the organization's e-mail channel.
  const peopleMail = peopleMailRoutes({
    smtp: smtpMailer(config),
    channelMailer: (organizationId) =>
      services.channels.organizationMailer(organizationId, config.DELIVERY_TIMEOUT_SECONDS * 1000),
    anyChannel: () => services.channels.anyMailChannel(),
  });
  // One bounded pool for every password hash of this process (sign-ins, new passwords).
  const hasher = new PasswordHasher({
    concurrency: config.PASSWORD_HASH_CONCURRENCY,
    queue: config.PASSWORD_HASH_QUEUE,
    metrics,
  });
  const signInLimits = signInBudgets(redis, config, authFailureLimiter);
  const passwords = new AccountPasswords({
    users: services.users,
    hasher,
    sessions: services.sessions,
    organizationName,
    accountFailures: signInLimits.accountFailures,
  });
  const signIn = new SignIn({
    users: services.users,
    sessions: services.sessions,
    hasher,
    budgets: signInLimits,
    devices: new KnownDevices(redis, config.REDIS_KEY_PREFIX),
    twoFactor,
    twoFactorRequiredFor: (organizationId) => organizations.twoFactorRequiredFor(organizationId),
    ssoRequirement: (organizationId) => organizations.ssoRequirement(organizationId),
    mailRoutes: peopleMail,
    mail: config,
    log: logger,
  });
  const invitations = new Invitations({
    invitations: new InvitationRepository(db),
    users: services.users,
    passwords,
    sessions: signIn,
    mailRoutes: peopleMail,
    mail: config,
    customerExists,
    log: logger,
    mailBudget: services.mailBudget,
    resendAfterMs: config.INVITATION_RESEND_SECONDS * 1000,
  });
  const passwordReset = new PasswordReset({
    users: services.users,
    passwords,
    redis,
    prefix: config.REDIS_KEY_PREFIX,
    mailRoutes: peopleMail,
    mail: config,
    mailsPerUser: createRedisRateLimiter({
      redis,
      keyPrefix: config.REDIS_KEY_PREFIX,
      limit: PASSWORD_RESET_MAILS_PER_HOUR,
      windowMs: 3600_000,
    }),
    mailBudget: services.mailBudget,
  });
  return { twoFactor, passwords, signIn, invitations, passwordReset, organizationName, peopleMail };
}
