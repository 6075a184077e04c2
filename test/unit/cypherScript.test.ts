// Cypher literals of the export script (src/export/cypherScript.ts). test/own-neo4j/bloom-export.test.ts
// checks that a real Neo4j reads them back as the same values.
import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import {
  cypherFloat,
  cypherLiteral,
  cypherMap,
  cypherName,
  cypherString,
  scriptStatements,
} from '../../src/export/cypherScript.js';

describe('cypherString', () => {
  it('quotes plain text as it is', () => {
    expect(cypherString('codex #1')).toBe("'codex #1'");
    expect(cypherString('')).toBe("''");
  });

  it('escapes single quotes and backslashes; double quotes and backticks need nothing', () => {
    expect(cypherString("it's")).toBe("'it\\'s'");
    expect(cypherString('C:\\temp\\')).toBe("'C:\\\\temp\\\\'");
    expect(cypherString("\\'")).toBe("'\\\\\\''");
    expect(cypherString('say "hi" `now`')).toBe('\'say "hi" `now`\'');
  });

  it('escapes newlines, carriage returns, tabs and other control characters, so a literal never spans lines', () => {
    expect(cypherString('a\nb\r\nc\td')).toBe("'a\\nb\\r\\nc\\td'");
    expect(cypherString('\u0000\u0007\u001b\u007f')).toBe("'\\u0000\\u0007\\u001B\\u007F'");
    expect(cypherString('line;\n// comment')).not.toContain('\n');
  });

  it('writes everything outside printable ASCII as \\u escapes, an emoji as its surrogate pair', () => {
    expect(cypherString('café')).toBe("'caf\\u00E9'");
    expect(cypherString('🚀')).toBe("'\\uD83D\\uDE80'");
    expect(cypherString('日本')).toBe("'\\u65E5\\u672C'");
    expect(cypherString('\u2028')).toBe("'\\u2028'");
    expect(cypherString('x🚀y')).toMatch(/^'[\x20-\x7e]*'$/);
  });

  it('keeps Cypher-looking text inside the literal', () => {
    const text = "'}) MATCH (n) DETACH DELETE n; //";
    expect(cypherString(text)).toBe("'\\'}) MATCH (n) DETACH DELETE n; //'");
    expect(cypherLiteral("x'; DROP CONSTRAINT run_id; RETURN '")).toBe("'x\\'; DROP CONSTRAINT run_id; RETURN \\''");
  });
});

