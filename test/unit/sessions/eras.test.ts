// Every format era of the session corpus (test/fixtures/sessions/corpus/, described in its README.md),
// read by the adapters: what each era hides, and the wrong readings issue 26 found on real files.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession, type ImportedFact, type ParsedSession } from '../../../src/sessions/index.js';
import { jsonl } from './fixtures.js';

const CORPUS = new URL('../../fixtures/sessions/corpus/', import.meta.url).pathname;

function sessionFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The sessions of one corpus case, by file path relative to its folder. */
function corpusCase(name: string): Map<string, ParsedSession> {
  const folder = join(CORPUS, name);
  return new Map(
    sessionFiles(folder).map((file) => [relative(folder, file), parseSession(file, readFileSync(file, 'utf8'))!]),
  );
}

function only(name: string): ParsedSession {
  const sessions = [...corpusCase(name).values()];
  expect(sessions).toHaveLength(1);
  return sessions[0]!;
}

const files = (facts: ImportedFact[]) =>
  facts.flatMap((fact) => (fact.kind === 'file_change' ? [`${fact.status} ${fact.file.path}`] : []));

describe('every corpus file', () => {
  const all = sessionFiles(CORPUS);

  it('holds at least 20 session files', () => {
    expect(all.length).toBeGreaterThanOrEqual(20);
  });

  it.each(all.map((file) => [relative(CORPUS, file), file]))('%s is read without a problem', (_name, file) => {
    const session = parseSession(file, readFileSync(file, 'utf8'));
    expect(session).not.toBeNull();
    expect(session!.problems).toEqual([]);
    expect(session!.runs.length).toBeGreaterThan(0);
    for (const run of session!.runs) {
      expect(run.sourceId).not.toBeNull();
      if (run.completedAt !== null) expect(run.completedAt >= run.startedAt).toBe(true);
    }
  });
});

