import { describe, expect, it } from 'vitest';
import { RunActivity, type FileEdit } from '../../../src/sessions/activity.js';
import { PlanTracker } from '../../../src/sessions/plan.js';

const edit = (
  path: string,
  change: FileEdit['change'],
  additions: number | null,
  deletions: number | null,
  previousPath: string | null = null,
): FileEdit => ({
  path,
  change,
  additions,
  deletions,
  previousPath,
});

function appliedFiles(...patches: FileEdit[][]) {
  const activity = new RunActivity();
  patches.forEach((edits, index) => {
    activity.patch(`p${index}`, 'apply_patch', edits);
    activity.patchResult(`p${index}`, { applied: true, output: '' });
  });
  return [...activity.facts('/w')].flatMap((fact) => (fact.kind === 'file_change' ? [fact.file] : []));
}

describe('RunActivity file changes', () => {
  it('adds up several edits of one file', () => {
    expect(appliedFiles([edit('/w/a.ts', 'modified', 2, 1)], [edit('a.ts', 'modified', 3, 0)])).toEqual([
      { path: 'a.ts', change: 'modified', additions: 5, deletions: 1, previousPath: null },
    ]);
  });

  it('keeps a file created in the run as added, and one created and deleted again as deleted', () => {
    expect(
      appliedFiles(
        [edit('a.ts', 'added', 2, 0), edit('b.ts', 'added', 1, 0)],
        [edit('a.ts', 'modified', 1, 1), edit('b.ts', 'deleted', 0, 1)],
      ),
    ).toEqual([
      { path: 'a.ts', change: 'added', additions: 3, deletions: 1, previousPath: null },
      { path: 'b.ts', change: 'deleted', additions: 1, deletions: 1, previousPath: null },
    ]);
  });

  it('follows a rename to the new path', () => {
    expect(appliedFiles([edit('new.ts', 'renamed', 1, 1, 'old.ts')], [edit('new.ts', 'modified', 2, null)])).toEqual([
      { path: 'new.ts', change: 'renamed', additions: 3, deletions: null, previousPath: 'old.ts' },
    ]);
  });

  it('counts a change only once its tool reports it applied', () => {
    const activity = new RunActivity();
    activity.patch('cut-off', 'Edit', [edit('a.ts', 'modified', 1, 0)]);
    activity.patch('failed', 'Edit', [edit('b.ts', 'modified', 1, 0)]);
    activity.patchResult('failed', { applied: false, output: 'String to replace not found' });
    expect([...activity.facts(null)]).toEqual([
      { kind: 'failure', text: 'Edit failed on b.ts: String to replace not found', key: 'Edit b.ts', status: null },
    ]);
  });
});

describe('PlanTracker', () => {
  it('reports unfinished items a newer plan left out as dropped, and finished ones not at all', () => {
    const plans = new PlanTracker();
    plans.facts([
      { text: 'Write the parser', status: 'done' },
      { text: 'Write the docs', status: 'open' },
    ]);
    expect(plans.facts([{ text: 'Ship it', status: 'in_progress' }])).toEqual([
      { kind: 'plan_item', text: 'Ship it', key: 'Ship it', status: 'in_progress' },
      { kind: 'plan_item', text: 'Write the docs', key: 'Write the docs', status: 'dropped' },
    ]);
  });
});

describe('RunActivity commands', () => {
  const run = (command: string, exitCode: number, output: string, activity = new RunActivity(), id = command) => {
    activity.command(id, command);
    activity.commandResult(id, { exitCode, output, interrupted: false, error: false });
    return activity;
  };

  it('does not count a search that found nothing as a failure', () => {
    expect([...run('rg -n missingName src', 1, '').facts(null)]).toEqual([
      { kind: 'command', text: 'rg -n missingName src (no match)', key: 'rg -n missingName src', status: 'no match' },
    ]);
  });

  it('still counts a search that failed with a message', () => {
    const facts = [...run('rg foo nowhere', 2, 'rg: nowhere: No such file or directory').facts(null)];
    expect(facts.map((fact) => fact.kind)).toEqual(['command', 'failure']);
  });

  it('keeps the end of a failed command output, where the failing test is named', () => {
    const output = `${'collected line\n'.repeat(200)}FAILED tests/test_x.py::test_y - AssertionError`;
    const failure = [...run(`pytest ${'-k x '.repeat(300)}`, 1, output).facts(null)].find((f) => f.kind === 'failure');
    expect(failure?.text).toMatch(/FAILED tests\/test_x\.py::test_y - AssertionError$/);
  });
});

describe('RunActivity reads', () => {
  it('records a read-only tool call once per target, relative to the session folder, as exploration', () => {
    const activity = new RunActivity();
    activity.read('Read', '/w/src/a.ts');
    activity.read('Read', '/w/src/a.ts');
    activity.read('Grep', 'parseSession');
    expect([...activity.facts('/w')]).toEqual([
      { kind: 'command', text: 'Read src/a.ts', key: 'Read src/a.ts', status: 'ok' },
      { kind: 'command', text: 'Grep parseSession', key: 'Grep parseSession', status: 'ok' },
    ]);
  });
});
