import { pino, type Logger } from 'pino';

/** JSON lines on stderr; API keys and passwords are redacted wherever they appear in a log object. */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      redact: { paths: ['*.authorization', '*.password', '*.apiKey', '*.apiKeys', 'req.headers.authorization'], censor: '[redacted]' },
    },
    pino.destination(2),
  );
}
