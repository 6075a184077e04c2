// Session text handling runs on a client's text (completeRun's raw events, imported files): each
// handler takes time linear in its input, on text built to make backtracking patterns work hard. Time
// per character is compared across sizes in one run, never against a clock.
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL_UNITS, TEXT_HANDLERS, adversarialText, superLinear } from '../../support/adversarialText.js';

describe('session text handling takes linear time', () => {
  for (const [name, handle] of Object.entries(TEXT_HANDLERS)) {
    it(`${name}, up to the longest raw event line`, { timeout: 120_000 }, () => {
      const slow = ADVERSARIAL_UNITS.flatMap((unit) =>
        (['repeat', 'tail'] as const).flatMap((variant) =>
          superLinear(handle, (length) => adversarialText(unit, length, variant)).map(
            (finding) => `${JSON.stringify(unit)} ${variant}: ${finding}`,
          ),
        ),
      );
      expect(slow).toEqual([]);
    });
  }
});