describe('cypherLiteral: numbers', () => {
  it('writes neo4j Integers and bigints as INTEGER literals', () => {
    expect(cypherLiteral(neo4j.int(5))).toBe('5');
    expect(cypherLiteral(neo4j.int(0))).toBe('0');
    expect(cypherLiteral(neo4j.int(-42))).toBe('-42');
    expect(cypherLiteral(neo4j.int('9223372036854775807'))).toBe('9223372036854775807');
    expect(cypherLiteral(neo4j.int('-9223372036854775808'))).toBe('(-9223372036854775807 - 1)');
    expect(cypherLiteral(12n)).toBe('12');
  });

  it('writes JavaScript numbers as FLOAT literals, whole ones included', () => {
    expect(cypherLiteral(5)).toBe('5.0');
    expect(cypherLiteral(1.5)).toBe('1.5');
    expect(cypherLiteral(-0.25)).toBe('-0.25');
    expect(cypherFloat(-0)).toBe('-0.0');
    expect(cypherFloat(1e21)).toBe('1.0E21');
    expect(cypherFloat(1.5e-7)).toBe('1.5E-7');
    expect(cypherFloat(Number.MAX_VALUE)).toBe('1.7976931348623157E308');
    expect(cypherFloat(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(cypherFloat(NaN)).toBe('(0.0 / 0.0)');
    expect(cypherFloat(Infinity)).toBe('(1.0 / 0.0)');
    expect(cypherFloat(-Infinity)).toBe('(-1.0 / 0.0)');
  });

  it('writes booleans', () => {
    expect(cypherLiteral(true)).toBe('true');
    expect(cypherLiteral(false)).toBe('false');
  });
});

describe('cypherLiteral: lists, maps and null', () => {
  it('writes lists of strings, integers and floats, and empty lists', () => {
    expect(cypherLiteral(['codex', "it's"])).toBe("['codex', 'it\\'s']");
    expect(cypherLiteral([neo4j.int(3), neo4j.int(4)])).toBe('[3, 4]');
    expect(cypherLiteral([1, 2.5])).toBe('[1.0, 2.5]');
    expect(cypherLiteral([])).toBe('[]');
  });

  it('skips null and undefined map entries, as Neo4j stores no null', () => {
    expect(cypherMap({ a: 'x', b: null, c: undefined, d: neo4j.int(1) })).toBe("{a: 'x', d: 1}");
    expect(cypherMap({})).toBe('{}');
    expect(cypherLiteral(null)).toBe('null');
  });

  it('quotes property keys that are not plain identifiers', () => {
    expect(cypherName('caption')).toBe('caption');
    expect(cypherName('_lock')).toBe('_lock');
    expect(cypherName('a b')).toBe('`a b`');
    expect(cypherName('x`y')).toBe('`x``y`');
    expect(cypherName('2nd')).toBe('`2nd`');
    expect(cypherMap({ 'a b': neo4j.int(1), status: 'ok' })).toBe("{`a b`: 1, status: 'ok'}");
  });

  it('writes nested maps', () => {
    expect(cypherMap({ from: { tenant: 'local', id: 't' }, to: { id: 'run_1' } })).toBe(
      "{from: {tenant: 'local', id: 't'}, to: {id: 'run_1'}}",
    );
  });
});

describe('cypherLiteral: temporal and spatial values', () => {
  it('writes datetimes with their nanoseconds and zone', () => {
    expect(cypherLiteral(new neo4j.DateTime(2024, 5, 1, 10, 0, 0, 123456789, 0))).toBe(
      "datetime('2024-05-01T10:00:00.123456789Z')",
    );
    expect(cypherLiteral(new neo4j.DateTime(2024, 5, 1, 10, 0, 0, 0, -12600))).toBe(
      "datetime('2024-05-01T10:00:00-03:30')",
    );
    expect(cypherLiteral(new neo4j.DateTime(2024, 5, 1, 10, 0, 0, 0, 7200, 'Europe/Paris'))).toBe(
      "datetime('2024-05-01T10:00:00+02:00[Europe/Paris]')",
    );
  });

  it('writes the other temporal types with their own functions', () => {
    expect(cypherLiteral(new neo4j.Date(2024, 1, 2))).toBe("date('2024-01-02')");
    expect(cypherLiteral(new neo4j.LocalDateTime(2024, 1, 2, 3, 4, 5, 100000000))).toBe(
      "localdatetime('2024-01-02T03:04:05.100000000')",
    );
    expect(cypherLiteral(new neo4j.Time(10, 0, 1, 0, 3600))).toBe("time('10:00:01+01:00')");
    expect(cypherLiteral(new neo4j.LocalTime(10, 0, 0, 0))).toBe("localtime('10:00:00')");
    expect(cypherLiteral(new neo4j.Duration(14, 3, 14706, 7000000))).toBe("duration('P1Y2M3DT4H5M6.007000000S')");
  });

  it('writes points with their SRID', () => {
    expect(cypherLiteral(new neo4j.Point(7203, 1.5, 2))).toBe('point({srid: 7203, x: 1.5, y: 2.0})');
    expect(cypherLiteral(new neo4j.Point(4979, 1.5, 2, 3))).toBe('point({srid: 4979, x: 1.5, y: 2.0, z: 3.0})');
  });

  it('refuses values that have no literal', () => {
    expect(() => cypherLiteral(new Int8Array([1, 2]))).toThrow(/Byte array/);
    expect(() => cypherLiteral(new Date())).toThrow(/Cannot write/);
  });
});

describe('scriptStatements', () => {
  it('splits at line-ending semicolons and drops comment lines', () => {
    const script = `// header; with a semicolon;\n// second line\n\nCREATE CONSTRAINT a IF NOT EXISTS FOR (n:A) REQUIRE n.id IS UNIQUE;\n\nUNWIND [\n  {text: ${cypherString('x;\n// y;')}}\n] AS properties\nCREATE (node:A)\nSET node = properties;\n`;
    expect(scriptStatements(script)).toEqual([
      'CREATE CONSTRAINT a IF NOT EXISTS FOR (n:A) REQUIRE n.id IS UNIQUE',
      "UNWIND [\n  {text: 'x;\\n// y;'}\n] AS properties\nCREATE (node:A)\nSET node = properties",
    ]);
    expect(scriptStatements('RETURN 1;')).toEqual(['RETURN 1']);
  });
});
