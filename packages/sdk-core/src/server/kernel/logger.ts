import { pino, type Logger } from 'pino';
import { createRequire } from 'node:module';

/** Paths that may carry credentials; pino replaces them before anything is written. */
const REDACTED = [
  'apiKey',
  'token',
  'secret',
  'value',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  '*.apiKey',
  '*.token',
  '*.secret',
];

/** `json`: one JSON object per line (for log collectors); `pretty`: readable lines; `auto`: pretty on a terminal. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * The server's logger: JSON lines, or readable lines (pino-pretty, written synchronously to stdout) when the
 * format says so or, with `auto`, when stdout is a terminal.
 *
 * @example
 * const logger = createLogger('info', 'auto');
 */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const options = { level, redact: { paths: REDACTED, censor: '[redacted]' }, base: { service: 'palaver' } };
  const readable = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  if (!readable) return pino(options);
  // Loaded only for readable output (~50 ms at start-up otherwise); pino-pretty is CommonJS.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pino(options, pretty({ sync: true, colorize: process.stdout.isTTY === true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,service' }));
}