describe('Codex eras', () => {
  it('legacy 0.77 rollouts: JSON tool outputs, turns known by their turn ids', () => {
    const session = only('01-codex-legacy-exploration');
    expect(session.runs.map((run) => run.status)).toEqual(['completed', 'completed', 'completed']);
    expect(new Set(session.runs.map((run) => run.sourceId)).size).toBe(3);
    expect(session.runs[1]!.facts).toContainEqual({
      kind: 'command',
      text: expect.stringContaining('python -m pytest -q'),
      key: 'python -m pytest -q',
      status: 'exit 1',
    });
  });

  it('Codex Desktop: answers that exist only as assistant response items are the runs’ answers', () => {
    const session = only('03-codex-desktop-response-items-only');
    expect(session.runs.map((run) => run.status)).toEqual(['completed', 'completed', 'completed']);
    expect(session.runs.map((run) => run.assistantMessage?.slice(0, 24))).toEqual([
      '`src/server.ts` imports ',
      'Fixed the import in `src',
      'I scoped the query to th',
    ]);
  });

  it('codex_exec: one non-interactive turn with an added and a deleted file', () => {
    const session = only('04-codex-exec');
    expect(session.runs).toHaveLength(1);
    expect(files(session.runs[0]!.facts)).toEqual(['added eslint.config.js', 'deleted .eslintrc.json']);
    expect(session.runs[0]!.assistantMessage).toContain('remaining blocker');
  });

  describe('paginated rollouts (0.147+)', () => {
    const [first, second] = [...corpusCase('05-codex-paginated-segments').values()];

    it('read turns, answers, commands and file changes from item_completed records', () => {
      expect(first!.runs).toHaveLength(1);
      const [run] = first!.runs;
      expect(run!.sourceId).toBe('4a52855a-73d0-464d-a3f3-5fee18b51f91');
      expect(run!.assistantMessage).toMatch(/^I started on it/);
      expect(files(run!.facts)).toEqual(['added src/stats_json.rs', 'modified src/cli.rs']);
      expect(run!.facts).toContainEqual(
        expect.objectContaining({ kind: 'command', key: 'cargo build', status: 'exit 101' }),
      );
    });

    it('count the new line types per type, never as a problem', () => {
      expect(first!.unknownRecordTypes).toEqual({ world_state: 1, token_usage_record: 1, retained_context: 1 });
      expect(second!.unknownRecordTypes).toEqual({
        inter_agent_communication: 1,
        inter_agent_communication_metadata: 1,
        token_usage_record: 1,
        world_state: 1,
      });
      expect([...first!.problems, ...second!.problems]).toEqual([]);
    });

    it('a later page is the same thread, its file deleted there', () => {
      expect(second!.sessionId).toBe(first!.sessionId);
      expect(files(second!.runs[0]!.facts)).toContain('deleted src/stats_json.rs');
    });
  });

  it('a fork’s copy of its source’s turns keeps their item ids', () => {
    const [source, fork] = [...corpusCase('06-codex-fork-copies').values()];
    expect(fork!.relationship).toBe('fork');
    expect(fork!.parentSessionId).toBe(source!.sessionId);
    expect(fork!.runs[0]!.sourceId).toBe(source!.runs[0]!.sourceId);
    expect(fork!.runs[1]!.sourceId).not.toBe(source!.runs[1]!.sourceId);
  });

  it('a compaction between turns, and a spawned subagent’s own rollout naming its parent', () => {
    const [parent, child] = [...corpusCase('17-codex-compaction-and-subagent').values()];
    expect(parent!.compactions).toBe(1);
    expect(parent!.runs).toHaveLength(2);
    expect(parent!.runs[1]!.facts).toContainEqual(
      expect.objectContaining({ kind: 'subagent_result', key: child!.sessionId, status: 'completed' }),
    );
    expect(child).toMatchObject({ relationship: 'subagent', parentSessionId: parent!.sessionId });
    expect(files(child!.runs[0]!.facts)).toEqual(['added scripts/bench.sh']);
  });

  it('a turn id that is a counter names nothing beyond its file: no source id', () => {
    const line = (type: string, payload: object) => ({ timestamp: '2025-06-02T10:00:01.000Z', type, payload });
    const session = parseSession(
      'rollout-2025-06-02T10-00-00-0197c0de-0000-7000-8000-000000000002.jsonl',
      jsonl(
        line('session_meta', { id: '0197c0de-0000-7000-8000-000000000002', cwd: '/w' }),
        line('turn_context', { turn_id: 'turn-1', cwd: '/w', model: 'gpt-5-codex' }),
        line('event_msg', { type: 'user_message', message: 'Hi' }),
        line('event_msg', { type: 'user_message', message: 'And again' }),
        line('turn_context', { turn_id: '0197c0de-aaaa-7000-8000-00000000abcd', cwd: '/w', model: 'gpt-5-codex' }),
        line('event_msg', { type: 'user_message', message: 'Next' }),
        line('event_msg', { type: 'user_message', message: 'Steer' }),
      ),
    )!;
    expect(session.runs.map((run) => run.sourceId)).toEqual([
      null,
      null,
      '0197c0de-aaaa-7000-8000-00000000abcd',
      '0197c0de-aaaa-7000-8000-00000000abcd#2',
    ]);
  });

  it('a paginated line of an unknown type in the middle of a turn changes nothing about the turn', () => {
    const line = (type: string, payload: object) => ({ timestamp: '2026-02-20T10:00:01.000Z', type, payload });
    const session = parseSession(
      'rollout-2026-02-20T10-00-00-019b0000-0000-7000-8000-000000000001.jsonl',
      jsonl(
        line('session_meta', { id: '019b0000-0000-7000-8000-000000000001', cwd: '/w', history_mode: 'paginated' }),
        line('event_msg', {
          type: 'item_completed',
          turn_id: 't1',
          item: { type: 'UserMessage', id: 'user-1', content: [{ type: 'text', text: 'Hi' }] },
        }),
        line('world_state', { anything: true }),
        line('some_future_record', {}),
        line('event_msg', {
          type: 'item_completed',
          turn_id: 't1',
          item: { type: 'AgentMessage', id: 'msg-1', content: [{ type: 'Text', text: 'Hello.' }] },
        }),
      ),
    )!;
    expect(session.runs.map((run) => [run.sourceId, run.userMessage, run.assistantMessage, run.status])).toEqual([
      ['user-1', 'Hi', 'Hello.', 'completed'],
    ]);
    expect(session.unknownRecordTypes).toEqual({ world_state: 1, some_future_record: 1 });
  });
});

