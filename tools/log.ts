// How the command-line tools report what they do, on stderr (stdout is the answer's): a plain line on
// a terminal, a JSON line otherwise, so that a log collector or a script can read it.
type Level = 'info' | 'warn' | 'error';

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const line = process.stderr.isTTY
    ? message
    : JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields });
  process.stderr.write(`${line}\n`);
}

/** What only a log reader wants (how many bytes a read took): a JSON line when stderr is no terminal, nothing on one. */
export function logDetail(message: string, fields: Record<string, unknown>): void {
  if (!process.stderr.isTTY) log('info', message, fields);
}

/** A failure as one sentence: a service that does not answer is named as such, not as a stack. */
export function describeFailure(error: unknown, url: string): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code ?? (error.cause as { code?: string } | undefined)?.code;
  if (code === 'ECONNREFUSED')
    return `No Threadline service answers at ${url}: start one with \`threadline start\`, or pass --url.`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return `The Threadline service at ${url} closed the connection midway (${error.message}): what was sent before is recorded; run the command again to finish.`;
  const cause = error.cause as { message?: string } | undefined;
  return cause?.message ? `${error.message}: ${cause.message}` : error.message;
}
