// The MCP server: the tools a coding agent calls about the thread of the project it works in (the
// context to hand it now, the thread's history, its lineage and coverage, a note or decision to
// keep). Every tool is answered through the public GraphQL API with the typed client (client/), like
// any other client: the same bearer token, tenant, validation and answer limits as /graphql. The
// service serves it at /mcp over streamable HTTP (src/server/mcp.ts); runMcpStdio serves it over
// stdio to an agent that starts it as a command, speaking to a running service.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  createThreadlineClient,
  PreviewRunDocument,
  RecordFactDocument,
  type RunFactKind,
  ThreadHistoryDocument,
  ThreadLineageDocument,
  ThreadlineClientError,
  ThreadsIndexDocument,
  type ThreadHistoryQuery,
  type ThreadlineClient,
} from '../../client/index.js';

/** The most characters of text any tool answers with; a history stops before it and says where to go on. */
export const MAX_ANSWER_CHARS = 20_000;
/** The most runs one thread_history call reads while looking for matches. */
const HISTORY_SCAN_RUNS = 200;
/** Runs read per request of the API while scanning. */
const HISTORY_PAGE = 25;
type HistoryKind = 'runs' | 'files' | 'commands' | 'failures' | 'todos' | 'decisions' | 'notes';

/** Ancestors of a project directory tried when no thread names it exactly (an agent working in a subfolder). */
const PROJECT_PARENTS = 20;

const HISTORY_KINDS: Record<HistoryKind, readonly RunFactKind[]> = {
  runs: [],
  files: ['FILE_CHANGE'],
  commands: ['COMMAND', 'TEST'],
  failures: ['FAILURE'],
  todos: ['PLAN_ITEM'],
  decisions: ['DECISION', 'CONSTRAINT', 'GOAL'],
  notes: ['NOTE'],
};

const threadArguments = {
  thread_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('The app thread; without it, the newest thread of project.'),
  project: z
    .string()
    .min(1)
    .max(4000)
    .optional()
    .describe('The project directory the agent works in (its git root, or a folder inside it).'),
};

class ToolRefusal extends Error {}

const text = (answer: string): CallToolResult => ({ content: [{ type: 'text', text: bounded(answer) }] });
const json = (answer: unknown): CallToolResult => text(JSON.stringify(answer, null, 1));

/** An answer cut to MAX_ANSWER_CHARS, saying so. */
function bounded(answer: string): string {
  if (answer.length <= MAX_ANSWER_CHARS) return answer;
  const note = `\n[cut at ${MAX_ANSWER_CHARS} of ${answer.length} characters: ask for less]`;
  return answer.slice(0, MAX_ANSWER_CHARS - note.length) + note;
}

/** A tool's refusal as the agent reads it: the API's code and message, or what the tool asks for. */
async function answering(tool: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await tool();
  } catch (error) {
    if (!(error instanceof ThreadlineClientError) && !(error instanceof ToolRefusal)) throw error;
    const code = error instanceof ThreadlineClientError ? `${error.code}: ` : '';
    return { isError: true, content: [{ type: 'text', text: bounded(`${code}${error.message}`) }] };
  }
}

/** The directory and its parents, nearest first; a name that is not a path is only itself. */
function projectCandidates(project: string): string[] {
  const candidates = [project];
  let current = project.replace(/\/+$/, '');
  for (let step = 0; step < PROJECT_PARENTS && current.lastIndexOf('/') > 0; step++) {
    current = current.slice(0, current.lastIndexOf('/'));
    candidates.push(current);
  }
  return candidates;
}

async function threadOf(client: ThreadlineClient, args: { thread_id?: string; project?: string }): Promise<string> {
  if (args.thread_id) return args.thread_id;
  if (!args.project) throw new ToolRefusal('Pass thread_id, or project (the directory you work in).');
  for (const project of projectCandidates(args.project)) {
    const { threads } = await client.request(ThreadsIndexDocument, { filter: { project }, first: 1 });
    if (threads.edges[0]) return threads.edges[0].node.id;
  }
  throw new ToolRefusal(`No thread of project ${args.project} (nor of a folder above it): import its sessions first.`);
}

type HistoryRun = NonNullable<ThreadHistoryQuery['thread']>['history']['edges'][number];

