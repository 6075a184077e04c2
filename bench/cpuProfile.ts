// Where a service process spent its CPU: the self time of a V8 `.cpuprofile` (node --cpu-prof),
// counted only within given windows of the monotonic clock (the bench's load phases, not the start),
// by function and by the part of the code it belongs to.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A window of process.hrtime.bigint(), in nanoseconds; V8 stamps its samples on the same clock in microseconds. */
export interface ClockWindow {
  fromNs: bigint;
  toNs: bigint;
}

export interface SelfTime {
  name: string;
  /** Share of the samples in the windows, in percent. */
  percent: number;
}

export interface ProfileSummary {
  samples: number;
  /** Of those samples, the share the process was busy (not idle), in percent. */
  busyPercent: number;
  byArea: SelfTime[];
  topFunctions: SelfTime[];
}

/** The parts a frame is counted under, first match wins: the service's layers, then the libraries. */
const AREAS: [string, RegExp][] = [
  ['idle (waiting for I/O)', /^\(idle\)$/],
  ['garbage collection', /^\(garbage collector\)$/],
  ['V8 and native (program)', /^\(program\)$/],
  ['service: src/server', /\/src\/server\//],
  ['service: src/api (resolvers)', /\/src\/api\//],
  ['service: src/operations', /\/src\/operations\//],
  ['service: src/graph', /\/src\/graph\//],
  ['service: src/domain', /\/src\/domain\//],
  ['graphql-js (parse, validate, execute)', /node_modules\/graphql\//],
  ['Apollo Server and its plugins', /node_modules\/@apollo\//],
  ['graphql-armor (limits)', /node_modules\/@escape\.tech\//],
  ['neo4j-driver (Bolt, packstream)', /node_modules\/neo4j-driver/],
  ['express and body parsing', /node_modules\/(express|body-parser|raw-body|router|iconv-lite|qs|type-is)/],
  ['OpenTelemetry', /node_modules\/@opentelemetry\//],
  ['pino (logging)', /node_modules\/pino/],
  ['other libraries', /node_modules\//],
  ['Node core in JavaScript (http, net, streams)', /^node:/],
];

/** Frames without a script: V8's own (in parentheses) by name, the rest are Node's native bindings. */
const NATIVE = 'Node native (socket writes, microtasks, JSON)';

const areaOf = (node: ProfileNode): string => {
  const { url, functionName } = node.callFrame;
  const key = url || (functionName.startsWith('(') ? functionName : '');
  if (key === '') return NATIVE;
  return AREAS.find(([, pattern]) => pattern.test(key))?.[0] ?? 'other';
};

const functionOf = (node: ProfileNode): string => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(src|client|bench)\//, '$1/');
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
};

export function summarizeProfile(file: string, windows: ClockWindow[], top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inWindow = (us: number) => {
    const ns = BigInt(Math.round(us)) * 1000n;
    return windows.some((w) => ns >= w.fromNs && ns <= w.toNs);
  };
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let counted = 0;
  let idle = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (!inWindow(at)) continue;
    const node = byId.get(profile.samples[i]!)!;
    counted++;
    const area = areaOf(node);
    if (area.startsWith('idle')) idle++;
    areas.set(area, (areas.get(area) ?? 0) + 1);
    const name = functionOf(node);
    functions.set(name, (functions.get(name) ?? 0) + 1);
  }
  const shares = (counts: Map<string, number>, limit: number): SelfTime[] =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, count]) => ({ name, percent: Math.round((count / Math.max(1, counted)) * 1000) / 10 }));
  return {
    samples: counted,
    busyPercent: Math.round(((counted - idle) / Math.max(1, counted)) * 1000) / 10,
    byArea: shares(areas, AREAS.length + 2),
    topFunctions: shares(functions, top),
  };
}
