// The hand-written session files under test/fixtures/sessions/ and what they hide.
import { readFileSync } from 'node:fs';

export const FIXTURES = {
  codexMain: 'codex/rollout-2025-06-02T09-15-00-0197c0de-0001-7000-8000-00000000c0de.jsonl',
  codexSubagent: 'codex/rollout-2025-06-02T09-15-15-0197c0de-0002-7000-8000-0000000000a1.jsonl',
  codexFork: 'codex/rollout-2025-06-03T08-00-00-0197c0de-0003-7000-8000-0000000000f0.jsonl',
  claudeMain: 'claude/7d3c6a52-1b7e-4a55-9c39-4d1f0e2b8a61.jsonl',
  claudeRewind: 'claude/2b9e4f10-5c3d-4e8a-b1a7-6f0d9c8e7a21.jsonl',
  claudeSubagent: 'claude/7d3c6a52-1b7e-4a55-9c39-4d1f0e2b8a61/subagents/agent-a7f3e2d.jsonl',
} as const;

/** Secrets the fixtures put into messages, commands and outputs: none may come out of an adapter. */
export const SECRETS = [
  'tokFAKE1234567890abcdef',
  'sk-proj-FAKEfake1234567890abcdefXYZ',
  'FAKEcompactedSecret999',
  'ghp_FAKE0123456789abcdefghijABCD',
  'AKIAIOSFODNN7EXAMPLE',
  'xoxb-000000000000-FAKEslacktoken',
  'sk-ant-api03-FAKEfakeFAKE0123456789',
  'ghp_FAKEabcdefghijklmnopqrstuvwx12',
  'FAKEsummarySecret12345',
  'FAKEbearerToken123456',
];

/** Every reasoning or thinking text in the fixtures contains this marker. */
export const HIDDEN_MARKER = 'HIDDEN-';

export function fixture(path: string): { fileName: string; text: string } {
  return { fileName: path, text: readFileSync(new URL(`../../fixtures/sessions/${path}`, import.meta.url), 'utf8') };
}

/** A session file's text from records (objects) and raw lines (strings). */
export function jsonl(...records: unknown[]): string {
  return records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record))).join('\n');
}