/** One run of a history as thread_history shows it, or null when the filters leave it out. */
function historyEntry(edge: HistoryRun, kinds: readonly HistoryKind[], needle: string | null) {
  const run = edge.node;
  const factKinds = new Set<string>(kinds.flatMap((kind) => HISTORY_KINDS[kind]));
  const facts = run.facts
    .filter((fact) => factKinds.has(fact.kind))
    .map((fact) => ({
      kind: fact.kind,
      text: fact.text + (fact.textLength > fact.text.length ? '…' : ''),
      ...(fact.key ? { key: fact.key } : {}),
      ...(fact.status ? { status: fact.status } : {}),
    }));
  const failed = kinds.includes('failures') && run.error !== null && run.error !== undefined;
  const messages = kinds.includes('runs');
  if (!messages && facts.length === 0 && !failed) return null;
  const entry = {
    ordinal: run.ordinal,
    provider: run.provider,
    status: run.status,
    at: run.createdAt,
    ...(edge.inherited ? { inherited: true } : {}),
    ...(edge.live ? {} : { live: false }),
    ...(messages
      ? {
          user: run.userMessage + (run.userMessageLength > run.userMessage.length ? '…' : ''),
          assistant: run.assistantMessage
            ? run.assistantMessage + ((run.assistantMessageLength ?? 0) > run.assistantMessage.length ? '…' : '')
            : null,
        }
      : {}),
    ...(run.error ? { error: run.error.slice(0, 600) } : {}),
    facts,
    ...(run.factCount > run.facts.length ? { factsNotRead: run.factCount - run.facts.length } : {}),
  };
  if (needle !== null && !JSON.stringify(entry).toLowerCase().includes(needle)) return null;
  return entry;
}

