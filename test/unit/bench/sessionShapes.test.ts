// The import bench's synthetic sessions are what they claim: every turn written is a run to the
// adapters, and the adapters and the ground-truth reader (tools/eval, which shares no code with
// them) find the same files changed and the same failing commands in them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeClaudeSession, writeCodexRollout } from '../../../bench/sessionShapes.js';
import { parseSession } from '../../../src/sessions/index.js';
import { groundTruth } from '../../../tools/eval/groundTruth.js';

const dir = mkdtempSync(join(tmpdir(), 'threadline-session-shapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SESSION_ID = '0197c0de-0b0b-7000-8000-0000000000aa';
const cases = [
  { format: 'codex', name: `rollout-2025-06-01T00-00-00-${SESSION_ID}.jsonl`, write: writeCodexRollout },
  { format: 'claude', name: `${SESSION_ID}.jsonl`, write: writeClaudeSession },
] as const;

describe.each(cases)('a synthetic $format session', ({ format, name, write }) => {
  const file = join(dir, name);
  const written = write(file, 2 ** 20, SESSION_ID);

  it('is read as one run per turn written, each with many facts', async () => {
    const turns = await written;
    const session = parseSession(name, readFileSync(file, 'utf8'));
    expect(session?.format).toBe(format);
    expect(session?.runs).toHaveLength(turns);
    expect(turns).toBeGreaterThan(1);
    const facts = session?.runs.reduce((sum, run) => sum + run.facts.length, 0) ?? 0;
    expect(facts / turns).toBeGreaterThan(3);
  });

  it('holds the files and failing commands the ground truth finds', async () => {
    await written;
    const text = readFileSync(file, 'utf8');
    const truth = groundTruth([{ name, text }]);
    const facts = parseSession(name, text)?.runs.flatMap((run) => run.facts) ?? [];
    const changed = new Set(facts.flatMap((fact) => (fact.kind === 'file_change' ? [fact.file.path] : [])));
    expect(truth.files.map((f) => f.path).sort()).toEqual([...changed].sort());
    expect(truth.files.length).toBeGreaterThan(0);
    expect(truth.commands.some((command) => command.fixed)).toBe(true);
  });
});
