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
export function createLogger(
  service: string,
  level: LevelWithSilent = 'info',
  /** Where the lines go (default: standard output); tests read them back. */
  destination?: pino.DestinationStream,
): Logger {
  const options = {
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
