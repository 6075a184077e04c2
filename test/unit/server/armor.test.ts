// The schema hints production hides from error messages; linear time is checked with the other text
// handlers in test/unit/sessions/linearTime.test.ts.
import { describe, expect, it } from 'vitest';
import { withoutSuggestions } from '../../../src/server/armor.js';

describe('withoutSuggestions', () => {
  it.each([
    [
      'Cannot query field "thred" on type "Query". Did you mean "thread"?',
      'Cannot query field "thred" on type "Query".',
    ],
    [
      'Value "CODX" does not exist in "Provider" enum. Did you mean the enum value "CODEX"?',
      'Value "CODX" does not exist in "Provider" enum.',
    ],
    [
      'Unknown argument "firs". Did you mean "first"? Unknown field "b". Did you mean "a"?',
      'Unknown argument "firs". Unknown field "b".',
    ],
    ['Did you mean "x"? at the start', ' at the start'],
    ['No hint here?', 'No hint here?'],
    ['Did you mean without its question mark', 'Did you mean without its question mark'],
    ['', ''],
  ])('%j', (message, shown) => {
    expect(withoutSuggestions(message)).toBe(shown);
  });
});
