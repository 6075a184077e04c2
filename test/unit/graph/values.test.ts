import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { plain } from '../../../src/graph/values.js';

describe('plain', () => {
  it('turns Integers in the safe range into numbers, through lists and maps', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(plain({ ordinals: [neo4j.int(1), neo4j.int(-7)], edge: neo4j.int(max), low: neo4j.int(-max) })).toEqual({
      ordinals: [1, -7],
      edge: max,
      low: -max,
    });
  });

  it('refuses an Integer past the safe range rather than rounding it', () => {
    for (const outside of ['9007199254740992', '-9007199254740992', '9223372036854775807', '-9223372036854775808'])
      expect(() => plain([neo4j.int(outside)])).toThrow(`Integer ${outside} is outside the safe JavaScript range`);
  });

  it('turns temporal values into ISO strings and nodes into their properties, inside lists and maps', () => {
    const at = new neo4j.types.DateTime(2026, 12, 7, 19, 5, 30, 123_000_000, 0);
    const node = new neo4j.types.Node(neo4j.int(1), ['Run'], { ordinal: neo4j.int(3), createdAt: at }, 'run-element');
    const map = { runs: [node], day: new neo4j.types.Date(2026, 12, 7), plain: { nested: [null, 'text', true] } };
    expect(plain(map)).toEqual({
      runs: [{ ordinal: 3, createdAt: '2026-12-07T19:05:30.123Z' }],
      day: '2026-12-07',
      plain: { nested: [null, 'text', true] },
    });
  });
});
