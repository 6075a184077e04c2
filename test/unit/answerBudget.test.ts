import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerBudget, jsonBytes, jsonStringBytes } from '../../src/api/answerBudget.js';

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

describe('jsonStringBytes', () => {
  it('is the UTF-8 length of JSON.stringify, escapes, pairs and lone surrogates included', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: anyCodeUnit }), fc.string({ unit: 'grapheme' }), fc.string()), (text) => {
        expect(jsonStringBytes(text)).toBe(Buffer.byteLength(JSON.stringify(text), 'utf8'));
      }),
      { numRuns: 2_000 },
    );
  });

  it('counts a long text without building it', () => {
    const text = 'é€😀"\\\n\u0001a'.repeat(100_000);
    expect(jsonStringBytes(text)).toBe(Buffer.byteLength(JSON.stringify(text), 'utf8'));
  });
});

describe('jsonBytes', () => {
  it.each([0, -12, 3.25, 1e21, Number.NaN, true, false, null, undefined, ['a', 1], { a: 'é' }])(
    'counts %j as JSON.stringify does',
    (value) => {
      expect(jsonBytes(value)).toBe(Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8'));
    },
  );
});

describe('AnswerBudget', () => {
  it('refuses reading past the limit before the read, and everything after', () => {
    const budget = new AnswerBudget(1_000);
    budget.reading(1_000);
    expect(budget.exceeded).toBeNull();
    expect(() => budget.reading(1)).toThrow(
      expect.objectContaining({ code: 'RESPONSE_TOO_LARGE', details: { limitBytes: 1_000 } }),
    );
    expect(() => budget.check()).toThrow(expect.objectContaining({ code: 'RESPONSE_TOO_LARGE' }));
  });

  it('counts the answer without throwing, and refuses from the next check on', () => {
    const budget = new AnswerBudget(1_024);
    budget.answer(1_024 - budget.answeredBytes);
    expect(() => budget.check()).not.toThrow();
    budget.answer(1);
    expect(budget.exceeded?.code).toBe('RESPONSE_TOO_LARGE');
    expect(() => budget.check()).toThrow(expect.objectContaining({ code: 'RESPONSE_TOO_LARGE' }));
  });
});
