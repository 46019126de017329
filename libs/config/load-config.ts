import { type AppConfig, envSchema } from './config.schema.js';

/** A configuration that cannot start a process; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment. Values are never echoed back: some are secrets. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // An empty variable means "not set", as in docker-compose files with `VAR=`.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
}

/** The secrets key, or a ConfigError telling how to provide one. */
export function requireSecretsKey(config: AppConfig): Buffer {
  if (config.SECRETS_KEY) return config.SECRETS_KEY;
  throw new ConfigError([
    'SECRETS_KEY: is required by this process (32 random bytes, e.g. from: openssl rand -base64 32); `npm start` creates one under ./.data/',
  ]);
}

/** `loadConfig` for a process entry point: a bad variable ends the process with its message (exit 78). */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
}

/**
 * The address of a page of the app as people's browsers reach it (links in mails and alerts):
 * under `PUBLIC_URL` (its path kept, so a service under https://example.com/webmon/ keeps it),
 * else the API on this machine.
 */
export function appLink(settings: { PUBLIC_URL?: string | undefined; PORT: number }, path: string): URL {
  const origin = settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`;
  return new URL(path.replace(/^\//, ''), origin.endsWith('/') ? origin : `${origin}/`);
}
