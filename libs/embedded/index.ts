export { locateFerretDb, startFerretDb } from './ferretdb.js';
export { DEFAULT_DATABASE, type LocalStack, prepareLocalStack, readStoredSecretsKey } from './local-stack.js';
export { findFreePort, isPortOpen } from './ports.js';
export { startRedisServer } from './redis-server.js';
export type { EmbeddedServer } from './server-process.js';
export { type ThrowawayDatabases, throwawayDatabases } from './throwaway-databases.js';
