// Words and numbers of the drawing and its panels: labels of the API's enums, ordinal ranges, ids.
// Pure, like layout.ts: the width of a label decides where the drawing ends.
import type { HandoffStrategy, ProviderThreadAction, TransferKind } from './generated/graphql.js';

export const STRATEGY_LABELS: Record<HandoffStrategy, string> = {
  DELTA_SINCE_TARGET_LAST_SEEN: 'delta',
  FULL_THREAD_SUMMARY: 'full summary',
  CHECKPOINT_SUMMARY: 'checkpoint summary',
  MANUAL_CONTEXT: 'manual context',
  FORK_DELTA_SUMMARY: 'merge-back',
};
export const ACTION_LABELS: Record<ProviderThreadAction, string> = {
  CREATE: 'new thread',
  REUSE: 'reuse',
  RESUME: 'resume',
  NATIVE_FORK: 'native fork',
  NONE: '',
};
export const TRANSFER_LABELS: Record<TransferKind, string> = {
  FORK: 'fork context',
  PROVIDER_HANDOFF: 'provider handoff',
  MERGE_BACK: 'merge-back',
  SUBAGENT_SPAWN: 'subagent task',
  SUBAGENT_RESULT: 'subagent result',
};

/** The page of another thread, carrying the page's token along. */
export function threadHref(id: string, token: string | null): string {
  return `/lineage/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 11)}…` : id;
}

const NUMBER = new Intl.NumberFormat('en-US');

export function count(value: number): string {
  return NUMBER.format(value);
}

export function range(from: number, to: number): string {
  return from === to ? count(from) : `${count(from)}–${count(to)}`;
}

/** Ordinal ranges, compactly: "1–5, 9". */
export function compactRanges(ranges: readonly { from: number; to: number }[]): string {
  return ranges.map((entry) => range(entry.from, entry.to)).join(', ');
}

/** The width of a text in the drawing's font of `size` pixels, near enough to fit labels. */
export function approxWidth(text: string, size: number): number {
  return text.length * size * 0.58;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A text read cut to `shown` characters: an ellipsis when it was cut. */
export function cut(text: string, length: number, shown: number): string {
  return length > shown ? `${text}…` : text;
}
