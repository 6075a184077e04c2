import { describe, expect, it } from 'vitest';
import { readOptions, UsageError, wholeNumber } from '../../../bench/commandLine.js';

const OPTIONS = { iterations: { type: 'string' }, quick: { type: 'boolean' } } as const;

describe("the benchmarks' command lines", () => {
  it('reads the options it knows', () => {
    expect(readOptions(['--iterations', '20', '--quick'], OPTIONS)).toEqual({ iterations: '20', quick: true });
    expect(readOptions([], OPTIONS)).toEqual({});
  });

  it('refuses a misspelt option, a missing value and a stray argument', () => {
    expect(() => readOptions(['--iteration', '20'], OPTIONS)).toThrow(new UsageError("Unknown option '--iteration'"));
    expect(() => readOptions(['--iterations'], OPTIONS)).toThrow(UsageError);
    expect(() => readOptions(['--quick', '20'], OPTIONS)).toThrow(UsageError);
  });

  it('takes whole numbers of at least the minimum, else says which option is wrong', () => {
    expect(wholeNumber({}, 'iterations', 100)).toBe(100);
    expect(wholeNumber({ iterations: '20' }, 'iterations', 100)).toBe(20);
    expect(wholeNumber({ crowd: '0' }, 'crowd', 10, 0)).toBe(0);
    for (const given of ['0', '-3', '2.5', 'ten', ''])
      expect(() => wholeNumber({ iterations: given }, 'iterations', 100), given).toThrow(
        `--iterations takes a whole number of at least 1, not ${JSON.stringify(given)}`,
      );
  });
});
