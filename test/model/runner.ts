// Runs the model's operations against the real service over GraphQL and reports what it answered
// in the model's terms: every id the service gave out is translated back to the model's symbol.
import { bySymbol, nativeRefOf, tokenSymbol, type Operation, type Outcome } from './operations.js';
import { checkpointOf, type ThreadView } from './lineageModel.js';

export interface GraphQLResult {
  data?: any;
  errors?: { message: string; extensions?: { code?: string } }[] | undefined;
}

/** One GraphQL request against the service under test. */
export type GraphQLClient = (query: string, variables: Record<string, unknown>) => Promise<GraphQLResult>;

const PLAN = `decision providerThreadAction providerThread { id } handoffStrategy coveredRunOrdinals { from to } stalenessSignals`;
const START_PAYLOAD = `run { id ordinal } plan { ${PLAN} } providerThread { id } handoff { id strategy coveredRunOrdinals { from to } supersedes { id } } dispatch { fencingToken }`;

const DOCUMENTS: Record<Operation['op'], string> = {
  createThread: `mutation($input: CreateThreadInput!) { createThread(input: $input) { id headOrdinal } }`,
  startRun: `mutation($input: StartRunInput!) { startRun(input: $input) { ${START_PAYLOAD} } }`,
  planRun: `query($input: PlanRunInput!) { planRun(input: $input) { ${PLAN} } }`,
  completeRun: `mutation($input: CompleteRunInput!) { completeRun(input: $input) { id status checkpoint { id } } }`,
  failRun: `mutation($input: FailRunInput!) { failRun(input: $input) { id status checkpoint { id } } }`,
  reportResumeFailure: `mutation($input: ReportResumeFailureInput!) { reportResumeFailure(input: $input) { ${START_PAYLOAD} } }`,
  bindProviderThread: `mutation($input: BindProviderThreadInput!) { bindNativeThread(input: $input) { providerThread { id status } resumedBlank replanned { ${START_PAYLOAD} } } }`,
  rollbackThread: `mutation($input: RollbackThreadInput!) { rollbackThread(input: $input) {
    thread { headOrdinal } rolledBackRuns { id } supersededHandoffs { id } providerThreads { providerThread { id } action } } }`,
  confirmProviderRollback: `mutation($input: ProviderRollbackInput!) { confirmProviderRollback(input: $input) { id status } }`,
  reportProviderRollbackFailure: `mutation($input: ProviderRollbackFailureInput!) { reportProviderRollbackFailure(input: $input) { id status } }`,
  forkThread: `mutation($input: ForkThreadInput!) { forkThread(input: $input) { id headOrdinal } }`,
  mergeBack: `mutation($input: MergeBackInput!) { mergeBack(input: $input) { sourceThreadId targetThreadId sourcePoint { runOrdinal } basePoint { runOrdinal } } }`,
  spawnSubagent: `mutation($input: SpawnSubagentInput!) { spawnSubagent(input: $input) { id headOrdinal } }`,
  completeSubagent: `mutation($input: CompleteSubagentInput!) { completeSubagent(input: $input) { handoff { id } } }`,
  regenerateHandoff: `mutation($input: RegenerateHandoffInput!) { regenerateHandoff(input: $input) { id strategy coveredRunOrdinals { from to } supersedes { id } supersededBy { id } } }`,
  submitHandoffSummary: `mutation($input: SubmitHandoffSummaryInput!) { submitHandoffSummary(input: $input) { id status } }`,
};

/** Handoffs per status request, well within the query cost limit. */
const HANDOFFS_PER_REQUEST = 20;

/** Runs per thread read back; sequences are far shorter. */
const MAX_RUNS = 100;
const THREADS_PER_OBSERVATION = 6;

const THREAD_VIEW = `fragment ThreadView on Thread {
  headOrdinal
  runs(first: ${MAX_RUNS}) { edges { node { id ordinal status providerThread { id } contextHandoff { id } } } }
  providerThreads { id provider status firstRunOrdinal lastRunOrdinal
    coverage { nativeRunOrdinals handoffIds coveredThroughOrdinal missingRunOrdinals } }
  handoffs { id status strategy coveredRunOrdinals { from to } toProviderThreadId targetRunId }
  transfers { kind status sourceThreadId targetThreadId handoff { id } }
}`;

/** Symbols and service ids, both ways. */
class Names {
  private readonly idBySymbol = new Map<string, string>();
  private readonly symbolById = new Map<string, string>();

  bind(symbol: string, id: string): void {
    this.idBySymbol.set(symbol, id);
    this.symbolById.set(id, symbol);
  }

