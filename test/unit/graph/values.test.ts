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
});
