// The whole-product section of the benchmark's report: its figures, its targets (each met or missed
// with the figure that says so) and its part of docs/benchmarks.md.
import type { StoreFootprint } from './footprint.js';
import type { Stats } from './measure.js';
import { EARLY_ROLLBACK_ORDINAL, OP, operationStats, type OperationId, type OperationSpec, type PreparedProduct, type SeededThreadRole } from './product.js';

export interface OperationFigures {
  id: OperationId;
  name: string;
  about: string;
  thread: SeededThreadRole;
  bySize: Record<number, Stats | null>;
  /** Median at the largest size over the median at the reference size. */
  ratio: number | null;
  errors: Record<string, number> | null;
}

export interface FootprintFigures {
  size: number;
  relationships: number;
  relationshipsPerRun: number;
  relationshipsPerRunByType: Record<string, number>;
  /** null when the bench did not run its own Neo4j. */
  storeBytes: number | null;
  storeBytesPerRun: number | null;
  txLogBytes: number | null;
  txLogBytesPerRun: number | null;
}

export interface ProductSection {
  /** The size ratios are taken against: 1,000 runs when measured, else the smallest size. */
  referenceSize: number;
  largestSize: number;
  operations: OperationFigures[];
  earlyRollback: { toOrdinal: number; rounds: Record<number, number>; msPer1000RolledBackRuns: Record<number, number | null> };
  viewer: { runsSelection: string; schemaHasRunsWindow: boolean };
  sanity: Record<string, string>;
  seedSeconds: number;
  footprint: { bySize: FootprintFigures[]; storeMeasured: boolean };
}

export type TargetStatus = 'met' | 'missed' | 'not measured';

export interface Target {
  name: string;
  status: TargetStatus;
  figure: string;
}

const FLAT = 1.5;
const FOOTPRINT_FLAT = 1.3;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
export const thousands = (size: number) => size.toLocaleString('en-US');

export function productSection(prepared: PreparedProduct, sizes: number[], latency: Record<string, Stats>, stores: StoreFootprint[] | null): ProductSection {
  const referenceSize = sizes.includes(1000) ? 1000 : sizes[0]!;
  const largestSize = sizes[sizes.length - 1]!;
  const operations = prepared.operations.map((operation: OperationSpec): OperationFigures => {
    const { bySize, errors } = operationStats(operation, sizes, latency);
    const [reference, largest] = [bySize[referenceSize], bySize[largestSize]];
    const ratio = reference?.n && largest?.n ? round(largest.medianMs / reference.medianMs) : null;
    return { id: operation.id, name: operation.name, about: operation.about, thread: operation.thread, bySize, ratio, errors };
  });
  const early = operations.find((operation) => operation.id === 'rollbackEarly')!;
  const msPer1000RolledBackRuns = Object.fromEntries(
    sizes.map((size) => {
      const figures = early.bySize[size];
      return [size, figures?.n ? round((figures.medianMs * 1000) / (size - EARLY_ROLLBACK_ORDINAL), 3) : null];
    }),
  );
  const footprints = sizes.map((size): FootprintFigures => {
    const counted = prepared.relationships[size]!;
    const store = stores?.find((entry) => entry.size === size) ?? null;
    return {
      size,
      relationships: counted.total,
      relationshipsPerRun: counted.perRun,
      relationshipsPerRunByType: Object.fromEntries(Object.entries(counted.byType).map(([type, count]) => [type, round(count / size, 3)])),
      storeBytes: store?.storeBytes ?? null,
      storeBytesPerRun: store ? round(store.storeBytes / size, 1) : null,
      txLogBytes: store?.txLogBytes ?? null,
      txLogBytesPerRun: store ? round(store.txLogBytes / size, 1) : null,
    };
  });
  return {
    referenceSize,
    largestSize,
    operations,
    earlyRollback: { toOrdinal: EARLY_ROLLBACK_ORDINAL, rounds: prepared.earlyRounds, msPer1000RolledBackRuns },
    viewer: prepared.viewer,
    sanity: prepared.sanity,
    seedSeconds: round(prepared.seedSeconds, 1),
    footprint: { bySize: footprints, storeMeasured: stores !== null },
  };
}