  idOf(symbol: string): string {
    const id = this.idBySymbol.get(symbol);
    if (id === undefined) throw new Error(`the service never gave out an id for ${symbol}`);
    return id;
  }

  /**
   * The symbol of a service id. An id seen for the first time takes the symbol the model expects
   * in its place, if that symbol is still free; anything else is shown as ?<id>, which no
   * expectation contains, so the comparison fails on it.
   */
  symbolOf(id: string | null | undefined, expected?: unknown): string | null {
    if (id === null || id === undefined) return null;
    const known = this.symbolById.get(id);
    if (known !== undefined) return known;
    if (typeof expected === 'string' && !this.idBySymbol.has(expected)) {
      this.bind(expected, id);
      return expected;
    }
    return `?${id}`;
  }

  ids(): string[] {
    return [...this.symbolById.keys()];
  }

  /** The bindings so far; reset() forgets every later one. */
  mark(): number {
    return this.idBySymbol.size;
  }

  reset(mark: number): void {
    for (const [symbol, id] of [...this.idBySymbol].slice(mark)) {
      this.idBySymbol.delete(symbol);
      this.symbolById.delete(id);
    }
  }
}

/** What the service answered an operation, before its ids are named. */
export type RawResult = GraphQLResult;

export class ServiceRunner {
  private readonly names = new Names();

  /** @param prefix makes this sequence's thread ids unique in the database. */
  constructor(
    private readonly client: GraphQLClient,
    private readonly prefix: string,
  ) {}

  /** Every service id this sequence met, for picking its rows out of the audit. */
  serviceIds(): string[] {
    return [this.prefix, ...this.names.ids()];
  }

  async execute(operation: Operation, expected: Outcome): Promise<Outcome> {
    return this.translate(operation, await this.send(operation), expected);
  }

  send(operation: Operation): Promise<RawResult> {
    return this.client(DOCUMENTS[operation.op], { input: this.input(operation) });
  }

  /** The names given out so far; forget() undoes every later one, so that a result can be named again. */
  mark(): number {
    return this.names.mark();
  }

  forget(mark: number): void {
    this.names.reset(mark);
  }

