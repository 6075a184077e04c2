// The bench's GraphQL client: the service's public API over HTTP, as an orchestrator or a UI calls
// it, with the answers typed as far as the bench reads them.

export interface OrdinalRangeView {
  from: number;
  to: number;
}

export interface PlanView {
  decision: string;
  providerThreadAction: string;
  providerThread: { id: string } | null;
  handoffStrategy: string | null;
  coveredRunOrdinals: OrdinalRangeView | null;
  stalenessSignals: string[];
}

export interface StartedRun {
  run: { id: string; ordinal: number };
  plan: PlanView;
}

export interface RollbackView {
  rolledBackRunCount: number;
  providerThreads: { providerThread: { id: string }; action: 'ROLLED_BACK' | 'DIVERGENT' }[];
}

export interface PlanInput {
  threadId: string;
  provider: string;
  runtimeMode?: string | null;
  cleanContext?: boolean;
}

interface GraphQLErrorBody {
  message: string;
  extensions?: { code?: string };
}

/** A GraphQL error answer, with the first error's code where interleaved() counts errors. */
export class ApiError extends Error {
  readonly code: string;

  constructor(readonly errors: GraphQLErrorBody[]) {
    super(JSON.stringify(errors));
    this.code = errors[0]?.extensions?.code ?? 'GRAPHQL_ERROR';
  }
}

const PLAN_FIELDS = 'decision providerThreadAction providerThread { id } handoffStrategy coveredRunOrdinals { from to } stalenessSignals';
const STARTED_FIELDS = `run { id ordinal } plan { ${PLAN_FIELDS} }`;

export class Api {
  constructor(readonly url: string) {}

  /** One POST; rejects with ApiError on any GraphQL error. */
  async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    const body = (await response.json()) as { data?: T | null; errors?: GraphQLErrorBody[] };
    if (body.errors?.length) throw new ApiError(body.errors);
    if (body.data === undefined || body.data === null) throw new ApiError([{ message: `HTTP ${response.status} without data` }]);
    return body.data;
  }

  async planRun(input: PlanInput): Promise<PlanView> {
    return (await this.request<{ planRun: PlanView }>(`query Plan($input: PlanRunInput!) { planRun(input: $input) { ${PLAN_FIELDS} } }`, { input })).planRun;
  }

  async startRun(input: PlanInput & { userMessage: string }): Promise<StartedRun> {
    return (await this.request<{ startRun: StartedRun }>(`mutation Start($input: StartRunInput!) { startRun(input: $input) { ${STARTED_FIELDS} } }`, { input })).startRun;
  }

  async completeRun(runId: string): Promise<void> {
    await this.request(`mutation Complete($input: CompleteRunInput!) { completeRun(input: $input) { id } }`, { input: { runId, assistantMessage: 'done' } });
  }

  async failRun(runId: string): Promise<void> {
    await this.request(`mutation Fail($input: FailRunInput!) { failRun(input: $input) { id } }`, { input: { runId, error: 'bench: iteration failed', interrupted: true } });
  }

  async reportResumeFailure(runId: string): Promise<StartedRun> {
    return (
      await this.request<{ reportResumeFailure: StartedRun }>(`mutation ResumeFailed($input: ReportResumeFailureInput!) { reportResumeFailure(input: $input) { ${STARTED_FIELDS} } }`, {
        input: { runId, error: 'bench: the native session is gone' },
      })
    ).reportResumeFailure;
  }

  async rollbackThread(threadId: string, toOrdinal: number): Promise<RollbackView> {
    return (
      await this.request<{ rollbackThread: RollbackView }>(
        `mutation Rollback($input: RollbackThreadInput!) { rollbackThread(input: $input) { rolledBackRunCount providerThreads { providerThread { id } action } } }`,
        { input: { threadId, toOrdinal } },
      )
    ).rollbackThread;
  }

  async confirmProviderRollback(providerThreadId: string): Promise<void> {
    await this.request(`mutation Confirm($input: ProviderRollbackInput!) { confirmProviderRollback(input: $input) { id } }`, { input: { providerThreadId } });
  }

  async forkThread(sourceThreadId: string): Promise<string> {
    return (await this.request<{ forkThread: { id: string } }>(`mutation Fork($input: ForkThreadInput!) { forkThread(input: $input) { id } }`, { input: { sourceThreadId } })).forkThread.id;
  }

  async bindProviderThread(providerThreadId: string, nativeThreadRef: string): Promise<void> {
    await this.request(`mutation Bind($input: BindProviderThreadInput!) { bindProviderThread(input: $input) { id } }`, { input: { providerThreadId, nativeThreadRef } });
  }
}

/** "DECISION/ACTION from-to [SIGNALS]", as the report shows a plan. */
export function describePlan(plan: PlanView): string {
  const range = plan.coveredRunOrdinals ? ` ${plan.coveredRunOrdinals.from}-${plan.coveredRunOrdinals.to}` : '';
  const signals = plan.stalenessSignals.length ? ` [${plan.stalenessSignals.join(', ')}]` : '';
  return `${plan.decision}/${plan.providerThreadAction}${range}${signals}`;
}
