// GraphQL operations the integration tests drive the service with, as an orchestrator would.
import { expect } from 'vitest';
import { ThreadlineClientError } from '../../client/index.js';
import { codeOf, uniqueId, type TestService } from './service.js';

const PLAN_FIELDS = `decision providerThreadAction providerThread { id } handoffStrategy coveredRunOrdinals { from to } stalenessSignals reasons`;
export const HANDOFF_FIELDS = `id transferId threadId targetRunId fromProviderThreadIds toProviderThreadId coveredRunOrdinals { from to } strategy summaryText status createdByProvider delivery supersedes { id } supersededBy { id }`;
export const START_RUN = `mutation Start($input: StartRunInput!) {
  startRun(input: $input) {
    run { id ordinal status provider providerThread { id } contextHandoff { id } }
    plan { ${PLAN_FIELDS} }
    providerThread { id provider status nativeThreadRef }
    handoff { ${HANDOFF_FIELDS} }
    dispatch { providerThreadAction nativeThreadRef delivery context userMessage }
  }
}`;
export const COMPLETE_RUN = `mutation Complete($input: CompleteRunInput!) { completeRun(input: $input) { id status } }`;
export const PLAN_RUN = `query Plan($input: PlanRunInput!) { planRun(input: $input) { ${PLAN_FIELDS} } }`;
const COVERAGE = `query Coverage($id: ID!) {
  providerThread(id: $id) { id provider status firstRunOrdinal lastRunOrdinal handoffIds
    coverage { nativeRunOrdinals handoffIds coveredThroughOrdinal missingRunOrdinals } }
}`;

export async function createThread(t: TestService, title = 'test thread'): Promise<string> {
  const id = uniqueId('thread');
  await t.ok(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, { input: { id, title } });
  return id;
}

export interface StartOptions {
  model?: string;
  runtimeMode?: string;
  cleanContext?: boolean;
  userMessage?: string;
  idempotencyKey?: string;
  manualContext?: string;
}

export async function startRun(t: TestService, threadId: string, provider: string, options: StartOptions = {}) {
  const data = await t.ok(START_RUN, {
    input: { threadId, provider, userMessage: options.userMessage ?? `message for ${provider}`, ...options },
  });
  return data.startRun;
}

export async function completeRun(t: TestService, runId: string, extra: Record<string, unknown> = {}) {
  return (await t.ok(COMPLETE_RUN, { input: { runId, assistantMessage: 'done', ...extra } })).completeRun;
}

/** Starts and completes `count` runs on one provider; returns the last start payload. */
export async function runTurns(
  t: TestService,
  threadId: string,
  provider: string,
  count: number,
  options: StartOptions = {},
) {
  let last: any;
  for (let i = 0; i < count; i++) {
    last = await startRun(t, threadId, provider, options);
    await completeRun(t, last.run.id);
  }
  return last;
}

export async function plan(
  t: TestService,
  threadId: string,
  provider: string,
  options: Omit<StartOptions, 'userMessage' | 'idempotencyKey'> = {},
) {
  return (await t.ok(PLAN_RUN, { input: { threadId, provider, ...options } })).planRun;
}

export async function coverage(t: TestService, providerThreadId: string) {
  return (await t.ok(COVERAGE, { id: providerThreadId })).providerThread;
}

/** The refusal a call met: its ThreadlineClientError, or a failed test when it went through. */
export async function refusal(call: Promise<unknown>, code: string): Promise<ThreadlineClientError> {
  const error = await call.then(
    (data) => new Error(`expected ${code}, got ${JSON.stringify(data)}`),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ThreadlineClientError);
  expect((error as ThreadlineClientError).code).toBe(code);
  return error as ThreadlineClientError;
}

export async function expectCode(promise: Promise<{ errors?: unknown }>, code: string) {
  const result = (await promise) as Parameters<typeof codeOf>[0];
  expect(result.errors, JSON.stringify(result)).toBeDefined();
  expect(codeOf(result)).toBe(code);
  return result;
}
