import { describe, expect, it } from 'vitest';
import { MissingRecordError, assertNoRunningRun, notFound, present } from '../../src/domain/errors.js';

describe('NOT_FOUND', () => {
  it('echoes an ordinary id whole', () => {
    const error = notFound('Thread', 'thread-1');
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Thread "thread-1" not found.',
      details: { id: 'thread-1' },
    });
  });

  it('echoes no more than 200 characters of a hostile id, and says how long it was', () => {
    const error = notFound('Run', 'x'.repeat(100_000));
    expect(error.message.length).toBeLessThan(260);
    expect(error.message).toContain('(100000 characters)');
    expect(String(error.details.id).length).toBeLessThan(230);
  });
});

describe('RUN_IN_PROGRESS', () => {
  it('lets a thread without a running run through', () => {
    expect(() => assertNoRunningRun({ id: 'thread-1', runningRunId: null })).not.toThrow();
  });

  it('refuses a thread with a running run, naming the run', () => {
    expect(() => assertNoRunningRun({ id: 'thread-1', runningRunId: 'run_1' })).toThrow(
      expect.objectContaining({
        code: 'RUN_IN_PROGRESS',
        message: 'Thread "thread-1" has a running run; complete or fail it first.',
        details: { runId: 'run_1' },
      }),
    );
  });
});

describe('present', () => {
  it('gives back what is there, zero and empty text included', () => {
    expect(present(0, 'a count')).toBe(0);
    expect(present('', 'a text')).toBe('');
  });

  it('names what is missing, as an internal error with no code for the caller', () => {
    for (const missing of [null, undefined]) {
      const error = (() => {
        try {
          present(missing, 'thread t1 after its rollback');
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(error).toBeInstanceOf(MissingRecordError);
      expect(error).toMatchObject({
        what: 'thread t1 after its rollback',
        message: 'Missing thread t1 after its rollback',
      });
      expect(error).not.toHaveProperty('code');
    }
  });
});
