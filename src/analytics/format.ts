// Pure helpers of `npm run query` (tools/query.ts): reading a query file's parameters, parsing
// key=value arguments, and printing rows as an aligned table or as CSV. No I/O here.
import { LINEAGE_RULE_PARAMETERS } from '../domain/standing.js';

export type Row = Record<string, unknown>;

export interface QueryParameter {
  name: string;
  description: string;
  /** Present when the header gives `[default: <JSON>]`; `null` makes the parameter optional. */
  default?: unknown;
}

const HEADER_PARAMETER = /^\/\/\s+\$([A-Za-z_][A-Za-z0-9_]*)\s+(.*)$/;
const DEFAULT_MARK = /\[default:\s*(.*?)\]/;

/**
 * The parameters a query file documents in the `// Parameters:` section of its header comment (the
 * leading `//` lines, the section ending at an empty `//` line): each line
 * `//   $name  description [default: <JSON>]`. `$tenant` is never listed: the tool supplies it.
 */
export function documentedParameters(text: string): QueryParameter[] {
  const parameters: QueryParameter[] = [];
  let inSection = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith('//')) break; // the header ends at the first statement line
    if (/^\/\/\s*Parameters:\s*$/.test(line)) {
      inSection = true;
      continue;
    }
    if (/^\/\/\s*$/.test(line)) inSection = false;
    const match = inSection ? HEADER_PARAMETER.exec(line) : null;
    if (!match) continue;
    const [, name, rest] = match as unknown as [string, string, string];
    const parameter: QueryParameter = { name, description: rest.replace(DEFAULT_MARK, '').trim() };
    const mark = DEFAULT_MARK.exec(rest);
    if (mark) parameter.default = parseValue(mark[1] ?? '');
    parameters.push(parameter);
  }
  return parameters;
}

/** Every `$name` the statement itself uses (not in comments, string literals or quoted names), sorted. */
export function referencedParameters(text: string): string[] {
  const names = new Set<string>();
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    if (char === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) break;
    } else if (char === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i < 0) break;
      i += 2;
    } else if (char === "'" || char === '"' || char === '`') {
      i++;
      while (i < text.length && text[i] !== char) i += text[i] === '\\' && char !== '`' ? 2 : 1;
      i++;
    } else if (char === '$') {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1));
      if (match) names.add(match[0]);
      i += 1 + (match?.[0].length ?? 0);
    } else i++;
  }
  return [...names].sort();
}

/** A command-line value: JSON when it parses (numbers, booleans, null, lists, quoted strings), else the string itself. */
export function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export class ArgumentError extends Error {}

/** `key=value` arguments as a parameter map; a malformed one is an ArgumentError. */
export function parseAssignments(args: readonly string[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const arg of args) {
    const separator = arg.indexOf('=');
    if (separator < 1) throw new ArgumentError(`Expected key=value, got ${JSON.stringify(arg)}`);
    const key = arg.slice(0, separator);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new ArgumentError(`Bad parameter name ${JSON.stringify(key)}`);
    params[key] = parseValue(arg.slice(separator + 1));
  }
  return params;
}

/**
 * The parameters to send: the given ones plus documented defaults. Refuses `tenant` (use --tenant),
 * names the statement does not use, and any it uses that are neither given nor defaulted.
 */
/** Parameters the service sets on every statement: the tenant and the lineage rules. */
export function isSetByTheService(name: string): boolean {
  return name === 'tenant' || name in LINEAGE_RULE_PARAMETERS;
}

export function resolveParameters(text: string, given: Record<string, unknown>): Record<string, unknown> {
  if ('tenant' in given) throw new ArgumentError('The tenant is not a parameter: use --tenant <id>');
  const fixed = Object.keys(given).filter((name) => isSetByTheService(name));
  if (fixed.length > 0)
    throw new ArgumentError(
      `${fixed.join(', ')} ${fixed.length > 1 ? 'are' : 'is'} set by the service, not a parameter`,
    );
  const documented = new Map(documentedParameters(text).map((parameter) => [parameter.name, parameter]));
  // In the header's order, then any the header does not document.
  const referenced = referencedParameters(text).filter((name) => !isSetByTheService(name));
  const used = [
    ...[...documented.keys()].filter((name) => referenced.includes(name)),
    ...referenced.filter((name) => !documented.has(name)),
  ];
  const unknown = Object.keys(given).filter((name) => !used.includes(name));
  if (unknown.length > 0)
    throw new ArgumentError(
      `Unknown parameter${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; this query takes ${describe(used, documented)}`,
    );
  const params: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const name of used) {
    const byDefault = documented.get(name)?.default;
    if (name in given) params[name] = given[name];
    else if (byDefault !== undefined) params[name] = byDefault;
    else missing.push(name);
  }
  if (missing.length > 0)
    throw new ArgumentError(
      `Missing parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; this query takes ${describe(used, documented)}`,
    );
  return params;
}

function describe(used: string[], documented: Map<string, QueryParameter>): string {
  if (used.length === 0) return 'no parameters';
  return used
    .map((name) => {
      const parameter = documented.get(name);
      const assignment = `${name}=${placeholder(parameter)}`;
      return parameter?.default !== undefined
        ? `${assignment} (default ${JSON.stringify(parameter.default)})`
        : assignment;
    })
    .join(' ');
}

