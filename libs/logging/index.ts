import { type LevelWithSilent, type Logger, pino } from 'pino';
import { build as prettyStream } from 'pino-pretty';

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

/**
 * Where a logger's lines go: JSON lines on standard output (the default, for log shippers),
 * `'pretty'` for a person at a terminal (one readable, coloured line per entry, same redaction), or
 * a stream (tests read the lines back).
 */
export type LogDestination = pino.DestinationStream | 'pretty';

/** A logger for one process (`service` says which). */
export function createLogger(
  service: string,
  level: LevelWithSilent = 'info',
  destination?: LogDestination,
): Logger {
  const options = {
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  if (destination === 'pretty')
    return pino(
      options,
      prettyStream({
        sync: true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,service',
        messageFormat: '[{service}] {msg}',
      }),
    );
  return destination ? pino(options, destination) : pino(options);
}