export function productTargets(section: ProductSection): Target[] {
  const { referenceSize: from, largestSize: to } = section;
  const span = `from ${thousands(from)} to ${thousands(to)} runs`;
  const byId = (id: OperationId) => section.operations.find((operation) => operation.id === id)!;
  const median = (operation: OperationFigures, size: number) => operation.bySize[size]?.medianMs;
  const flat = (ids: OperationId[], what: string): Target => {
    const measured = ids.map(byId);
    const worst = measured.reduce<OperationFigures | null>((a, b) => (a && (a.ratio ?? Infinity) >= (b.ratio ?? Infinity) ? a : b), null)!;
    if (worst.ratio === null) return { name: `${what} ${span} within ${FLAT}x`, status: worst.errors ? 'missed' : 'not measured', figure: failedFigure(worst) };
    const figure = measured.map((operation) => `${measured.length > 1 ? `${operation.name}: ` : ''}${operation.ratio}x (${median(operation, from)} -> ${median(operation, to)} ms)`).join('; ');
    return { name: `${what} ${span} within ${FLAT}x`, status: worst.ratio <= FLAT ? 'met' : 'missed', figure };
  };
  const targets: Target[] = [
    flat(['startNoHandoff'], 'startRun NO_HANDOFF'),
    flat(['startDelta'], 'startRun DELTA_HANDOFF'),
    flat(['startFullNew'], 'startRun FULL_HANDOFF_NEW'),
    flat(['startFullExisting'], 'startRun FULL_HANDOFF_EXISTING'),
    flat(['fork'], 'forkThread'),
    flat(['forkNative'], "the fork's first run, native"),
    flat(['forkPortable'], "the fork's first run, portable"),
    flat(['viewer'], `the viewer's first paint (${section.viewer.runsSelection})`),
    flat(['coverageHead', 'coverageOwed'], 'ProviderThread.coverage'),
    flat(['matrix'], 'Thread.coverageMatrix'),
  ];

  const perK = section.earlyRollback.msPer1000RolledBackRuns;
  const [perKFrom, perKTo] = [perK[from], perK[to]];
  const early = byId('rollbackEarly');
  targets.push(
    perKFrom && perKTo
      ? {
          name: `rollbackThread to run ${EARLY_ROLLBACK_ORDINAL} linear only in the runs it rolls back: ms per 1,000 rolled-back runs ${span} within ${FLAT}x`,
          status: perKTo / perKFrom <= FLAT ? 'met' : 'missed',
          figure: `${round(perKTo / perKFrom)}x (${perKFrom} -> ${perKTo} ms per 1,000 runs; ${median(early, to)} ms for ${thousands(to - EARLY_ROLLBACK_ORDINAL)} runs, ${section.earlyRollback.rounds[to]} rounds)`,
        }
      : { name: `rollbackThread to run ${EARLY_ROLLBACK_ORDINAL} linear only in the runs it rolls back`, status: early.errors ? 'missed' : 'not measured', figure: failedFigure(early) },
  );
  targets.push(flat(['rollbackHead'], 'rollbackThread to head-1 (one run, whatever came before it) flat:'));

  const footprintAt = (size: number) => section.footprint.bySize.find((entry) => entry.size === size)!;
  const [small, large] = [footprintAt(from), footprintAt(to)];
  const relationships = round(large.relationshipsPerRun / small.relationshipsPerRun);
  targets.push({
    name: `relationships per run ${span} within ${FOOTPRINT_FLAT}x`,
    status: relationships <= FOOTPRINT_FLAT ? 'met' : 'missed',
    figure: `${relationships}x (${small.relationshipsPerRun} -> ${large.relationshipsPerRun})`,
  });
  if (small.storeBytesPerRun !== null && large.storeBytesPerRun !== null && small.txLogBytesPerRun !== null && large.txLogBytesPerRun !== null) {
    const store = round(large.storeBytesPerRun / small.storeBytesPerRun);
    targets.push({
      name: `store bytes per run ${span} within ${FOOTPRINT_FLAT}x`,
      status: store <= FOOTPRINT_FLAT ? 'met' : 'missed',
      figure: `${store}x (${small.storeBytesPerRun} -> ${large.storeBytesPerRun} bytes; transaction log ${small.txLogBytesPerRun} -> ${large.txLogBytesPerRun} bytes, ${round(large.txLogBytesPerRun / small.txLogBytesPerRun)}x)`,
    });
  } else {
    targets.push({ name: `store bytes per run ${span} within ${FOOTPRINT_FLAT}x`, status: 'not measured', figure: 'the bench did not boot its own Neo4j (NEO4J_URI or a given connection): no store on disk to measure' });
  }
  return targets;
}

