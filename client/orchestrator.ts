// One orchestrator turn: startRun, hand the dispatch to the agent, bindNativeThread with the native id
// the agent ran in, completeRun; failRun when the agent throws. A provider that resumed blank (it ran
// a fresh session where a resume was asked) gets the re-planned dispatch, a full summary into a new
// provider thread, and runs the turn again: what it did in the blank session is not recorded.
import type { ThreadlineClient } from './client.js';
import {
  BindNativeThreadDocument,
  CompleteRunDocument,
  FailRunDocument,
  StartRunDocument,
  type BindNativeThreadMutation,
  type CompleteRunInput,
  type CompleteRunMutation,
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
 * second call of a turn whose first session resumed blank.
 */
export type AgentCall = StartedRunFragment & { replaced: ReplacedDispatch | null };

/** The agent's answer: the native thread the provider ran the turn in, and what the turn produced. */
export type AgentReply = { nativeThreadRef: string } & Omit<CompleteRunInput, 'runId' | 'fencingToken'>;

export type Agent = (call: AgentCall) => AgentReply | Promise<AgentReply>;

export interface TurnResult {
  /** The run as startRun planned and dispatched it. */
  started: StartedRunFragment;
  /** The dispatch the completed run answers: `started`, or the re-planned one after a resumed blank. */
  served: StartedRunFragment;
  resumedBlank: boolean;
  reply: AgentReply;
  run: CompleteRunMutation['completeRun'];
}

/** At most one re-dispatch: a re-planned run creates a provider thread, which cannot resume blank. */
const MAX_DISPATCHES = 2;

export async function runTurn(client: ThreadlineClient, input: StartRunInput, agent: Agent): Promise<TurnResult> {
  const { startRun: started } = await client.request(StartRunDocument, { input });
  let served = started;
  let replaced: ReplacedDispatch | null = null;
  for (let dispatches = 1; ; dispatches++) {
    const reply = await callAgent(client, served, agent, replaced);
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
    served = bound.replanned;
  }
}

/** The agent's turn; when it throws, the run is failed (fenced by the dispatch) and its error rethrown. */
async function callAgent(
  client: ThreadlineClient,
  served: StartedRunFragment,
  agent: Agent,
  replaced: ReplacedDispatch | null,
): Promise<AgentReply> {
  try {
    return await agent({ ...served, replaced });
  } catch (error) {
    // failRun takes 1..20000 characters.
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 20_000) || 'the agent failed';
    try {
      await client.request(FailRunDocument, {
        input: { runId: served.run.id, error: message, fencingToken: served.dispatch.fencingToken },
      });
    } catch (failure) {
      throw new AggregateError(
        [error, failure],
        `run ${served.run.id}: the agent failed, and failRun was refused too`,
        { cause: failure },
      );
    }
    throw error;
  }
}
