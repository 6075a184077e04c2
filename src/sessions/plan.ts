// Plan and todo lists (Codex update_plan, Claude TodoWrite) are rewritten whole each time: the newest
// state wins, within a run and across runs.
import { asArray, asObject, asString } from './json.js';
import { clip } from './text.js';
import { SESSION_LIMITS, type ImportedFact } from './types.js';

export type PlanStatus = 'done' | 'open' | 'in_progress';

export interface PlanStep {
  text: string;
  status: PlanStatus;
}

/** Both providers spell step states pending / in_progress / completed. */
function planStatus(raw: unknown): PlanStatus {
  if (raw === 'completed') return 'done';
  return raw === 'in_progress' ? 'in_progress' : 'open';
}

/** A plan list's steps: each item's text under `textField` (Codex `step`, Claude `content`) and its status. */
export function planSteps(items: unknown, textField: 'step' | 'content'): PlanStep[] {
  return asArray(items).flatMap((item) => {
    const text = asString(asObject(item)?.[textField]);
    return text === null ? [] : [{ text, status: planStatus(asObject(item)?.status) }];
  });
}

export class PlanTracker {
  private previous = new Map<string, PlanStatus>();

  /**
   * plan_item facts for a run whose newest plan is `steps`. Facts with the same key supersede older ones,
   * so an unfinished item a newer plan left out is reported as dropped, or it would stay open forever.
   */
  facts(steps: PlanStep[]): ImportedFact[] {
    const current = new Map(steps.map((step) => [clip(step.text, SESSION_LIMITS.label), step.status]));
    const dropped = [...this.previous]
      .filter(([key, status]) => status !== 'done' && !current.has(key))
      .map(([key]) => planFact(key, 'dropped'));
    this.previous = current;
    return [...[...current].map(([key, status]) => planFact(key, status)), ...dropped];
  }
}

function planFact(key: string, status: PlanStatus | 'dropped'): ImportedFact {
  return { kind: 'plan_item', text: key, key, status };
}
