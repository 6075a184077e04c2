// One orchestrator turn: startRun, hand the dispatch to the agent, bindNativeThread with the native id
// the agent ran in, completeRun; failRun when the agent throws. A provider that resumed blank (it ran
// a fresh session where a resume was asked) gets the re-planned dispatch, a full summary into a new
// provider thread, and runs the turn again: what it did in the blank session is not recorded. A
// handoff left PENDING for a provider to write is written first (writeSummary), or waited for.
import { ThreadlineClientError, type ThreadlineClient } from './client.js';
import {
  BindNativeThreadDocument,
  CompleteRunDocument,
  FailRunDocument,
  RunContextDocument,
  StartRunDocument,
  SubmitHandoffSummaryDocument,
  type BindNativeThreadMutation,
  type CompleteRunInput,
  type CompleteRunMutation,
  type RunHandoffFragment,
  type StartedRunFragment,
  type StartRunInput,
} from './generated/operations.js';

/** What the agent was asked before, when its session resumed blank: that dispatch is replaced. */
export interface ReplacedDispatch {
  dispatch: StartedRunFragment['dispatch'];
  /** The provider thread it was to resume, now RESUME_FAILED. */
  providerThread: BindNativeThreadMutation['bindNativeThread']['providerThread'];
  /** The native id the provider reported instead. */
  nativeThreadRef: string;
}

/**
 * What the agent must do: `dispatch` says the provider thread action (CREATE, REUSE, RESUME,
 * NATIVE_FORK), the native id to resume or fork (`nativeThreadRef`), the context to send before the
 * user's message and how (`context`, `delivery`), and the fencing token. `replaced` is set on the
 * second call of a turn whose first session resumed blank. The handoff is never PENDING here: runTurn
 * has its summary written, or waits for it, first.
 */
export type AgentCall = StartedRunFragment & { replaced: ReplacedDispatch | null };

/** The agent's answer: the native thread the provider ran the turn in, and what the turn produced. */
export type AgentReply = { nativeThreadRef: string } & Omit<CompleteRunInput, 'runId' | 'fencingToken'>;

export type Agent = (call: AgentCall) => AgentReply | Promise<AgentReply>;

/** What a PENDING handoff asks for: who writes it, for whom, from what, and at most how long. */
export type SummaryRequest = NonNullable<RunHandoffFragment['summaryRequest']>;

/**
 * Writes a summary startRun left PENDING: have `request.writer` (the provider being left or entered)
 * summarize `request.document` for `request.targetProvider` in at most `request.budgetChars`
 * characters, and answer the text. `started` is the started run, its plan and its handoff.
 */
export type SummaryWriter = (request: SummaryRequest, started: StartedRunFragment) => string | Promise<string>;

export interface RunTurnOptions {
  /** Writes a PENDING handoff's summary, which runTurn submits (submitHandoffSummary) before calling the agent. */
  writeSummary?: SummaryWriter;
  /**
   * Without writeSummary (or after it, if the handoff is PENDING again): how long to wait for the
   * handoff to become READY, submitted by someone else or expired and replaced by a local summary
   * (after the service's pendingTimeoutSeconds, swept every 30 s at most). Default 0: do not wait.
   * Past it the run is interrupted and runTurn rejects with SUMMARY_PENDING.
   */
  summaryWaitMs?: number;
  /** How often to read the run again while waiting. Default 1000. */
  summaryPollMs?: number;
}

/** The code of the ThreadlineClientError runTurn rejects with when a handoff is still PENDING past summaryWaitMs. */
export const SUMMARY_PENDING = 'SUMMARY_PENDING';

export interface TurnResult {
  /** The run as startRun planned and dispatched it (its handoff perhaps PENDING, with no context yet). */
  started: StartedRunFragment;
  /**
   * The dispatch the completed run answers: `started`, read again once its PENDING handoff was written
   * or replaced, or the re-planned one after a resumed blank.
   */
  served: StartedRunFragment;
  resumedBlank: boolean;
  reply: AgentReply;
  run: CompleteRunMutation['completeRun'];
}

/** At most one re-dispatch: a re-planned run creates a provider thread, which cannot resume blank. */
const MAX_DISPATCHES = 2;
/** Summaries written per dispatch: a second one only if the first handoff was replaced by another PENDING one. */
const MAX_SUMMARY_WRITES = 2;
/**
 * Reads of the run that may find its handoff FAILED or SUPERSEDED: the run and its handoff are read
 * apart, so a read may see the run before a replacement committed and the handoff after. Read again.
 */
const MAX_RACED_READS = 3;
const DEFAULT_SUMMARY_POLL_MS = 1000;