/** The MCP server with Threadline's tools, answering through `client`. */
export function createMcpServer(client: ThreadlineClient): McpServer {
  const server = new McpServer({ name: 'threadline', version: '1.0.0' });

  server.registerTool(
    'find_threads',
    {
      title: 'Find threads',
      description:
        "The tenant's app threads, newest first: id, title, project, providers, run count and last activity. Narrow by project, provider or text in the title, id or project.",
      inputSchema: {
        project: z.string().min(1).max(4000).optional(),
        provider: z.string().min(1).max(200).optional(),
        text: z.string().min(1).max(200).optional(),
        first: z.number().int().min(1).max(50).optional(),
        after: z.string().max(1000).optional().describe('The next_cursor of the page before.'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answering(async () => {
        const { threads } = await client.request(ThreadsIndexDocument, {
          filter: { project: args.project, provider: args.provider, text: args.text },
          first: args.first ?? 20,
          after: args.after,
        });
        return json({
          threads: threads.edges.map((edge) => edge.node),
          next_cursor: threads.pageInfo.hasNextPage ? threads.pageInfo.endCursor : null,
        });
      }),
  );

  server.registerTool(
    'handoff_context',
    {
      title: 'Context to hand off',
      description:
        "What the given provider's next run on this project's thread should be told now: the plan (resume, or a new session with a summary) and the context text, read-only. Call it when you take over work another agent did.",
      inputSchema: {
        ...threadArguments,
        provider: z
          .string()
          .min(1)
          .max(200)
          .describe('The agent taking over: codex or claude (or a configured provider).'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answering(async () => {
        const threadId = await threadOf(client, args);
        const { previewRun } = await client.request(PreviewRunDocument, {
          input: { threadId, provider: args.provider },
        });
        const lines = [
          `thread: ${threadId}`,
          `decision: ${previewRun.plan.decision}; provider thread: ${previewRun.providerThreadAction}${previewRun.nativeThreadRef ? ` ${previewRun.nativeThreadRef}` : ''}`,
          ...previewRun.plan.reasons.map((reason) => `- ${reason}`),
          previewRun.pendingWriter ? `The summary would be written by ${previewRun.pendingWriter}.` : '',
          '',
          previewRun.context ?? 'No context to hand over: this provider already knows the thread.',
        ];
        return text(lines.filter((line, index) => line !== '' || index > 2).join('\n'));
      }),
  );

  server.registerTool(
    'thread_history',
    {
      title: 'Thread history',
      description:
        'Runs of the thread in ordinal order (a fork includes what it inherited), with their messages cut short and their facts: files changed, commands, failures, todos, decisions, notes. Filter by ordinal range, kinds and text; page on with next_from_ordinal.',
      inputSchema: {
        ...threadArguments,
        from_ordinal: z.number().int().min(1).optional(),
        to_ordinal: z.number().int().min(1).optional(),
        kinds: z
          .array(z.enum(Object.keys(HISTORY_KINDS) as [HistoryKind, ...HistoryKind[]]))
          .min(1)
          .optional()
          .describe('What to show of each run; runs means its messages. Default: everything.'),
        text: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('Only runs whose shown parts contain this, ignoring case.'),
        limit: z.number().int().min(1).max(50).optional().describe('The most runs to answer with (default 10).'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answering(async () => {
        const threadId = await threadOf(client, args);
        const kinds = args.kinds ?? (Object.keys(HISTORY_KINDS) as HistoryKind[]);
        const needle = args.text?.toLowerCase() ?? null;
        const limit = args.limit ?? 10;
        const to = args.to_ordinal ?? Number.MAX_SAFE_INTEGER;
        const runs: NonNullable<ReturnType<typeof historyEntry>>[] = [];
        let next: number | null = args.from_ordinal ?? 1;
        let scanned = 0;
        let size = 0;
        let title: string | null | undefined;
        scan: while (next !== null && next <= to && scanned < HISTORY_SCAN_RUNS) {
          const { thread }: ThreadHistoryQuery = await client.request(ThreadHistoryDocument, {
            id: threadId,
            fromOrdinal: next,
            first: Math.min(HISTORY_PAGE, HISTORY_SCAN_RUNS - scanned),
          });
          if (!thread) throw new ToolRefusal(`No thread ${threadId}.`);
          title = thread.title;
          for (const edge of thread.history.edges) {
            if (edge.node.ordinal > to) {
              next = null;
              break scan;
            }
            const entry = historyEntry(edge, kinds, needle);
            const entrySize = entry ? JSON.stringify(entry).length : 0;
            // Stop before the answer outgrows its bound, or at the limit: the next call starts here.
            if (entry && (runs.length === limit || size + entrySize > MAX_ANSWER_CHARS - 2_000)) {
              next = edge.node.ordinal;
              break scan;
            }
            scanned++;
            next = edge.node.ordinal + 1;
            if (entry) {
              runs.push(entry);
              size += entrySize;
            }
          }
          if (!thread.history.pageInfo.hasNextPage) next = null;
        }
        return json({ thread: threadId, title, runs, next_from_ordinal: next !== null && next <= to ? next : null });
      }),
  );

  server.registerTool(
    'thread_lineage',
    {
      title: 'Thread lineage and coverage',
      description:
        'The thread: its project, runs, providers, parent, forks and subagents, and for each provider thread (each agent session) which runs it knows natively, which through handoffs, and which it misses.',
      inputSchema: threadArguments,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answering(async () => {
        const threadId = await threadOf(client, args);
        const { thread } = await client.request(ThreadLineageDocument, { id: threadId });
        if (!thread) throw new ToolRefusal(`No thread ${threadId}.`);
        return json(thread);
      }),
  );

  server.registerTool(
    'record_fact',
    {
      title: 'Record a note or decision',
      description:
        "Keeps a note, decision, constraint or goal on the thread's newest run, so the context handed to the next agent carries it. A later fact of the same kind and key supersedes it.",
      inputSchema: {
        ...threadArguments,
        kind: z.enum(['note', 'decision', 'constraint', 'goal']),
        text: z.string().min(1).max(20_000),
        key: z.string().min(1).max(200).optional(),
      },
    },
    (args) =>
      answering(async () => {
        const threadId = await threadOf(client, args);
        const kind = args.kind.toUpperCase() as RunFactKind;
        const { recordFact } = await client.request(RecordFactDocument, {
          input: { threadId, kind, text: args.text, key: args.key },
        });
        return json({ thread: threadId, run: recordFact.run, fact: recordFact.fact });
      }),
  );

  return server;
}

export interface McpStdioOptions {
  /** The service's base URL or its /graphql address. */
  url: string;
  /** The bearer token, when the service has API keys. */
  token?: string | null;
}

/** Serves the MCP tools over this process's stdin and stdout until the agent closes them. */
export async function runMcpStdio(options: McpStdioOptions): Promise<void> {
  const server = createMcpServer(createThreadlineClient({ url: options.url, apiKey: options.token ?? undefined }));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  await closed;
}
