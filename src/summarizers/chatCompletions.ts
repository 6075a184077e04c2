/**
 * Adapter for OpenAI-compatible chat-completions endpoints, used to write handoff summaries.
 *
 * Wire format: POST {baseUrl}/chat/completions with JSON {model, messages:[{role, content}], temperature},
 * `Authorization: Bearer <key>` when a key is configured; the answer is read from
 * `choices[0].message.content`. Self-contained: uses the global fetch of Node 20 and nothing else.
 */

export interface ChatCompletionsConfig {
  name: string;
  baseUrl: string;
  model: string;
  /** Name of the environment variable holding the API key; null means "send no Authorization header". */
  apiKeyEnv: string | null;
  timeoutMs: number;
}

export interface SummaryRequest {
  /** The structured document the local summarizer renders for this handoff (facts, checkpoint, runs). */
  document: string;
  budgetChars: number | null;
  targetProvider: string;
  strategy: string; // e.g. 'delta_since_target_last_seen'
}

export type SummarizerErrorReason = 'timeout' | 'http' | 'invalid_response' | 'missing_api_key' | 'network';

export class SummarizerError extends Error {
  /** HTTP status for reason 'http', otherwise null. */
  readonly status: number | null;

  constructor(
    readonly summarizer: string,
    readonly reason: SummarizerErrorReason,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SummarizerError';
    this.status = options.status ?? null;
  }
}

export interface Summarizer {
  readonly name: string;
  summarize(request: SummaryRequest): Promise<string>;
}

const BODY_EXCERPT_CHARS = 200;
const REDACTED = '[redacted]';

function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

function buildSystemPrompt(request: SummaryRequest): string {
  const budget =
    request.budgetChars === null
      ? 'There is no fixed length limit, but be concise.'
      : `The summary must be at most ${request.budgetChars} characters long.`;
  return [
    `You write handoff summaries. Write a handoff summary of the conversation described in the user message, so that the AI provider "${request.targetProvider}" can continue the work.`,
    budget,
    `Handoff strategy: ${request.strategy}.`,
    "Include: the user's goals and constraints; decisions made; files changed; commands and tests run, with their outcome; the plan and todo state; open approvals and open questions; the latest checkpoint and diff summary; known failures; results of subagents.",
    'Exclude: provider protocol noise; hidden chain-of-thought; tool output superseded by later runs; large diffs where a summary of the changed files is enough.',
    'Keep file paths and commands verbatim.',
    'Answer with the summary only.',
  ].join('\n');
}

function redact(text: string, secret: string | null): string {
  return secret ? text.split(secret).join(REDACTED) : text;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat;
}

function isAbortLike(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return error.message;
}

function extractContent(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const choices = (payload as { choices?: unknown }).choices;
  if (!Array.isArray(choices) || choices.length === 0) return null;
  const first: unknown = choices[0];
  if (typeof first !== 'object' || first === null) return null;
  const message = (first as { message?: unknown }).message;
  if (typeof message !== 'object' || message === null) return null;
  const content = (message as { content?: unknown }).content;
  return typeof content === 'string' ? content : null;
}

export function createChatCompletionsSummarizer(
  config: ChatCompletionsConfig,
  env: NodeJS.ProcessEnv = process.env,
): Summarizer {
  const url = chatCompletionsUrl(config.baseUrl);
  const name = config.name;

  async function summarize(request: SummaryRequest): Promise<string> {
    let apiKey: string | null = null;
    if (config.apiKeyEnv !== null) {
      const value = env[config.apiKeyEnv];
      if (value === undefined || value.trim() === '') {
        throw new SummarizerError(
          name,
          'missing_api_key',
          `summarizer ${name}: environment variable ${config.apiKeyEnv} is not set`,
        );
      }
      apiKey = value;
    }
    const fail = (reason: SummarizerErrorReason, message: string, options: { status?: number } = {}): SummarizerError =>
      new SummarizerError(name, reason, redact(`summarizer ${name}: ${message}`, apiKey), options);
    // Redacted before it is cut: a key straddling the cut would otherwise survive in part.
    const answered = (text: string) => excerpt(redact(text, apiKey));

    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
    const body = JSON.stringify({
      model: config.model,
      messages: [
        { role: 'system', content: buildSystemPrompt(request) },
        { role: 'user', content: request.document },
      ],
      temperature: 0,
    });

    // One signal covers the whole exchange, including reading the body.
    const signal = AbortSignal.timeout(config.timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (isAbortLike(error) || signal.aborted) {
        throw fail('timeout', `no answer from ${url} within ${config.timeoutMs} ms`);
      }
      throw fail('network', `request to ${url} failed (${describeNetworkError(error)})`);
    }

    if (status < 200 || status > 299) {
      throw fail('http', `${url} answered HTTP ${status}: ${answered(text)}`, { status });
    }
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      throw fail('invalid_response', `${url} answered with a body that is not JSON: ${answered(text)}`);
    }
    const content = extractContent(payload)?.trim();
    if (!content) {
      throw fail('invalid_response', `${url} answered without choices[0].message.content`);
    }
    return content;
  }

  return { name, summarize };
}
