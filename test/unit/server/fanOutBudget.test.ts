// The fan-out's byte budget per change: equal shares, the per-event limit, and the running total
// that holds the bound when the number of subscribers changes while one change is delivered.
import { describe, expect, it } from 'vitest';
import { FanOutBudget } from '../../../src/server/fanOutBudget.js';

const budget = () => new FanOutBudget({ eventMaxBytes: 1_000, changeMaxBytes: 10_000 });

describe('FanOutBudget', () => {
  it('shares the change budget equally, never above the per-event limit', () => {
    expect(budget().share(1)).toBe(1_000);
    expect(budget().share(10)).toBe(1_000);
    expect(budget().share(40)).toBe(250);
    expect(budget().share(0)).toBe(1_000);
  });

  it('names why an answer that passed its share is withheld', () => {
    expect(budget().overShare(5)).toBe('event_too_large');
    expect(budget().overShare(40)).toBe('fan_out_budget');
  });

  it('sends an answer within its share whole, and withholds the others', () => {
    const b = budget();
    expect(b.admit('c1', 250, 40)).toBeNull();
    expect(b.admit('c1', 251, 40)).toBe('fan_out_budget');
    expect(b.admit('c1', 1_001, 1)).toBe('event_too_large');
  });

  it('stops at the change budget even when the subscribers it was shared among grew', () => {
    const b = budget();
    for (let i = 0; i < 10; i++) expect(b.admit('c1', 1_000, 10)).toBeNull();
    expect(b.admit('c1', 1, 10)).toBe('fan_out_budget');
    // Another change has a budget of its own.
    expect(b.admit('c2', 1_000, 10)).toBeNull();
  });
});