/** What a parameter's value looks like, for usage lines: `<ISO date-time>` for the time windows' from and to, else `...`. */
export function placeholder(parameter: QueryParameter | undefined): string {
  return parameter && /^ISO date-?time\b/i.test(parameter.description) ? '<ISO date-time>' : '...';
}

/** How a query is called: `name=<placeholder>` for required parameters, `[name=<default>]` for the others. */
export function usageOf(parameters: readonly QueryParameter[]): string {
  return parameters
    .map((parameter) =>
      parameter.default !== undefined
        ? `[${parameter.name}=${JSON.stringify(parameter.default)}]`
        : `${parameter.name}=${placeholder(parameter)}`,
    )
    .join(' ');
}

/** How one value reads in a cell: null as empty, strings as they are, anything else as compact JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function columnsOf(rows: readonly Row[]): string[] {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return columns;
}

/** Columns a table may take when no width is given: what fits a terminal of about 100 columns. */
export const TABLE_WIDTH = 100;

/**
 * Rows as an aligned text table with a header and a rule; numbers are right-aligned. A table wider than
 * `width` is printed one row per block instead, a column per line, long values wrapped (see formatRecords).
 */
export function formatTable(rows: readonly Row[], width = TABLE_WIDTH): string {
  if (rows.length === 0) return '(no rows)\n';
  const columns = columnsOf(rows);
  const cells = rows.map((row) => columns.map((column) => cellText(row[column]).replace(/\r?\n/g, '\\n')));
  const numeric = columns.map((column) =>
    rows.every((row) => row[column] === null || row[column] === undefined || typeof row[column] === 'number'),
  );
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => (line[i] ?? '').length)));
  if (widths.reduce((sum, columnWidth) => sum + columnWidth, 2 * (columns.length - 1)) > width)
    return formatRecords(rows, width);
  const render = (line: string[]) =>
    line
      .map((text, i) => (numeric[i] ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const lines = [
    render(columns),
    widths.map((columnWidth) => '-'.repeat(columnWidth)).join('  '),
    ...cells.map(render),
  ];
  return `${lines.join('\n')}\n${rowCount(rows)}\n`;
}

/**
 * Rows as blocks, for tables too wide for the screen: a `-[ n ]---` line, then one `column  value` line
 * per column, values longer than the line wrapped onto indented lines (after a comma or a space in the
 * line's second half, else in the middle of a word). Nothing is left out: every value is there whole.
 */
export function formatRecords(rows: readonly Row[], width = TABLE_WIDTH): string {
  if (rows.length === 0) return '(no rows)\n';
  const columns = columnsOf(rows);
  const label = Math.max(...columns.map((column) => column.length));
  const room = Math.max(20, width - label - 2);
  const lines: string[] = [];
  rows.forEach((row, index) => {
    const head = `-[ ${index + 1} ]`;
    lines.push(head + '-'.repeat(Math.max(0, width - head.length)));
    for (const column of columns) {
      wrap(cellText(row[column]).replace(/\r?\n/g, '\\n'), room).forEach((part, i) =>
        lines.push(`${i === 0 ? column.padEnd(label) : ' '.repeat(label)}  ${part}`.trimEnd()),
      );
    }
  });
  return `${lines.join('\n')}\n${rowCount(rows)}\n`;
}

function wrap(text: string, width: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const head = rest.slice(0, width);
    const breakAt = Math.max(head.lastIndexOf(','), head.lastIndexOf(' '));
    // A break in the second half of the line keeps words, ids and JSON members whole; none there: cut.
    const cut = breakAt >= width / 2 ? breakAt + 1 : width;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  parts.push(rest);
  return parts;
}

function rowCount(rows: readonly Row[]): string {
  return `${rows.length} row${rows.length === 1 ? '' : 's'}`;
}

/**
 * The coverage matrix as a table shows it: one row per run (ordinal, provider, status) and one column
 * per provider thread, named by its caption (`codex #1`), each cell how that provider thread knows the
 * run: native, handoff or missing. The ids stay in --json and --csv.
 */
function coverageMatrixView(rows: readonly Row[]): Row[] {
  return rows.map((row) => {
    const view: Row = { ordinal: row.ordinal, provider: row.provider, status: row.status };
    for (const cell of (Array.isArray(row.cells) ? row.cells : []) as { caption?: unknown; kind?: unknown }[])
      view[String(cell.caption)] = cell.kind;
    return view;
  });
}

/** Queries whose table is a view of their rows, with a line saying what the view leaves out. */
export const TABLE_VIEWS: Record<string, { view: (rows: readonly Row[]) => Row[]; note: string }> = {
  'coverage-matrix': {
    view: coverageMatrixView,
    note: 'One column per provider thread of the page ($columnsFrom, $columns); the run and provider thread ids are in --json and --csv.',
  },
};

/** RFC 4180 CSV with a header line; fields with a comma, quote or line break are quoted. */
export function formatCsv(rows: readonly Row[]): string {
  const columns = columnsOf(rows);
  const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = [
    columns.map(field).join(','),
    ...rows.map((row) => columns.map((column) => field(cellText(row[column]))).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
