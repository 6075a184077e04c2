import { describe, expect, it } from 'vitest';
import { shellFileEdits } from '../../../src/sessions/shellEdits.js';

const summary = (command: string) =>
  shellFileEdits(command).map((edit) =>
    edit.previousPath === null ? `${edit.change} ${edit.path}` : `${edit.change} ${edit.previousPath} -> ${edit.path}`,
  );

describe('shellFileEdits', () => {
  it('reads deletions, renames and in-place edits of named files, part by part', () => {
    expect(
      summary(
        "rm scripts/dump_cache.py && git mv pebble/cache_utils.py pebble/cache_io.py && sed -i 's/cache_utils/cache_io/g' pebble/cli.py tests/test_cache.py",
      ),
    ).toEqual([
      'deleted scripts/dump_cache.py',
      'renamed pebble/cache_utils.py -> pebble/cache_io.py',
      'modified pebble/cli.py',
      'modified tests/test_cache.py',
    ]);
    expect(summary('git rm src/a.ts "src/b c.ts"; mv old.md new.md')).toEqual([
      'deleted src/a.ts',
      'deleted src/b c.ts',
      'renamed old.md -> new.md',
    ]);
    // Separators inside quotes are the script's, not the shell's.
    expect(summary("sed -i 's/a/b/; s/c/d/' f.txt && cargo test -q")).toEqual(['modified f.txt']);
    expect(summary('sed -i "s/x/y/" a.txt | tee log')).toEqual([]);
    expect(summary("sed -i.bak -e 's/a/b/' -e 's/c/d/' one.txt two.txt")).toEqual([
      'modified one.txt',
      'modified two.txt',
    ]);
  });

  it('names nothing it cannot be sure of', () => {
    for (const command of [
      'rm -rf build',
      'rm --recursive dist',
      'git rm --cached secrets.env',
      'rm *.log',
      'rm $TMPFILE',
      'mv a b c/',
      'mv src/*.ts lib/',
      "sed -n '1,80p' src/cli.ts",
      'rg -l old | xargs rm',
      'rm out.txt 2>/dev/null',
      'ls && cat README.md',
    ])
      expect(summary(command), command).toEqual([]);
  });
});
