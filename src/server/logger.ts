import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * JSON lines on stderr (or `destination`); API keys and passwords are redacted wherever they appear
 * in a log object.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['*.authorization', '*.password', '*.apiKey', '*.apiKeys', 'req.headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