describe('Claude Code eras', () => {
  it('1.x inline sidechains are imported as a subagent session, not dropped', () => {
    const session = only('07-claude-1x-inline-sidechains');
    expect(session.runs).toHaveLength(1);
    expect(session.subagents).toHaveLength(1);
    const [subagent] = session.subagents;
    expect(subagent).toMatchObject({ relationship: 'subagent', parentSessionId: session.sessionId });
    expect(subagent!.runs[0]!.userMessage).toMatch(/^Run the sensor tests repeatedly/);
    expect(files(subagent!.runs[0]!.facts)).toEqual([
      'modified tests/sensor/moisture.test.ts',
      'modified src/sensor/moisture.ts',
    ]);
    // The main thread does not hold the subagent's work, nor its prompt.
    expect(files(session.runs[0]!.facts)).toEqual(['added src/routes/schedule.ts', 'modified src/routes/index.ts']);
    expect(session.runs.map((run) => run.userMessage)).not.toContain(subagent!.runs[0]!.userMessage);
  });

  it('2.x subagent folders and workflow agents are subagents of the main session', () => {
    const workflow = corpusCase('09-claude-2x-workflow-agents');
    const sessions = [...workflow.values()];
    const main = sessions.find((session) => session.relationship === null)!;
    const agents = sessions.filter((session) => session.relationship === 'subagent');
    expect(agents.map((agent) => [agent.sessionId, agent.parentSessionId])).toEqual([
      ['wf-collect-7b1', main.sessionId],
      ['wf-draft-2c9', main.sessionId],
    ]);
    expect(main.runs.map((run) => run.userMessage)).toEqual(['/workflow release-notes for v2.3.0']);
    expect(agents.map((agent) => agent.agentName)).toEqual([null, null]);
  });

  it('a workflow agent is named by the meta file beside it, when the caller passes it in', () => {
    const folder = join(
      CORPUS,
      '09-claude-2x-workflow-agents/d1e2f3a4-2110-4b09-8c39-c3d4e5f6a709/subagents/workflows/wfr_5f8a21',
    );
    const read = (name: string) => readFileSync(join(folder, name), 'utf8');
    const file = join(folder, 'agent-wf-draft-2c9.jsonl');
    const agent = parseSession(file, read('agent-wf-draft-2c9.jsonl'), read('agent-wf-draft-2c9.meta.json'))!;
    expect(agent).toMatchObject({ sessionId: 'wf-draft-2c9', agentName: 'workflow:writer, step draft' });
    expect(agent.runs[0]!.userMessage).toMatch(/^Write the v2.3.0 section of CHANGELOG.md/);
    expect(parseSession(file, read('agent-wf-draft-2c9.jsonl'), '{"step":"draft"}')!.agentName).toBe('step draft');
    expect(parseSession(file, read('agent-wf-draft-2c9.jsonl'), 'not json')!.agentName).toBeNull();
  });

  it('in-file compaction: the boundary and its summary are one compaction, not a turn', () => {
    const [original] = [...corpusCase('10-claude-compaction-and-resume').values()];
    expect(original!.compactions).toBe(1);
    expect(original!.runs.map((run) => run.userMessage)).toEqual([
      expect.stringMatching(/^Port the timetable parser/),
      'continue',
    ]);
  });

  it('a resume copies the turns since the compaction with their uuids', () => {
    const [original, resumed] = [...corpusCase('10-claude-compaction-and-resume').values()];
    expect(resumed!.sessionId).not.toBe(original!.sessionId);
    expect(resumed!.runs[0]!.sourceId).toBe(original!.runs[1]!.sourceId);
    expect(resumed!.runs[1]!.sourceId).not.toBe(original!.runs[1]!.sourceId);
  });

  it('timestamps that run backwards are clamped and reported as warnings, not refused', () => {
    const session = only('12-claude-clock-skew');
    expect(session.problems).toEqual([]);
    expect(session.warnings).toHaveLength(2);
    expect(session.warnings[0]!.reason).toMatch(/run backwards/);
    const [first, second] = session.runs;
    expect(first!.completedAt! >= first!.startedAt).toBe(true);
    expect(second!.startedAt >= first!.startedAt).toBe(true);
    expect(second!.completedAt! >= second!.startedAt).toBe(true);
  });

  it('files a shell command deleted or renamed have that final state', () => {
    const [added, removed] = only('14-claude-file-added-then-deleted').runs;
    expect(files(added!.facts)).toEqual(['added scripts/dump_cache.py']);
    expect(files(removed!.facts).sort()).toEqual([
      'deleted scripts/dump_cache.py',
      'modified pebble/cli.py',
      'modified tests/test_cache.py',
      'renamed pebble/cache_io.py',
    ]);
  });

  it('a failed Read keeps its path, relative to the cwd', () => {
    const session = only('13-claude-failed-read-constraint');
    expect(session.runs[0]!.facts).toContainEqual(
      expect.objectContaining({
        kind: 'failure',
        key: 'Read src/export/csv.py',
        text: expect.stringMatching(/^Read failed on src\/export\/csv\.py: File does not exist/),
      }),
    );
    expect(session.runs[1]!.userMessage).toMatch(/^Yes, add a header row\. Don't touch the README yet\./);
  });
});
