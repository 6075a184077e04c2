// What `npm run fuzz` runs once its arguments are parsed (tools/fuzz.ts, which says what it does):
// loaded only then, so that its usage prints without loading the service, the model and fast-check.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { createThreadlineClient } from '../../client/index.js';
import { loadConfig, SINGLE_TENANT } from '../../src/config.js';
import { createDriver } from '../../src/graph/driver.js';
import { chooseNeo4j } from '../../src/graph/chooseNeo4j.js';
import { startService } from '../../src/server/app.js';
import { createLogger } from '../../src/server/logger.js';
import type { Operation } from '../../test/model/operations.js';
import { serviceEnvironment, startSummarizers } from '../../test/model/providers.js';
import { ADVERSARIAL_UNITS, TEXT_HANDLERS, superLinear } from '../../test/support/adversarialText.js';
import type { GraphQLClient } from '../../test/model/runner.js';
import { graphChecks, replay, runSequence, sequenceArbitrary, type GraphChecks } from '../../test/model/sequences.js';

export interface FuzzOptions {
  seconds: number;
  maxSteps: number;
  seed: number | null;
  replay: string | null;
  instances: number;
  pendingTimeout: number;
}

/** Sequences per fast-check run: the clock is looked at between runs, never during a shrink. */
const BATCH = 5;

/** Mixes of the adversarial units per text handler, each mix repeated to the sizes compared. */
const TEXT_MIXES = 20;

function fuzzTextHandlers(seed: number): number {
  const mix = fc
    .array(fc.constantFrom(...ADVERSARIAL_UNITS), { minLength: 1, maxLength: 4 })
    .map((units) => units.join(''));
  for (const [name, handle] of Object.entries(TEXT_HANDLERS)) {
    for (const units of fc.sample(mix, { numRuns: TEXT_MIXES, seed })) {
      const slow = superLinear(handle, (length) => units.repeat(Math.ceil(length / units.length)).slice(0, length));
      if (slow.length > 0) {
        console.error(`${name} takes super-linear time on ${JSON.stringify(units)} repeated: ${slow.join('; ')}`);
        return 1;
      }
    }
  }
  console.log(`session text handlers linear on ${TEXT_MIXES} adversarial mixes each (seed ${seed})`);
  return 0;
}

export async function runFuzz(options: FuzzOptions): Promise<number> {
  if (!options.replay && fuzzTextHandlers(options.seed ?? Math.floor(Math.random() * 2 ** 31)) !== 0) return 1;
  const neo4j = await chooseNeo4j(loadConfig(process.env).neo4j, {
    start: 'throwaway',
    storePrefix: 'threadline-fuzz-',
    heap: '1g',
    pageCache: '256m',
    progress: console.log,
  });
  const { connection } = neo4j;
  const summarizers = await startSummarizers();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...serviceEnvironment(summarizers, options.pendingTimeout),
  });
  const instances = await Promise.all(
    Array.from({ length: options.instances }, async () => {
      const driver = createDriver(connection);
      return {
        driver,
        service: await startService(
          { ...config, neo4j: { ...config.neo4j, database: connection.database } },
          driver,
          createLogger('silent'),
        ),
      };
    }),
  );
  const driver = instances[0]!.driver;
  // The model's documents are its own, and it compares refusals: execute answers errors as they came.
  const clients = instances.map(({ service }) => createThreadlineClient({ url: service.url }));
  let requests = 0;
  const client: GraphQLClient = (query, variables) => clients[requests++ % clients.length]!.execute(query, variables);
  if (instances.length > 1)
    console.log(`${instances.length} service instances on one Neo4j, taking the requests in turn`);
  try {
    if (options.replay) {
      const script = JSON.parse(readFileSync(options.replay, 'utf8')) as Operation[];
      await replay(client, script, (line) => console.log(line));
      console.log(`replayed ${script.length} operations: the model and the service agree`);
      return 0;
    }
    return await fuzz(client, graphChecks(driver, connection.database, SINGLE_TENANT), options);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    for (const instance of instances) {
      await instance.service.close();
      await instance.driver.close();
    }
    await neo4j.close();
    await summarizers.close();
  }
}

async function fuzz(client: GraphQLClient, graph: GraphChecks, options: FuzzOptions): Promise<number> {
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  let sequences = 0;
  let operations = 0;
  let expiries = 0;
  const progress = () => {
    const elapsed = (Date.now() - started) / 1000;
    return `${sequences} sequences, ${operations} operations (${expiries} pending handoffs expired) in ${elapsed.toFixed(1)} s (${(operations / elapsed).toFixed(1)} operations/s)`;
  };
  let seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  console.log(`fuzzing for ${options.seconds} s, sequences of up to ${options.maxSteps} steps, first seed ${seed}`);
  const property = fc.asyncProperty(sequenceArbitrary(options.maxSteps), async (steps) => {
    const result = await runSequence(client, steps, graph, true);
    operations += result.operations;
    expiries += result.expiries;
    sequences++;
  });
  while (Date.now() < deadline) {
    try {
      // fc.assert reports the seed and shrink path, with the minimal failing sequence's script.
      await fc.assert(property, { numRuns: BATCH, seed, includeErrorInReport: true });
    } catch (error) {
      console.log(`\nafter ${progress()} (shrinking included):`);
      throw error;
    }
    seed++;
    process.stdout.write(`\r${progress()}`);
  }
  console.log(`\nno disagreement: ${progress()}`);
  return 0;
}
