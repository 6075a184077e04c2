import type { ThreadRecord } from '../domain/records.js';
import { createThread as mergeThread, threadPage } from '../graph/repositories/threads.js';
import { newId, type OperationContext } from './context.js';

export async function createThread(context: OperationContext, id: string | null, title: string | null): Promise<ThreadRecord> {
  return context.graph.write((tx) => mergeThread(tx, id ?? newId('th'), title));
}

export interface ThreadPage {
  threads: ThreadRecord[];
  hasNextPage: boolean;
}

export async function listThreads(context: OperationContext, after: { createdAt: string; id: string } | null, first: number): Promise<ThreadPage> {
  const rows = await context.graph.read((tx) => threadPage(tx, after, first + 1));
  return { threads: rows.slice(0, first), hasNextPage: rows.length > first };
}
