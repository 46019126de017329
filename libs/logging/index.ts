import { type LevelWithSilent, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/** Paths that may carry secrets; pino replaces them before a line is written. */
const REDACTED_PATHS = [
  'authorization',
  'token',
  'password',
  'secret',
  '*.authorization',
  '*.token',
  '*.password',
  '*.secret',
  '*.mtlsClientKey',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** A JSON line logger for one process (`service` says which). */
export function createLogger(service: string, level: LevelWithSilent = 'info'): Logger {
  return pino({
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  });
}
