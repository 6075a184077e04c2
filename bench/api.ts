// The bench's GraphQL client: the service's public API over HTTP through the typed client (client/),
// as an orchestrator or a UI calls it. The bench's own reads (coverage, analytics, the viewer's
// window) are hand-written documents sent through the same transport.
import {
  BindNativeThreadDocument,
  CompleteRunDocument,
  ConfirmProviderRollbackDocument,
  createThreadlineClient,
  FailRunDocument,
  ForkThreadDocument,
  PlanRunDocument,
  ReportResumeFailureDocument,
  RollbackThreadDocument,
  StartRunDocument,
  type PlanFragment,
  type PlanRunInput,
  type RollbackThreadMutation,
  type StartedRunFragment,
  type ThreadlineClient,
} from '../client/index.js';

/** A GraphQL error answer; `code` is the first error's, which interleaved() counts. */
export { ThreadlineClientError as ApiError } from '../client/index.js';

export type PlanView = PlanFragment;
export type StartedRun = StartedRunFragment;
export type RollbackView = RollbackThreadMutation['rollbackThread'];
export type PlanInput = PlanRunInput;

export class Api {
  private readonly client: ThreadlineClient;

  constructor(readonly url: string) {
    this.client = createThreadlineClient({ url });
  }

  /** One POST of a hand-written document; rejects with ApiError on any GraphQL error. */
  async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    return this.client.request<T, Record<string, unknown>>(query, variables);
  }

  async planRun(input: PlanInput): Promise<PlanView> {
    return (await this.client.request(PlanRunDocument, { input })).planRun;
  }

  async startRun(input: PlanInput & { userMessage: string }): Promise<StartedRun> {
    return (await this.client.request(StartRunDocument, { input })).startRun;
  }

  async completeRun(runId: string): Promise<void> {
    await this.client.request(CompleteRunDocument, { input: { runId, assistantMessage: 'done' } });
  }

  async failRun(runId: string): Promise<void> {
    await this.client.request(FailRunDocument, {
      input: { runId, error: 'bench: iteration failed', interrupted: true },
    });
  }

  async reportResumeFailure(runId: string): Promise<StartedRun> {
    return (
      await this.client.request(ReportResumeFailureDocument, {
        input: { runId, error: 'bench: the native session is gone' },
      })
    ).reportResumeFailure;
  }

  async rollbackThread(threadId: string, toOrdinal: number): Promise<RollbackView> {
    return (await this.client.request(RollbackThreadDocument, { input: { threadId, toOrdinal } })).rollbackThread;
  }

  async confirmProviderRollback(providerThreadId: string): Promise<void> {
    await this.client.request(ConfirmProviderRollbackDocument, { input: { providerThreadId } });
  }

  async forkThread(sourceThreadId: string): Promise<string> {
    return (await this.client.request(ForkThreadDocument, { input: { sourceThreadId } })).forkThread.id;
  }

  async bindProviderThread(providerThreadId: string, nativeThreadRef: string): Promise<void> {
    await this.client.request(BindNativeThreadDocument, { input: { providerThreadId, nativeThreadRef } });
  }
}

/** "DECISION/ACTION from-to [SIGNALS]", as the report shows a plan. */
export function describePlan(plan: PlanView): string {
  const range = plan.coveredRunOrdinals ? ` ${plan.coveredRunOrdinals.from}-${plan.coveredRunOrdinals.to}` : '';
  const signals = plan.stalenessSignals.length ? ` [${plan.stalenessSignals.join(', ')}]` : '';
  return `${plan.decision}/${plan.providerThreadAction}${range}${signals}`;
}
