import { describe, expect, it } from 'vitest';
import { ThreadlineError } from '../../src/domain/errors.js';
import { assertCurrentDispatch, fencingTokenOf, parseFencingToken, resumedBlank } from '../../src/domain/fencing.js';

const run = { id: 'run_a~b', dispatchEpoch: 2, providerThreadId: 'pt_2' };
const active = { id: 'pt_2', status: 'active' as const };

function codeOf(call: () => void): string | null {
  try {
    call();
    return null;
  } catch (error) {
    return error instanceof ThreadlineError ? error.code : 'not a ThreadlineError';
  }
}

describe('fencing tokens', () => {
  it('round-trips a run id that contains the separator', () => {
    expect(parseFencingToken(fencingTokenOf(run))).toEqual({ runId: 'run_a~b', epoch: 2 });
  });

  it.each(['', 'run_1', 'run_1~', '~1', 'run_1~0', 'run_1~-1', 'run_1~1.5', 'run_1~x'])(
    'refuses %j as BAD_USER_INPUT',
    (token) => {
      expect(codeOf(() => parseFencingToken(token))).toBe('BAD_USER_INPUT');
    },
  );

  it('accepts the current dispatch, bound to the provider thread serving the run', () => {
    expect(codeOf(() => assertCurrentDispatch({ runId: run.id, epoch: 2 }, run, active, 'pt_2'))).toBeNull();
    expect(
      codeOf(() => assertCurrentDispatch({ runId: run.id, epoch: 2 }, run, { id: 'pt_2', status: 'idle' })),
    ).toBeNull();
  });

  it('refuses an earlier epoch, another provider thread and a replaced one as STALE_DISPATCH', () => {
    expect(codeOf(() => assertCurrentDispatch({ runId: run.id, epoch: 1 }, run, active))).toBe('STALE_DISPATCH');
    expect(codeOf(() => assertCurrentDispatch({ runId: run.id, epoch: 2 }, run, active, 'pt_1'))).toBe(
      'STALE_DISPATCH',
    );
    for (const status of ['stale', 'resume_failed', 'divergent', 'rolled_back'] as const) {
      expect(codeOf(() => assertCurrentDispatch({ runId: run.id, epoch: 2 }, run, { id: 'pt_2', status }))).toBe(
        'STALE_DISPATCH',
      );
    }
  });

  it("refuses another run's token and an epoch never given out as BAD_USER_INPUT", () => {
    expect(codeOf(() => assertCurrentDispatch({ runId: 'run_other', epoch: 2 }, run, active))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => assertCurrentDispatch({ runId: run.id, epoch: 3 }, run, active))).toBe('BAD_USER_INPUT');
  });
});

describe('resumedBlank', () => {
  it('holds only when a resume or reuse was dispatched to a known native id and another came back', () => {
    expect(resumedBlank('resume', 'native-1', 'native-2')).toBe(true);
    expect(resumedBlank('reuse', 'native-1', 'native-2')).toBe(true);
    expect(resumedBlank('resume', 'native-1', 'native-1')).toBe(false);
    expect(resumedBlank('resume', null, 'native-2')).toBe(false);
    expect(resumedBlank('create', 'native-1', 'native-2')).toBe(false);
    expect(resumedBlank('native_fork', 'native-1', 'native-2')).toBe(false);
  });
});
