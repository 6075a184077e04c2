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
  return activity.facts('/w').flatMap((fact) => (fact.kind === 'file_change' ? [fact.file] : []));
}

describe('RunActivity file changes', () => {
  it('adds up several edits of one file', () => {
    expect(appliedFiles([edit('/w/a.ts', 'modified', 2, 1)], [edit('a.ts', 'modified', 3, 0)])).toEqual([
      { path: 'a.ts', change: 'modified', additions: 5, deletions: 1, previousPath: null },
    ]);
  });

  it('keeps a file created in the run as added, and drops one created and deleted again', () => {
    expect(
      appliedFiles(
        [edit('a.ts', 'added', 2, 0), edit('b.ts', 'added', 1, 0)],
        [edit('a.ts', 'modified', 1, 1), edit('b.ts', 'deleted', 0, 1)],
      ),
    ).toEqual([{ path: 'a.ts', change: 'added', additions: 3, deletions: 1, previousPath: null }]);
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
    expect(activity.facts(null)).toEqual([
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
