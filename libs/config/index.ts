export { type AppConfig, decodeSecretsKey, envSchema } from './config.schema.js';
export { appLink, ConfigError, loadConfig, loadConfigOrExit, requireSecretsKey } from './load-config.js';
