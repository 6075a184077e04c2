// The MCP server with the SDK's own client: over streamable HTTP at the service's /mcp, and over stdio
// as `threadline mcp` runs it, against a running service with API keys.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_CHARS } from '../../src/mcp/server.js';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

const KEY = 'mcp-test-key-0123456789';
const TOOLS = ['find_threads', 'handoff_context', 'record_fact', 'thread_history', 'thread_lineage'];

let t: TestService;
let origin: string;
const ok = (query: string, variables?: Record<string, unknown>) => t.ok(query, variables, KEY);

beforeAll(async () => {
  t = await startTestService({ THREADLINE_API_KEYS: `${KEY}=${fileTenant()}` });
  origin = new URL(t.service.url).origin;
});
afterAll(async () => {
  await t?.close();
});

async function httpClient(token: string | null = KEY): Promise<Client> {
  const client = new Client({ name: 'threadline-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', origin), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    }),
  );
  return client;
}

async function stdioClient(token: string): Promise<Client> {
  const client = new Client({ name: 'threadline-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['bin/threadline.js', 'mcp', '--url', origin, '--token', token],
      cwd: projectRoot(),
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { isError: result.isError ?? false, text };
}

async function callJson(client: Client, name: string, args: Record<string, unknown>) {
  const answer = await call(client, name, args);
  expect(answer.isError, answer.text).toBe(false);
  return JSON.parse(answer.text);
}

const START = `mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`;
const COMPLETE = `mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }`;

async function turn(threadId: string, provider: string, message: string, facts: Record<string, unknown>[] = []) {
  const run = (await ok(START, { input: { threadId, provider, userMessage: message } })).startRun.run.id;
  await ok(COMPLETE, { input: { runId: run, assistantMessage: `answer to ${message}`, facts } });
}

/** Codex 1-3 with facts of every kind, then claude 4-5: codex has missed 4-5. */
async function projectThread() {
  const project = `/home/dev/${uniqueId('mcp-project')}`;
  const threadId = uniqueId('mcp-thread');
  await ok(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, {
    input: { id: threadId, title: 'csv importer', project },
  });
  await turn(threadId, 'codex', 'write the csv parser', [
    { kind: 'FILE_CHANGE', text: 'added src/csv.ts', file: { path: 'src/csv.ts', change: 'ADDED' } },
    { kind: 'COMMAND', text: 'npm test', key: 'npm test', status: 'failed' },
  ]);
  await turn(threadId, 'codex', 'fix the quoting bug', [{ kind: 'FAILURE', text: 'quoted commas split fields' }]);
  await turn(threadId, 'codex', 'plan the rest', [
    { kind: 'PLAN_ITEM', text: 'stream large files', status: 'pending' },
  ]);
  await turn(threadId, 'claude', 'review the parser');
  await turn(threadId, 'claude', 'add streaming', [
    { kind: 'FILE_CHANGE', text: 'modified src/csv.ts', file: { path: 'src/csv.ts', change: 'MODIFIED' } },
  ]);
  return { project, threadId };
}

describe('MCP over streamable HTTP at /mcp', () => {
  it('lists its tools, and each answers about the project’s thread', async () => {
    const { project, threadId } = await projectThread();
    const client = await httpClient();
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(TOOLS);

      const found = await callJson(client, 'find_threads', { project });
      expect(found.threads).toEqual([
        expect.objectContaining({ id: threadId, project, providers: ['codex', 'claude'], runCount: 5 }),
      ]);

      // From a folder inside the project, as an agent working in src/ would ask.
      const handoff = await call(client, 'handoff_context', { project: `${project}/src`, provider: 'codex' });
      expect(handoff.isError, handoff.text).toBe(false);
      const preview = (
        await ok(`query($input: PlanRunInput!) { previewRun(input: $input) { plan { decision } context } }`, {
          input: { threadId, provider: 'codex' },
        })
      ).previewRun;
      expect(handoff.text).toContain(`thread: ${threadId}`);
      expect(handoff.text).toContain(`decision: ${preview.plan.decision}`);
      expect(preview.context).toEqual(expect.any(String));
      expect(handoff.text.endsWith(preview.context)).toBe(true);

      const all = await callJson(client, 'thread_history', { thread_id: threadId });
      expect(all.runs.map((run: { ordinal: number }) => run.ordinal)).toEqual([1, 2, 3, 4, 5]);
      expect(all.runs[0]).toMatchObject({ provider: 'codex', user: 'write the csv parser' });
      expect(all.next_from_ordinal).toBeNull();

      const files = await callJson(client, 'thread_history', { project, kinds: ['files'] });
      expect(files.runs.map((run: { ordinal: number; facts: { text: string }[] }) => [run.ordinal, run.facts])).toEqual(
        [
          [1, [{ kind: 'FILE_CHANGE', text: 'added src/csv.ts', key: 'src/csv.ts', status: 'added' }]],
          [5, [{ kind: 'FILE_CHANGE', text: 'modified src/csv.ts', key: 'src/csv.ts', status: 'modified' }]],
        ],
      );
      expect(files.runs[0].user).toBeUndefined();
      const failures = await callJson(client, 'thread_history', { project, kinds: ['failures', 'todos'] });
      expect(failures.runs.map((run: { ordinal: number }) => run.ordinal)).toEqual([2, 3]);
      const commands = await callJson(client, 'thread_history', { project, kinds: ['commands'] });
      expect(commands.runs).toEqual([
        expect.objectContaining({
          ordinal: 1,
          facts: [{ kind: 'COMMAND', text: 'npm test', key: 'npm test', status: 'failed' }],
        }),
      ]);
      const ranged = await callJson(client, 'thread_history', { project, from_ordinal: 2, to_ordinal: 4, limit: 2 });
      expect(ranged.runs.map((run: { ordinal: number }) => run.ordinal)).toEqual([2, 3]);
      expect(ranged.next_from_ordinal).toBe(4);
      const searched = await callJson(client, 'thread_history', { project, text: 'STREAMING' });
      expect(searched.runs.map((run: { ordinal: number }) => run.ordinal)).toEqual([5]);

      const lineage = await callJson(client, 'thread_lineage', { project });
      expect(lineage).toMatchObject({ id: threadId, project, runCount: 5, headOrdinal: 5, lineage: { parent: null } });
      const [codex, claude] = lineage.providerThreads;
      expect(codex).toMatchObject({
        provider: 'codex',
        coverage: { nativeRanges: [{ from: 1, to: 3 }], missingRanges: [{ from: 4, to: 5 }], coveredThroughOrdinal: 3 },
      });
      expect(claude).toMatchObject({ provider: 'claude', coverage: { missingRanges: [], coveredThroughOrdinal: 5 } });

      const decision = `Keep the parser streaming-only (${uniqueId('d')})`;
      const recorded = await callJson(client, 'record_fact', {
        project,
        kind: 'decision',
        text: decision,
        key: 'parser',
      });
      expect(recorded).toMatchObject({
        thread: threadId,
        run: { ordinal: 5 },
        fact: { kind: 'DECISION', key: 'parser' },
      });
      const decisions = await callJson(client, 'thread_history', { project, kinds: ['decisions'] });
      expect(decisions.runs).toEqual([
        expect.objectContaining({ ordinal: 5, facts: [{ kind: 'DECISION', text: decision, key: 'parser' }] }),
      ]);
      const after = await call(client, 'handoff_context', { project, provider: 'codex' });
      expect(after.text).toContain(decision);
    } finally {
      await client.close();
    }
  });

  it('refuses without a valid bearer token, as /graphql does, and answers only POST', async () => {
    await expect(httpClient(null)).rejects.toThrow(/401|UNAUTHENTICATED/);
    await expect(httpClient('not-a-key-of-this-service')).rejects.toThrow(/401|UNAUTHENTICATED/);
    const get = await fetch(`${origin}/mcp`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(get.status).toBe(405);
  });

  it('says what it needs and what went wrong, with the API’s code', async () => {
    const client = await httpClient();
    try {
      const neither = await call(client, 'thread_history', {});
      expect(neither).toEqual({ isError: true, text: 'Pass thread_id, or project (the directory you work in).' });
      const unknown = await call(client, 'handoff_context', {
        project: `/nowhere/${uniqueId('p')}`,
        provider: 'codex',
      });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/^No thread of project/);
      const provider = await call(client, 'handoff_context', { thread_id: uniqueId('none'), provider: 'codex' });
      expect(provider).toMatchObject({ isError: true, text: expect.stringMatching(/^NOT_FOUND: /) });
    } finally {
      await client.close();
    }
  });

  it('bounds a long history: it stops before the bound and says where to go on', async () => {
    const threadId = uniqueId('mcp-long');
    await ok(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, {
      input: { id: threadId },
    });
    const runs = Array.from({ length: 40 }, (_, index) => ({
      sourceKey: String(index),
      startedAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
      status: 'COMPLETED',
      userMessage: `question ${index} `.padEnd(2_000, 'q'),
      assistantMessage: `answer ${index} `.padEnd(2_000, 'a'),
      facts: Array.from({ length: 10 }, (_, fact) => ({ kind: 'NOTE', text: `note ${fact} `.padEnd(400, 'n') })),
    }));
    await ok(`mutation($input: ImportRunsInput!) { importRuns(input: $input) { runs { id } } }`, {
      input: { threadId, providerThread: { provider: 'codex', nativeThreadRef: uniqueId('session') }, runs },
    });
    const client = await httpClient();
    try {
      const answer = await call(client, 'thread_history', { thread_id: threadId, limit: 50 });
      expect(answer.text.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
      const page = JSON.parse(answer.text);
      expect(page.runs.length).toBeGreaterThan(0);
      expect(page.runs.length).toBeLessThan(50);
      expect(page.next_from_ordinal).toBe(page.runs.at(-1).ordinal + 1);
      expect(page.runs[0].user).toMatch(/^question 0 q+…$/);
      const next = JSON.parse(
        (await call(client, 'thread_history', { thread_id: threadId, from_ordinal: page.next_from_ordinal })).text,
      );
      expect(next.runs[0].ordinal).toBe(page.next_from_ordinal);
    } finally {
      await client.close();
    }
  });
});

describe('MCP over stdio (threadline mcp)', () => {
  it('lists the same tools, answers through the service, and reports a refused token as UNAUTHENTICATED', async () => {
    const { project, threadId } = await projectThread();
    const client = await stdioClient(KEY);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
      const lineage = await callJson(client, 'thread_lineage', { project });
      expect(lineage).toMatchObject({ id: threadId, runCount: 5 });
      const history = await callJson(client, 'thread_history', { thread_id: threadId, kinds: ['todos'] });
      expect(history.runs).toEqual([expect.objectContaining({ ordinal: 3 })]);
      const handoff = await call(client, 'handoff_context', { thread_id: threadId, provider: 'claude' });
      expect(handoff.text).toContain('decision: NO_HANDOFF');
      const note = await callJson(client, 'record_fact', { thread_id: threadId, kind: 'note', text: 'stdio note' });
      expect(note.fact).toMatchObject({ kind: 'NOTE', text: 'stdio note' });
      const found = await callJson(client, 'find_threads', { text: threadId });
      expect(found.threads.map((thread: { id: string }) => thread.id)).toEqual([threadId]);
    } finally {
      await client.close();
    }
    const refused = await stdioClient('not-a-key-of-this-service');
    try {
      const answer = await call(refused, 'find_threads', {});
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/^UNAUTHENTICATED: /);
    } finally {
      await refused.close();
    }
  });
});
