/**
 * `npm run export`: a Cypher script that recreates a thread's lineage, or a whole tenant's, in any empty
 * Neo4j 5 database (Desktop, Aura), so that it can be explored in Bloom. The script holds only plain
 * statements separated by ";" at line ends: the schema of cypher/schema/ first, then the nodes as
 * `UNWIND [<literal maps>] AS properties CREATE (node:Label) SET node = properties` batches, then the
 * relationships, each batch matching its two ends by their unique keys (`id`, a thread's `tenant` + `id`,
 * a fact's `tenant`, `threadId`, `runOrdinal` and `seq`). Every property keeps its Neo4j type: integers
 * stay integers, floats floats, datetimes become `datetime('...')`; strings are escaped to ASCII, so the
 * script survives any copy and paste.
 *
 * What it reads is in cypher/export/; it never writes to the database it reads.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { cypher, queryNames, statementsOf } from '../graph/queries.js';
import { present } from '../domain/errors.js';

// ---------------------------------------------------------------------------------------------------
// Cypher literals

/** A single-quoted Cypher string literal, escaped so that the text is printable ASCII. */
export function cypherString(text: string): string {
  let out = "'";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const char = text.charAt(i);
    if (char === '\\') out += '\\\\';
    else if (char === "'") out += "\\'";
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code >= 0x20 && code < 0x7f) out += char;
    // Everything else, one UTF-16 code unit at a time: an emoji becomes its surrogate pair, which Neo4j
    // reads back as the same character. (Neo4j 5 does not read \U escapes.)
    else out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out + "'";
}

/** A label, relationship type or property key: as it is when it is a plain identifier, else in backticks. */
export function cypherName(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return name;
  if (name.length === 0) throw new Error('Cannot write an empty name in Cypher');
  return '`' + name.replaceAll('`', '``') + '`';
}