  /**
   * Of these handoffs (PENDING in the model), the ones the service's sweeper expired, each with the
   * id of the local handoff that replaced it.
   */
  async expired(handoffs: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let start = 0; start < handoffs.length; start += HANDOFFS_PER_REQUEST) {
      const some = handoffs.slice(start, start + HANDOFFS_PER_REQUEST);
      const fields = some
        .map((_, index) => `h${index}: contextHandoff(id: $h${index}) { status endedBecause supersededBy { id } }`)
        .join('\n');
      const query = `query Expired(${some.map((_, index) => `$h${index}: ID!`).join(', ')}) {\n${fields}\n}`;
      const result = await this.client(
        query,
        Object.fromEntries(some.map((symbol, index) => [`h${index}`, this.names.idOf(symbol)])),
      );
      if (result.errors?.length)
        throw new Error(`reading the pending handoffs failed: ${JSON.stringify(result.errors)}`);
      some.forEach((symbol, index) => {
        const handoff = result.data[`h${index}`];
        if (handoff.endedBecause === 'EXPIRED' && handoff.supersededBy) found.set(symbol, handoff.supersededBy.id);
      });
    }
    return found;
  }

  /** The model's symbol for a handoff the service wrote on its own (an expiry's replacement). */
  learned(symbol: string, id: string): void {
    this.names.bind(symbol, id);
  }

  translate(operation: Operation, result: RawResult, expected: Outcome): Outcome {
    const hint: any = 'ok' in expected ? expected.ok : {};
    if (result.errors?.length)
      return { error: result.errors[0]!.extensions?.code ?? `no code: ${result.errors[0]!.message}` };
    const data = Object.values(result.data ?? {})[0] as any;
    const name = (id: string | null | undefined, expectedSymbol?: unknown) => this.names.symbolOf(id, expectedSymbol);
    switch (operation.op) {
      case 'createThread':
      case 'forkThread':
      case 'spawnSubagent':
        return { ok: { thread: name(data.id), headOrdinal: data.headOrdinal } };
      case 'startRun':
      case 'reportResumeFailure':
        return { ok: this.startPayload(data, hint) };
      case 'planRun':
        return { ok: this.plan(data, hint) };
      case 'completeRun':
      case 'failRun':
        return {
          ok: { run: name(data.id), status: data.status, checkpoint: name(data.checkpoint?.id, hint.checkpoint) },
        };
      case 'bindProviderThread':
        return {
          ok: {
            providerThread: name(data.providerThread.id),
            status: data.providerThread.status,
            resumedBlank: data.resumedBlank,
            replanned: data.replanned && this.startPayload(data.replanned, hint.replanned),
          },
        };
      case 'rollbackThread':
        return {
          ok: {
            headOrdinal: data.thread.headOrdinal,
            rolledBackRuns: data.rolledBackRuns.map((run: any) => name(run.id)),
            // Oldest first, as the model gave them out: an expiry's replacement may be named after newer handoffs.
            supersededHandoffs: data.supersededHandoffs.map((handoff: any) => name(handoff.id)).sort(bySymbol),
            providerThreads: data.providerThreads.map((entry: any) => ({
              providerThread: name(entry.providerThread.id),
              action: entry.action,
            })),
          },
        };
      case 'confirmProviderRollback':
      case 'reportProviderRollbackFailure':
        return { ok: { providerThread: name(data.id), status: data.status } };
      case 'mergeBack':
        return {
          ok: {
            fork: name(data.sourceThreadId),
            into: name(data.targetThreadId),
            sourceRunOrdinal: data.sourcePoint.runOrdinal,
            baseRunOrdinal: data.basePoint?.runOrdinal ?? null,
          },
        };
      case 'completeSubagent':
        return { ok: { handoff: name(data.handoff?.id, hint.handoff) } };
      case 'regenerateHandoff':
        return {
          ok: {
            handoff: name(data.id, hint.handoff),
            supersedes: name(data.supersedes?.id),
            // The local summary replacing what a failed summarizer did not write is named here only.
            supersededBy: name(data.supersededBy?.id, hint.supersededBy),
            strategy: data.strategy,
            coveredRunOrdinals: data.coveredRunOrdinals,
          },
        };
      case 'submitHandoffSummary':
        return { ok: { handoff: name(data.id), status: data.status } };
    }
  }

  /** What the service shows of these threads, in the model's terms (ThreadView). */
  async observe(threads: string[]): Promise<Record<string, ThreadView>> {
    const views: Record<string, ThreadView> = {};
    // A few threads per request keeps each within the service's query cost limit.
    for (let start = 0; start < threads.length; start += THREADS_PER_OBSERVATION) {
      Object.assign(views, await this.observeSome(threads.slice(start, start + THREADS_PER_OBSERVATION)));
    }
    return views;
  }

  private async observeSome(threads: string[]): Promise<Record<string, ThreadView>> {
    const variables = Object.fromEntries(threads.map((thread, index) => [`t${index}`, this.names.idOf(thread)]));
    const fields = threads.map((_, index) => `t${index}: thread(id: $t${index}) { ...ThreadView }`).join('\n');
    const query = `query Observe(${threads.map((_, index) => `$t${index}: ID!`).join(', ')}) {\n${fields}\n}\n${THREAD_VIEW}`;
    const result = await this.client(query, variables);
    if (result.errors?.length) throw new Error(`observing the threads failed: ${JSON.stringify(result.errors)}`);
    const name = (id: string | null | undefined) => this.names.symbolOf(id);
    return Object.fromEntries(
      threads.map((thread, index) => {
        const view = result.data[`t${index}`];
        return [
          thread,
          {
            headOrdinal: view.headOrdinal,
            runs: view.runs.edges.map(({ node }: any) => ({
              id: name(node.id),
              ordinal: node.ordinal,
              status: node.status,
              providerThread: name(node.providerThread.id),
              contextHandoff: name(node.contextHandoff?.id),
            })),
            providerThreads: view.providerThreads.map((pt: any) => ({
              id: name(pt.id),
              provider: pt.provider,
              status: pt.status,
              firstRunOrdinal: pt.firstRunOrdinal,
              lastRunOrdinal: pt.lastRunOrdinal,
              coverage: { ...pt.coverage, handoffIds: pt.coverage.handoffIds.map(name).sort(bySymbol) },
            })),
            // In the order the model gave them out, not their creation order: the model names an
            // expiry's replacement when it learns of it, which may be after newer handoffs.
            handoffs: view.handoffs
              .map((handoff: any) => ({
                id: name(handoff.id),
                status: handoff.status,
                strategy: handoff.strategy,
                coveredRunOrdinals: handoff.coveredRunOrdinals,
                toProviderThread: name(handoff.toProviderThreadId),
                targetRun: name(handoff.targetRunId),
              }))
              .sort((a: { id: string | null }, b: { id: string | null }) => bySymbol(a.id, b.id)),
            mergeBacks: view.transfers
              .filter((transfer: any) => transfer.kind === 'MERGE_BACK' && name(transfer.targetThreadId) === thread)
              .map((transfer: any) => ({
                fork: name(transfer.sourceThreadId),
                status: transfer.status,
                handoff: name(transfer.handoff?.id),
              })),
          } satisfies ThreadView,
        ];
      }),
    );
  }

  private startPayload(data: any, hint: any) {
    const name = (id: string | null | undefined, expectedSymbol?: unknown) => this.names.symbolOf(id, expectedSymbol);
    return {
      run: name(data.run.id, hint?.run),
      ordinal: data.run.ordinal,
      providerThread: name(data.providerThread.id, hint?.providerThread),
      plan: this.plan(data.plan, hint?.plan),
      handoff: data.handoff && {
        id: name(data.handoff.id, hint?.handoff?.id),
        strategy: data.handoff.strategy,
        coveredRunOrdinals: data.handoff.coveredRunOrdinals,
        // The handoff a failed summarizer's replaces is named here only.
        supersedes: name(data.handoff.supersedes?.id, hint?.handoff?.supersedes),
      },
      fencingToken: name(data.dispatch.fencingToken, hint?.fencingToken),
    };
  }

  private plan(plan: any, expected: any) {
    return { ...plan, providerThread: this.names.symbolOf(plan.providerThread?.id, expected?.providerThread) };
  }

  /** The mutation's input, with symbols replaced by the service's ids. */
  private input(operation: Operation): Record<string, unknown> {
    const id = (symbol: string) => this.names.idOf(symbol);
    const token = (run: string | undefined, epoch: number | undefined) =>
      run === undefined || epoch === undefined ? {} : { fencingToken: id(tokenSymbol(run, epoch)) };
    const newThread = (symbol: string) => {
      const threadId = `${this.prefix}-${symbol}`;
      this.names.bind(symbol, threadId);
      return threadId;
    };
    switch (operation.op) {
      case 'createThread':
        return { id: newThread(operation.thread) };
      case 'startRun':
      case 'planRun': {
        const { op, thread, ...options } = operation;
        return { threadId: id(thread), ...options, ...(op === 'startRun' ? { userMessage: `message ${thread}` } : {}) };
      }
      case 'completeRun':
        return {
          runId: id(operation.run),
          assistantMessage: 'done',
          ...(operation.checkpoint ? { checkpoint: { ref: `ref-${operation.run}` } } : {}),
          ...token(operation.run, operation.dispatch),
        };
      case 'failRun':
        return {
          runId: id(operation.run),
          error: 'provider error',
          interrupted: operation.interrupted,
          ...token(operation.run, operation.dispatch),
        };
      case 'reportResumeFailure':
        return { runId: id(operation.run), error: 'thread not found', ...token(operation.run, operation.dispatch) };
      case 'bindProviderThread':
        return {
          providerThreadId: id(operation.providerThread),
          nativeThreadRef: nativeRefOf(operation),
          ...token(operation.dispatch?.run, operation.dispatch?.epoch),
        };
      case 'rollbackThread':
        return { threadId: id(operation.thread), toOrdinal: operation.toOrdinal };
      case 'confirmProviderRollback':
        return { providerThreadId: id(operation.providerThread) };
      case 'reportProviderRollbackFailure':
        return { providerThreadId: id(operation.providerThread), error: 'native rollback failed' };
      case 'forkThread': {
        const { from } = operation;
        const point =
          'ordinal' in from
            ? { fromOrdinal: from.ordinal }
            : 'checkpointOf' in from
              ? { checkpointId: id(checkpointOf(from.checkpointOf)) }
              : 'providerThread' in from
                ? { providerThreadId: id(from.providerThread) }
                : {};
        return { sourceThreadId: id(operation.source), ...point, id: newThread(operation.fork) };
      }
      case 'mergeBack':
        return { forkThreadId: id(operation.fork) };
      case 'spawnSubagent':
        return {
          parentRunId: id(operation.parentRun),
          provider: operation.provider,
          task: `task for ${operation.child}`,
          id: newThread(operation.child),
        };
      case 'completeSubagent':
        return { childThreadId: id(operation.child), result: `result of ${operation.child}` };
      case 'regenerateHandoff':
        return {
          handoffId: id(operation.handoff),
          ...(operation.source !== undefined && { source: operation.source }),
        };
      case 'submitHandoffSummary':
        return {
          handoffId: id(operation.handoff),
          summaryText: `The provider's summary for ${operation.handoff}.`,
          createdByProvider: 'claude',
        };
    }
  }
}
