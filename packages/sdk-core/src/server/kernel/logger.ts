import { pino, type Logger } from 'pino';

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

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACTED, censor: '[redacted]' }, base: { service: 'palaver' } });
}
