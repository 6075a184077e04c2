import { describe, expect, it } from 'vitest';
import {
  ArgumentError,
  cellText,
  documentedParameters,
  formatCsv,
  formatRecords,
  formatTable,
  parseAssignments,
  parseValue,
  placeholder,
  referencedParameters,
  resolveParameters,
  TABLE_VIEWS,
  TABLE_WIDTH,
  usageOf,
} from '../../src/analytics/format.js';

const QUERY = `// What it answers, between $from and $to (mentioned here, not a parameter line).
//
// Parameters:
//   $threadId  one thread, or null for all [default: null]
//   $from      ISO date-time
//   $limit     at most this many rows [default: 50]
//
// Columns:
//   $notAParameter  outside the Parameters section
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
WHERE thread.createdAt >= datetime($from) AND thread.title <> '$quoted' // $commented
RETURN thread.id AS id LIMIT $limit
`;

describe('query file parameters', () => {
  it('reads the documented parameters and their defaults from the Parameters section only', () => {
    expect(documentedParameters(QUERY)).toEqual([
      { name: 'threadId', description: 'one thread, or null for all', default: null },
      { name: 'from', description: 'ISO date-time' },
      { name: 'limit', description: 'at most this many rows', default: 50 },
    ]);
  });

  it('finds the parameters the statement uses, ignoring comments and string literals', () => {
    expect(referencedParameters(QUERY)).toEqual(['from', 'limit', 'tenant', 'threadId']);
  });

  it('fills defaults and refuses missing, unknown and tenant parameters', () => {
    expect(resolveParameters(QUERY, { from: '2026-01-01T00:00:00Z' })).toEqual({
      threadId: null,
      from: '2026-01-01T00:00:00Z',
      limit: 50,
    });
    expect(resolveParameters(QUERY, { from: 'x', limit: 5, threadId: 't1' })).toEqual({
      threadId: 't1',
      from: 'x',
      limit: 5,
    });
    expect(() => resolveParameters(QUERY, {})).toThrow(
      /^Missing parameter from; this query takes threadId=\.\.\. \(default null\) from=<ISO date-time> limit=\.\.\. \(default 50\)$/,
    );
    expect(() => resolveParameters(QUERY, { from: 'x', bogus: 1 })).toThrow(/Unknown parameter bogus/);
    expect(() => resolveParameters(QUERY, { from: 'x', tenant: 'other' })).toThrow(/--tenant/);
    expect(() =>
      resolveParameters(`${QUERY}\nAND h.status IN $standingStatuses`, { from: 'x', standingStatuses: ['failed'] }),
    ).toThrow(/standingStatuses is set by the service/);
    expect(resolveParameters(`${QUERY}\nAND h.status IN $standingStatuses`, { from: 'x' })).not.toHaveProperty(
      'standingStatuses',
    );
    expect(() => resolveParameters(QUERY, {})).toThrow(ArgumentError);
  });
});

describe('usage lines', () => {
  it('say which values are ISO date-times, and show defaults', () => {
    expect(usageOf(documentedParameters(QUERY))).toBe('[threadId=null] from=<ISO date-time> [limit=50]');
    expect(placeholder({ name: 'to', description: 'ISO date-time, end of the window (exclusive)' })).toBe(
      '<ISO date-time>',
    );
    expect(placeholder({ name: 'threadId', description: 'the app thread' })).toBe('...');
    expect(placeholder(undefined)).toBe('...');
  });
});

describe('command-line values', () => {
  it('parses JSON when it can, else keeps the string', () => {
    expect(parseValue('10')).toBe(10);
    expect(parseValue('true')).toBe(true);
    expect(parseValue('null')).toBeNull();
    expect(parseValue('[1,2]')).toEqual([1, 2]);
    expect(parseValue('"42"')).toBe('42');
    expect(parseValue('thread-1')).toBe('thread-1');
    expect(parseValue('2026-01-01T00:00:00Z')).toBe('2026-01-01T00:00:00Z');
    expect(parseValue('')).toBe('');
  });

  it('reads key=value pairs, splitting at the first =', () => {
    expect(parseAssignments(['threadId=a=b', 'limit=3', 'empty='])).toEqual({ threadId: 'a=b', limit: 3, empty: '' });
    expect(() => parseAssignments(['novalue'])).toThrow(ArgumentError);
    expect(() => parseAssignments(['=x'])).toThrow(/key=value/);
    expect(() => parseAssignments(['bad-name=1'])).toThrow(/Bad parameter name/);
  });
});

