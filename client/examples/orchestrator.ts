// One conversation across Codex and Claude, orchestrated through Threadline (docs/client.md).
import { createThreadlineClient, CreateThreadDocument, runTurn, type Agent } from '../index.js';

const threadline = createThreadlineClient({ url: process.env.THREADLINE_URL ?? 'http://127.0.0.1:4000', apiKey: process.env.THREADLINE_TOKEN });

// Stands in for the provider's SDK: resume the native thread the dispatch names or start a new one,
// send dispatch.context (when there is one) as dispatch.delivery says, then the user's message.
const agent: Agent = ({ dispatch }) => {
  const resume = dispatch.providerThreadAction === 'RESUME' || dispatch.providerThreadAction === 'REUSE';
  const nativeThreadRef = resume && dispatch.nativeThreadRef ? dispatch.nativeThreadRef : crypto.randomUUID();
  return { nativeThreadRef, assistantMessage: `Done: ${dispatch.userMessage}` };
};

const { createThread: thread } = await threadline.request(CreateThreadDocument, { input: { title: 'Client example' } });
for (const [provider, userMessage] of [['codex', 'Add a CSV parser.'], ['claude', 'Review the parser.'], ['codex', 'Apply the review.']] as const) {
  const turn = await runTurn(threadline, { threadId: thread.id, provider, userMessage }, agent);
  console.log(`#${turn.run.ordinal} ${provider}: ${turn.served.plan.decision}, context ${turn.served.dispatch.context?.length ?? 0} chars, ${turn.run.status}`);
}
