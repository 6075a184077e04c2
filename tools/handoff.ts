/**
 * `threadline handoff --to PROVIDER [--project DIR | --thread ID] [--out FILE] [--json]`: the context
 * a run on PROVIDER should be given now in the thread of that project (default: the current folder's),
 * from previewRun: read-only, nothing is planned or written. The context alone goes to stdout (or to
 * FILE), ready for `codex "$(threadline handoff --to codex)"`; what it means goes to stderr.
 */
import { writeFile } from 'node:fs/promises';
import { createThreadlineClient, PreviewRunDocument, type PreviewRunQuery } from '../client/index.js';
import { log } from './log.js';
import { projectOf } from './project.js';
import { threadOfProject } from './threadIndex.js';

export interface HandoffOptions {
  url: string;
  token: string | undefined;
  to: string;
  project: string | undefined;
  thread: string | undefined;
  out: string | undefined;
  json: boolean;
}

/** 0 with the context (or none needed), 1 when there is no thread or the context waits for a writer. */
export async function handoffCommand(options: HandoffOptions): Promise<number> {
  const client = createThreadlineClient({ url: options.url, apiKey: options.token });
  const project = options.thread === undefined ? projectOf(options.project ?? process.cwd())! : null;
  const threadId = options.thread ?? (await threadOfProject(client, project!));
  if (threadId === null) {
    log('error', `No thread for the project ${project}: import or watch its sessions first (threadline import).`, {
      project,
    });
    return 1;
  }
  const preview = (await client.request(PreviewRunDocument, { input: { threadId, provider: options.to } })).previewRun;
  if (options.json) process.stdout.write(`${JSON.stringify({ threadId, project, ...preview })}\n`);
  else if (preview.context !== null) {
    if (options.out === undefined) process.stdout.write(`${preview.context}\n`);
    else await writeFile(options.out, `${preview.context}\n`);
  }
  log('info', describe(options.to, threadId, preview), {
    threadId,
    decision: preview.plan.decision,
    providerThreadAction: preview.providerThreadAction,
  });
  return preview.pendingWriter === null && preview.plan.decision !== 'UNSUPPORTED' ? 0 : 1;
}

function describe(provider: string, threadId: string, preview: PreviewRunQuery['previewRun']): string {
  const { plan, providerThreadAction, nativeThreadRef, context, pendingWriter } = preview;
  const session =
    providerThreadAction === 'CREATE'
      ? `start a new ${provider} session`
      : `${providerThreadAction === 'RESUME' ? 'resume' : 'keep using'} ${provider} session ${nativeThreadRef}`;
  const what =
    pendingWriter !== null
      ? `the summary is not written yet: ${pendingWriter} is to write it`
      : context === null
        ? 'no context is needed'
        : `${context.length} characters of context (${preview.delivery})`;
  return `Thread ${threadId}, ${plan.decision}: ${session}; ${what}. Nothing was written.`;
}