describe('output', () => {
  const rows = [
    { provider: 'codex', runs: 12, rate: 0.0833, signals: ['a', 'b'], note: null },
    { provider: 'claude', runs: 3, rate: 1, signals: [], note: 'two\nlines' },
  ];

  it('renders cells: null empty, strings as is, the rest as JSON', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
    expect(cellText('x')).toBe('x');
    expect(cellText(1.5)).toBe('1.5');
    expect(cellText(false)).toBe('false');
    expect(cellText({ kind: 'native' })).toBe('{"kind":"native"}');
  });

  it('prints an aligned table, numbers right-aligned, with a row count', () => {
    expect(formatTable(rows)).toBe(
      [
        'provider  runs    rate  signals    note',
        '--------  ----  ------  ---------  ----------',
        'codex       12  0.0833  ["a","b"]',
        'claude       3       1  []         two\\nlines',
        '2 rows',
        '',
      ].join('\n'),
    );
    expect(formatTable([{ a: 1 }])).toBe('a\n-\n1\n1 row\n');
    expect(formatTable([])).toBe('(no rows)\n');
  });

  it('prints a table wider than the width one block per row, values wrapped whole', () => {
    const wide = [
      {
        id: 'pt_f4785c5b-4294-4c53-95d0-adf4604b4686',
        captions: ['codex #1', 'claude #2', 'codex #3', 'claude #4'],
        n: 7,
      },
    ];
    expect(formatTable(wide, 50)).toBe(
      [
        '-[ 1 ]--------------------------------------------',
        'id        pt_f4785c5b-4294-4c53-95d0-adf4604b4686',
        'captions  ["codex #1","claude #2","codex #3",',
        '          "claude #4"]',
        'n         7',
        '1 row',
        '',
      ].join('\n'),
    );
    expect(formatTable(wide, 100)).toBe(
      [
        'id                                       captions                                         n',
        '---------------------------------------  -----------------------------------------------  -',
        'pt_f4785c5b-4294-4c53-95d0-adf4604b4686  ["codex #1","claude #2","codex #3","claude #4"]  7',
        '1 row',
        '',
      ].join('\n'),
    );
    // A value with no comma or space in the second half of the line is cut where the line ends.
    expect(formatRecords([{ k: 'x'.repeat(45) }], 24)).toBe(
      `-[ 1 ]------------------\nk  ${'x'.repeat(21)}\n   ${'x'.repeat(21)}\n   xxx\n1 row\n`,
    );
  });

  it('fits the coverage matrix in 100 columns: a column per provider thread', () => {
    const cell = (caption: string, kind: string, n: number) => ({
      kind,
      caption,
      providerThreadId: `pt_${String(n).repeat(8)}-4294-4c53-95d0-adf4604b4686`,
    });
    const matrix = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((ordinal) => ({
      ordinal,
      runId: `run_830841f0-006a-437f-9469-7cbff891f0f${ordinal}`,
      runThreadId: 'demo-18024e-design',
      provider: ordinal <= 5 || ordinal === 9 ? 'codex' : 'claude',
      status: 'completed',
      servedBy: 'pt_f4785c5b-4294-4c53-95d0-adf4604b4686',
      coverage: 'codex #1=native, claude #2=handoff',
      cells: [
        cell('codex #1', ordinal <= 5 || ordinal === 9 ? 'native' : 'handoff', 1),
        cell('claude #2', ordinal === 9 ? 'missing' : ordinal <= 5 ? 'handoff' : 'native', 2),
      ],
    }));
    const table = formatTable(TABLE_VIEWS['coverage-matrix']!.view(matrix));
    expect(table.split('\n').slice(0, 3)).toEqual([
      'ordinal  provider  status     codex #1  claude #2',
      '-------  --------  ---------  --------  ---------',
      '      1  codex     completed  native    handoff',
    ]);
    expect(table.split('\n')[10]).toBe('      9  codex     completed  native    missing');
    expect(
      Math.max(
        ...formatTable(matrix)
          .split('\n')
          .map((line) => line.length),
      ),
    ).toBeLessThanOrEqual(TABLE_WIDTH);
  });

  it('prints RFC 4180 CSV', () => {
    expect(formatCsv(rows)).toBe(
      'provider,runs,rate,signals,note\r\ncodex,12,0.0833,"[""a"",""b""]",\r\nclaude,3,1,[],"two\nlines"\r\n',
    );
    expect(formatCsv([{ 'a,b': 'x' }])).toBe('"a,b"\r\nx\r\n');
  });
});

describe('parameter scanning edge cases', () => {
  it('skips block comments, double-quoted strings with escapes, // inside strings and backticked names', () => {
    const text =
      'MATCH (n {uri: \'bolt://x\', id: $id}) /* $block */ WHERE n.`$quoted` = "a \\" $inside" RETURN n LIMIT $limit // $tail';
    expect(referencedParameters(text)).toEqual(['id', 'limit']);
  });
});