function failedFigure(operation: OperationFigures): string {
  return operation.errors ? `failed: ${JSON.stringify(operation.errors)}` : 'no samples at one of the sizes';
}

/** The whole-product part of docs/benchmarks.md. */
export function renderProduct(section: ProductSection, sizes: number[]): string {
  const { referenceSize: from, largestSize: to } = section;
  const ratioHeader = `${thousands(to)} / ${thousands(from)}`;
  const head = `| | ${sizes.map(thousands).join(' | ')} | ${ratioHeader} |\n| --- | ${sizes.map(() => '---:').join(' | ')} | ---: |`;
  const cell = (value: number | null | undefined) => (value === null || value === undefined || Number.isNaN(value) ? '-' : String(value));
  const ratioOf = (a: number | null | undefined, b: number | null | undefined) => (a && b ? `${round(b / a)}x` : '-');
  const threads: Record<SeededThreadRole, string> = {
    read: 'the read thread',
    switch: 'the switch thread',
    delta: 'the delta thread',
    full: 'the full thread',
    'early copies': `one fresh copy per round (${sizes.map((size) => `${section.earlyRollback.rounds[size]} at ${thousands(size)}`).join(', ')})`,
  };
  const tables = section.operations.map((operation) => {
    const stat = (size: number) => operation.bySize[size];
    const rows = [
      `| median ms | ${sizes.map((size) => cell(stat(size)?.n ? stat(size)!.medianMs : null)).join(' | ')} | ${ratioOf(stat(from)?.medianMs, stat(to)?.medianMs)} |`,
      `| p99 ms | ${sizes.map((size) => cell(stat(size)?.n ? stat(size)!.p99Ms : null)).join(' | ')} | ${ratioOf(stat(from)?.p99Ms, stat(to)?.p99Ms)} |`,
      `| n | ${sizes.map((size) => cell(stat(size)?.n)).join(' | ')} | |`,
    ];
    if (operation.id === 'rollbackEarly') {
      const perK = section.earlyRollback.msPer1000RolledBackRuns;
      rows.push(`| ms per 1,000 rolled-back runs | ${sizes.map((size) => cell(perK[size])).join(' | ')} | ${ratioOf(perK[from], perK[to])} |`);
    }
    const errors = operation.errors ? `\n\nErrors: ${JSON.stringify(operation.errors)}` : '';
    return `### ${operation.name}\n\n${operation.about}; on ${threads[operation.thread]}.\n\n${head}\n${rows.join('\n')}${errors}`;
  });
  const footprint = section.footprint.bySize;
  const bytes = (value: number | null) => (value === null ? 'not measured' : String(value));
  const types = [...new Set(footprint.flatMap((entry) => Object.keys(entry.relationshipsPerRunByType)))].sort();
  return `## The whole product

Every operation below is measured at every size in the same interleaved rounds as the planner's
cases, through the service's GraphQL API (the coverage-gaps, lineage-tree and
longest-handoff-chains analytics through \`runAnalyticsQuery\`, which is how \`npm run query\` runs
them). Each size has, besides the read thread the planner's cases use, three seeded threads for the
writes, each written by \`bench/seed.ts\` like the read thread:

- **the switch thread** (a copy of the read thread): the \`${OP.startNoHandoff}\` round (start,
  complete, then \`${OP.rollbackHead}\`) and the \`${OP.startFullNew}\` round, which goes on to the
  resume failure;
- **the delta thread** (another copy): the \`${OP.startDelta}\` round, and the forks;
- **the full thread**: the same history, but the main provider's last two runs asked for a clean
  context, so the other provider's thread has missed runs of three provider threads, more than
  \`maxDeltaSourceThreads\` (2): \`${OP.startFullExisting}\`.

Each round on those threads ends by rolling back to the seeded head and confirming the native
rollbacks, so every round starts from the same state; the sanity pass below checked, before the
timings, that the planner decides the same kind again after a round, and every round checks the
decision it got (a wrong one counts as an error). What stays behind is rolled-back runs above the
head (one or two per round), the same number at every size. Forks are new threads every round.
A rollback to run ${EARLY_ROLLBACK_ORDINAL} cannot be undone: it uses up one freshly seeded copy per
round, so it runs fewer rounds at the larger sizes (${sizes.map((size) => `${section.earlyRollback.rounds[size]} at ${thousands(size)}`).join(', ')}).
Seeding these threads took ${section.seedSeconds} s.

The viewer's first paint replays the viewer's \`loadThread\` with its own typed documents and window
size (\`src/viewer/queries.ts\`) and the ordinals it reads links for (\`src/viewer/layout.ts\`): \`THREAD_QUERY\` selecting
\`${section.viewer.runsSelection}\` (\`Thread.runs\` ${section.viewer.schemaHasRunsWindow ? 'takes' : 'does not take'} \`last\` in \`schema/threads.graphql\`), then
\`LINKS_QUERY\` for the handoffs and transfers of the window's ordinals.

### Footprint

Relationships are those the read thread's own nodes start, counted in the bench's store.
${
  section.footprint.storeMeasured
    ? `Store and transaction-log bytes come from one fresh local Neo4j store per size holding only that
thread (the same seed): the files of \`data/databases/neo4j\` after a clean shutdown, less those of a
store without threads, and the bytes the seeding appended to \`data/transactions/neo4j\` (Neo4j
preallocates its log files, so a file counts up to its last non-zero byte; each file is sampled after
every seeding batch, before a checkpoint could prune it).`
    : 'Store and transaction-log bytes were not measured: the bench used a Neo4j it did not boot (NEO4J_URI or a given connection), so there was no store on disk to measure.'
}

| runs | relationships | per run | store bytes | per run | transaction-log bytes | per run |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${footprint.map((entry) => `| ${thousands(entry.size)} | ${entry.relationships} | ${entry.relationshipsPerRun} | ${bytes(entry.storeBytes)} | ${bytes(entry.storeBytesPerRun)} | ${bytes(entry.txLogBytes)} | ${bytes(entry.txLogBytesPerRun)} |`).join('\n')}

Relationships per run by type:

| type | ${footprint.map((entry) => thousands(entry.size)).join(' | ')} |
| --- | ${footprint.map(() => '---:').join(' | ')} |
${types.map((type) => `| ${type} | ${footprint.map((entry) => cell(entry.relationshipsPerRunByType[type] ?? 0)).join(' | ')} |`).join('\n')}

### Sanity

${Object.entries(section.sanity)
  .map(([name, outcome]) => `- ${name}: ${outcome}`)
  .join('\n')}

${tables.join('\n\n')}
`;
}