export async function runTurn(
  client: ThreadlineClient,
  input: StartRunInput,
  agent: Agent,
  options: RunTurnOptions = {},
): Promise<TurnResult> {
  const { startRun: started } = await client.request(StartRunDocument, { input });
  let served = await settleContext(client, started, options);
  let replaced: ReplacedDispatch | null = null;
  for (let dispatches = 1; ; dispatches++) {
    const reply = await failingRunOnError(client, served, () => agent({ ...served, replaced }));
    const { bindNativeThread: bound } = await client.request(BindNativeThreadDocument, {
      input: {
        providerThreadId: served.providerThread.id,
        nativeThreadRef: reply.nativeThreadRef,
        fencingToken: served.dispatch.fencingToken,
      },
    });
    if (!bound.resumedBlank) {
      const { nativeThreadRef: _native, ...outcome } = reply;
      const { completeRun: run } = await client.request(CompleteRunDocument, {
        input: { ...outcome, runId: served.run.id, fencingToken: served.dispatch.fencingToken },
      });
      return { started, served, resumedBlank: replaced !== null, reply, run };
    }
    if (!bound.replanned || dispatches >= MAX_DISPATCHES) {
      throw new Error(
        `run ${served.run.id}: the provider resumed blank again (${reply.nativeThreadRef}) and no re-planned dispatch is left to send`,
      );
    }
    replaced = {
      dispatch: served.dispatch,
      providerThread: bound.providerThread,
      nativeThreadRef: reply.nativeThreadRef,
    };
    served = await settleContext(client, bound.replanned, options);
  }
}

/**
 * The run with its context ready to send: as it is when its handoff is not PENDING; otherwise read
 * again (plan, handoff, dispatch) once its handoff is READY: writeSummary's text submitted, or the
 * handoff submitted elsewhere or replaced by a local summary within summaryWaitMs. The run is failed
 * when the writer throws or its text is refused, and interrupted (SUMMARY_PENDING) when the wait runs out.
 */
async function settleContext(
  client: ThreadlineClient,
  started: StartedRunFragment,
  options: RunTurnOptions,
): Promise<StartedRunFragment> {
  if (started.handoff?.status !== 'PENDING') return started;
  return failingRunOnError(client, started, async () => {
    const waitStarted = Date.now();
    const deadline = waitStarted + (options.summaryWaitMs ?? 0);
    let current = started;
    let written = 0;
    let raced = 0;
    while (current.handoff && current.handoff.status !== 'READY') {
      const { status, summaryRequest: request } = current.handoff;
      if (status !== 'PENDING' && raced < MAX_RACED_READS) {
        raced++;
      } else if (status === 'PENDING' && options.writeSummary && request && written < MAX_SUMMARY_WRITES) {
        written++;
        const summaryText = await options.writeSummary(request, current);
        try {
          await client.request(SubmitHandoffSummaryDocument, {
            input: { handoffId: request.handoffId, summaryText, createdByProvider: request.writer },
          });
        } catch (error) {
          // CONFLICT: the handoff stopped waiting meanwhile (it expired, or was regenerated); what
          // replaced it is read below.
          if (!(error instanceof ThreadlineClientError && error.code === 'CONFLICT')) throw error;
        }
      } else {
        const left = deadline - Date.now();
        if (left <= 0) throw summaryPending(current, Date.now() - waitStarted);
        await pause(Math.min(left, options.summaryPollMs ?? DEFAULT_SUMMARY_POLL_MS));
      }
      current = await readContext(client, current);
    }
    return current;
  });
}

/** The run's plan, handoff and dispatch as they stand now. */
async function readContext(client: ThreadlineClient, served: StartedRunFragment): Promise<StartedRunFragment> {
  const { run } = await client.request(RunContextDocument, { id: served.run.id });
  if (!run)
    throw new ThreadlineClientError(
      [{ message: `run ${served.run.id} is gone`, extensions: { code: 'NOT_FOUND', runId: served.run.id } }],
      200,
    );
  return {
    ...served,
    run: { ...served.run, status: run.status },
    plan: run.plan,
    handoff: run.contextHandoff,
    dispatch: run.dispatch,
  };
}

function summaryPending(served: StartedRunFragment, waitedMs: number): ThreadlineClientError {
  const handoff = served.handoff!;
  const writer = handoff.summaryRequest?.writer ?? null;
  return new ThreadlineClientError(
    [
      {
        message:
          `run ${served.run.id}: handoff ${handoff.id} is ${handoff.status}` +
          `${writer ? `, waiting for its summary from ${writer},` : ''} after ${waitedMs} ms; ` +
          `pass writeSummary to write it, or summaryWaitMs to wait for it`,
        extensions: { code: SUMMARY_PENDING, runId: served.run.id, handoffId: handoff.id, writer, waitedMs },
      },
    ],
    200,
  );
}

/**
 * The agent's turn, or the writing of its summary; when it throws, the run is failed (fenced by the
 * dispatch; interrupted for SUMMARY_PENDING, which is no failure of the agent) and the error rethrown.
 */
async function failingRunOnError<T>(
  client: ThreadlineClient,
  served: StartedRunFragment,
  work: () => T | Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // failRun takes 1..20000 characters.
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 20_000) || 'the agent failed';
    const interrupted = error instanceof ThreadlineClientError && error.code === SUMMARY_PENDING;
    try {
      await client.request(FailRunDocument, {
        input: { runId: served.run.id, error: message, interrupted, fencingToken: served.dispatch.fencingToken },
      });
    } catch (failure) {
      throw new AggregateError([error, failure], `run ${served.run.id}: the turn failed, and failRun was refused too`, {
        cause: failure,
      });
    }
    throw error;
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