/** A Cypher FLOAT: always with a decimal point or an exponent, so that Neo4j never reads an integer. */
export function cypherFloat(value: number): string {
  if (Number.isNaN(value)) return '(0.0 / 0.0)';
  if (value === Infinity) return '(1.0 / 0.0)';
  if (value === -Infinity) return '(-1.0 / 0.0)';
  if (Object.is(value, -0)) return '-0.0';
  // String() gives the shortest text that reads back as the same double: '1.5', '1e+21', '5e-7', '42'.
  const text = String(value);
  const exponent = text.indexOf('e');
  if (exponent >= 0) {
    const mantissa = text.slice(0, exponent);
    return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${text.slice(exponent + 1).replace('+', '')}`;
  }
  return text.includes('.') ? text : `${text}.0`;
}

const MIN_INT64 = '-9223372036854775808';

function cypherInteger(text: string): string {
  // 9223372036854775808 is out of range before the minus sign applies.
  return text === MIN_INT64 ? '(-9223372036854775807 - 1)' : text;
}

/**
 * A Cypher expression that evaluates to `value`, as the JavaScript driver returns it (without
 * disableLosslessIntegers): neo4j Integer (or bigint) -> INTEGER, number -> FLOAT, temporal and spatial
 * values -> their constructor functions, arrays -> lists, plain objects -> maps (null entries skipped).
 * Byte arrays and graph entities have no literal form and are refused.
 */
export function cypherLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return cypherString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return cypherFloat(value);
  if (typeof value === 'bigint') return cypherInteger(value.toString());
  if (neo4j.isInt(value)) return cypherInteger(value.toString());
  if (neo4j.isDateTime(value)) return `datetime(${cypherString(value.toString())})`;
  if (neo4j.isLocalDateTime(value)) return `localdatetime(${cypherString(value.toString())})`;
  if (neo4j.isDate(value)) return `date(${cypherString(value.toString())})`;
  if (neo4j.isTime(value)) return `time(${cypherString(value.toString())})`;
  if (neo4j.isLocalTime(value)) return `localtime(${cypherString(value.toString())})`;
  if (neo4j.isDuration(value)) return `duration(${cypherString(value.toString())})`;
  if (neo4j.isPoint(value)) {
    const coordinates: Record<string, unknown> = {
      srid: neo4j.int(plainNumber(value.srid)),
      x: plainNumber(value.x),
      y: plainNumber(value.y),
    };
    if (value.z !== undefined && value.z !== null) coordinates.z = plainNumber(value.z);
    return `point(${cypherMap(coordinates)})`;
  }
  if (Array.isArray(value)) return `[${value.map(cypherLiteral).join(', ')}]`;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    throw new Error('Byte array properties have no Cypher literal; they cannot be exported as a script');
  }
  if (
    typeof value === 'object' &&
    (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
  ) {
    return cypherMap(value as Record<string, unknown>);
  }
  throw new Error(`Cannot write a ${Object.prototype.toString.call(value)} as a Cypher literal`);
}

function plainNumber(value: unknown): number {
  return neo4j.isInt(value) ? value.toNumber() : Number(value);
}

/** A map literal; entries whose value is null or undefined are left out (Neo4j does not store null). */
export function cypherMap(map: Record<string, unknown>): string {
  const entries = Object.entries(map).filter(([, inner]) => inner !== null && inner !== undefined);
  return `{${entries.map(([key, inner]) => `${cypherName(key)}: ${cypherLiteral(inner)}`).join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------------
// Scripts

/**
 * The statements of a script: split at ";" ending a line, comment lines dropped. String literals never
 * span lines (newlines are escaped), so a line-ending ";" is always a statement end.
 */
export function scriptStatements(script: string): string[] {
  return script
    .split(/;[ \t]*\r?\n|;[ \t]*$/)
    .map((statement) =>
      statement
        .split(/\r?\n/)
        .filter((line) => !line.trim().startsWith('//'))
        .join('\n')
        .trim(),
    )
    .filter(Boolean);
}

/** Labels in creation order; each with the properties that address one of its nodes (unique constraints). */
const NODE_KEYS: ReadonlyArray<readonly [label: string, key: readonly string[]]> = [
  ['Thread', ['tenant', 'id']],
  ['ProviderThread', ['id']],
  ['Run', ['id']],
  ['RunFact', ['tenant', 'threadId', 'runOrdinal', 'seq']],
  ['Checkpoint', ['id']],
  ['ContextHandoff', ['id']],
  ['ContextTransfer', ['id']],
];
const LABEL_ORDER = new Map(NODE_KEYS.map(([label], index) => [label, index]));
const KEY_OF = new Map<string, readonly string[]>(NODE_KEYS);

/** The key properties of an exported label (every exported label has them). */
const keyOf = (label: string): readonly string[] => present(KEY_OF.get(label), `key properties of ${label}`);

/** At most this many rows, and about this many characters, per UNWIND statement. */
const BATCH_ROWS = 100;
const BATCH_CHARS = 256 * 1024;

export interface ExportTarget {
  tenant: string;
  /** One thread's lineage; absent: every thread of the tenant (forks and subagent threads included). */
  threadId?: string;
}

export interface ExportOptions {
  database: string;
  /** Written into the header; default now. */
  exportedAt?: Date;
}

export interface LineageExport {
  script: string;
  threadIds: string[];
  /** Exported nodes per label and relationships per type. */
  nodeCounts: Record<string, number>;
  relationshipCounts: Record<string, number>;
  nodes: number;
  relationships: number;
}

export class ExportError extends Error {}

interface ExportedNode {
  elementId: string;
  labels: string[];
  primary: string;
  properties: Record<string, unknown>;
  key: Record<string, unknown>;
}

interface ExportedRelationship {
  from: ExportedNode;
  to: ExportedNode;
  type: string;
  properties: Record<string, unknown>;
}

/** Reads the lineage of `target` in one read transaction and renders it as a Cypher script. */
export async function exportLineage(
  driver: Driver,
  target: ExportTarget,
  options: ExportOptions,
): Promise<LineageExport> {
  const session = driver.session({ database: options.database, defaultAccessMode: neo4j.session.READ });
  let threadIds: string[];
  let nodeRows: { elementId: string; labels: string[]; properties: Record<string, unknown> }[];
  let relationshipRows: { fromId: string; type: string; toId: string; properties: Record<string, unknown> }[];
  try {
    ({ threadIds, nodeRows, relationshipRows } = await session.executeRead(async (tx) => {
      const threadIds =
        target.threadId !== undefined
          ? [target.threadId]
          : (await tx.run(cypher('export/tenant-threads'), { tenant: target.tenant })).records.map(
              (record) => record.get('threadId') as string,
            );
      const nodeRows = (await tx.run(cypher('export/lineage-nodes'), { tenant: target.tenant, threadIds })).records.map(
        (record) => ({
          elementId: record.get('elementId') as string,
          labels: record.get('labels') as string[],
          properties: record.get('properties') as Record<string, unknown>,
        }),
      );
      const relationshipRows = (
        await tx.run(cypher('export/relationships'), { elementIds: nodeRows.map((row) => row.elementId) })
      ).records.map((record) => ({
        fromId: record.get('fromId') as string,
        type: record.get('type') as string,
        toId: record.get('toId') as string,
        properties: record.get('properties') as Record<string, unknown>,
      }));
      return { threadIds, nodeRows, relationshipRows };
    }));
  } finally {
    await session.close();
  }
  if (target.threadId !== undefined && !nodeRows.some((row) => row.labels.includes('Thread'))) {
    throw new ExportError(`No thread ${JSON.stringify(target.threadId)} in tenant ${JSON.stringify(target.tenant)}`);
  }

  const nodes = nodeRows.map(toExportedNode);
  const byKey = new Map<string, ExportedNode>();
  for (const node of nodes) {
    const key = `${node.primary} ${stableText(node.key)}`;
    if (byKey.has(key))
      throw new ExportError(`Two exported nodes share the key ${key}; the script could not tell them apart`);
    byKey.set(key, node);
  }
  const byElementId = new Map(nodes.map((node) => [node.elementId, node]));
  const relationships: ExportedRelationship[] = relationshipRows.map((row) => ({
    from: present(byElementId.get(row.fromId), `exported node ${row.fromId}`),
    to: present(byElementId.get(row.toId), `exported node ${row.toId}`),
    type: row.type,
    properties: row.properties,
  }));
  nodes.sort(compareNodes);
  relationships.sort(
    (a, b) =>
      compareText(a.type, b.type) ||
      compareNodes(a.from, b.from) ||
      compareNodes(a.to, b.to) ||
      compareText(stableText(a.properties), stableText(b.properties)),
  );

  const nodeCounts = countBy(nodes, (node) => node.labels.join(':'));
  const relationshipCounts = countBy(relationships, (relationship) => relationship.type);
  const header = [
    `// Threadline lineage export: ${target.threadId !== undefined ? `thread ${cypherString(target.threadId)} of tenant ${cypherString(target.tenant)}` : `tenant ${cypherString(target.tenant)} (${threadIds.length} threads)`}`,
    `// Exported ${(options.exportedAt ?? new Date()).toISOString()}: ${nodes.length} nodes, ${relationships.length} relationships.`,
    `// Nodes: ${describeCounts(nodeCounts)}`,
    `// Relationships: ${describeCounts(relationshipCounts)}`,
    '// Load it into an EMPTY Neo4j 5 database (Neo4j Desktop, Aura): run it in Neo4j Browser or the Aura',
    '// query tool with multi-statement queries enabled, or `cypher-shell -f <file>`. Statements end with ";"',
    '// at the end of a line; the schema comes first, then the nodes, then the relationships. See docs/bloom.md.',
  ];
  const statements = [...schemaStatements(), ...nodeStatements(nodes), ...relationshipStatements(relationships)];
  return {
    script: `${header.join('\n')}\n\n${statements.map((statement) => `${statement};\n`).join('\n')}`,
    threadIds,
    nodeCounts,
    relationshipCounts,
    nodes: nodes.length,
    relationships: relationships.length,
  };
}

function toExportedNode(row: {
  elementId: string;
  labels: string[];
  properties: Record<string, unknown>;
}): ExportedNode {
  const primary = [...row.labels].sort(
    (a, b) => (LABEL_ORDER.get(a) ?? Infinity) - (LABEL_ORDER.get(b) ?? Infinity),
  )[0];
  const keyProperties = primary === undefined ? undefined : KEY_OF.get(primary);
  if (primary === undefined || keyProperties === undefined) {
    throw new ExportError(`Cannot export a node labelled ${row.labels.join(':') || '(none)'}: no key to match it by`);
  }
  const key: Record<string, unknown> = {};
  for (const property of keyProperties) {
    const value = row.properties[property];
    if (value === null || value === undefined) {
      throw new ExportError(
        `Cannot export a :${primary} node without ${property} (${cypherMap(row.properties).slice(0, 200)})`,
      );
    }
    key[property] = value;
  }
  return { elementId: row.elementId, labels: [...row.labels].sort(), primary, properties: row.properties, key };
}

/** The schema migrations, in order: uniqueness constraints first, then the indexes (all IF NOT EXISTS). */
function schemaStatements(): string[] {
  return queryNames()
    .filter((name) => name.startsWith('schema/'))
    .flatMap((name) => statementsOf(name));
}

function nodeStatements(nodes: ExportedNode[]): string[] {
  const statements: string[] = [];
  for (const [labels, group] of groupBy(nodes, (node) => node.labels.join(':'))) {
    const labelText = labels.split(':').map(cypherName).join(':');
    for (const rows of batches(group.map((node) => cypherMap(orderedProperties(node))))) {
      statements.push(
        `UNWIND [\n  ${rows.join(',\n  ')}\n] AS properties\nCREATE (node:${labelText})\nSET node = properties`,
      );
    }
  }
  return statements;
}

/** The key properties first, then the caption, then the rest by name: stable and easy to read. */
function orderedProperties(node: ExportedNode): Record<string, unknown> {
  const first = [...keyOf(node.primary), 'caption'];
  const names = Object.keys(node.properties).sort((a, b) => {
    const rank = (name: string) => (first.includes(name) ? first.indexOf(name) : first.length);
    return rank(a) - rank(b) || compareText(a, b);
  });
  return Object.fromEntries(names.map((name) => [name, node.properties[name]]));
}

function relationshipStatements(relationships: ExportedRelationship[]): string[] {
  const statements: string[] = [];
  const grouped = groupBy(
    relationships,
    (relationship) => `${relationship.type}\u0000${relationship.from.primary}\u0000${relationship.to.primary}`,
  );
  for (const group of grouped.values()) {
    const { type, from, to } = present(group[0], 'relationship of a group');
    const withProperties = group.some((relationship) => Object.keys(relationship.properties).length > 0);
    const rows = group.map((relationship) =>
      cypherMap({
        from: relationship.from.key,
        to: relationship.to.key,
        ...(withProperties ? { properties: relationship.properties } : {}),
      }),
    );
    for (const batch of batches(rows)) {
      statements.push(
        [
          `UNWIND [\n  ${batch.join(',\n  ')}\n] AS row`,
          `MATCH (from:${cypherName(from.primary)} ${keyPattern('row.from', from.primary)})`,
          `MATCH (to:${cypherName(to.primary)} ${keyPattern('row.to', to.primary)})`,
          `CREATE (from)-[${withProperties ? 'rel' : ''}:${cypherName(type)}]->(to)${withProperties ? '\nSET rel = row.properties' : ''}`,
        ].join('\n'),
      );
    }
  }
  return statements;
}

function keyPattern(variable: string, label: string): string {
  return `{${keyOf(label)
    .map((property) => `${cypherName(property)}: ${variable}.${cypherName(property)}`)
    .join(', ')}}`;
}

function* batches(rows: string[]): Generator<string[]> {
  let batch: string[] = [];
  let size = 0;
  for (const row of rows) {
    if (batch.length > 0 && (batch.length >= BATCH_ROWS || size + row.length > BATCH_CHARS)) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(row);
    size += row.length;
  }
  if (batch.length > 0) yield batch;
}

/** Nodes in a stable, readable order: by label, then thread, then ordinal / seq, then time, then key. */
function compareNodes(a: ExportedNode, b: ExportedNode): number {
  return (
    (LABEL_ORDER.get(a.primary) ?? 0) - (LABEL_ORDER.get(b.primary) ?? 0) ||
    compareText(
      String(a.properties.threadId ?? a.properties.id ?? ''),
      String(b.properties.threadId ?? b.properties.id ?? ''),
    ) ||
    numberOf(a.properties.ordinal ?? a.properties.runOrdinal) -
      numberOf(b.properties.ordinal ?? b.properties.runOrdinal) ||
    numberOf(a.properties.seq) - numberOf(b.properties.seq) ||
    compareText(String(a.properties.createdAt ?? ''), String(b.properties.createdAt ?? '')) ||
    compareText(stableText(a.key), stableText(b.key))
  );
}

function numberOf(value: unknown): number {
  if (neo4j.isInt(value)) return value.toNumber();
  return typeof value === 'number' ? value : -1;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A deterministic text for keys and relationship properties (values as their Cypher literals). */
function stableText(map: Record<string, unknown>): string {
  return Object.keys(map)
    .sort()
    .map((key) => `${key}=${cypherLiteral(map[key])}`)
    .join(',');
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

function countBy<T>(items: T[], keyOf: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[keyOf(item)] = (counts[keyOf(item)] ?? 0) + 1;
  return counts;
}

function describeCounts(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? 'none' : entries.map(([name, count]) => `${name} ${count}`).join(', ');
}
