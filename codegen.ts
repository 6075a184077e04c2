import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse } from 'graphql';
import type { CodegenConfig } from '@graphql-codegen/cli';

// Neo4j stores every enum value as the seed's lowercase string; the GraphQL layer maps
// UPPER_SNAKE to that form (see src/api/enums.ts), so resolver types speak the stored form too.
function lowercaseEnumValues(): Record<string, Record<string, string>> {
  const mapping: Record<string, Record<string, string>> = {};
  for (const file of readdirSync('schema').filter((name) => name.endsWith('.graphql'))) {
    for (const definition of parse(readFileSync(join('schema', file), 'utf8')).definitions) {
      if (definition.kind !== Kind.ENUM_TYPE_DEFINITION && definition.kind !== Kind.ENUM_TYPE_EXTENSION) continue;
      const values = (mapping[definition.name.value] ??= {});
      for (const value of definition.values ?? []) values[value.name.value] = value.name.value.toLowerCase();
    }
  }
  return mapping;
}

const config: CodegenConfig = {
  schema: 'schema/*.graphql',
  generates: {
    'src/api/generated/graphql.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        enumValues: lowercaseEnumValues(),
        contextType: '../context.js#RequestContext',
        mapperTypeSuffix: 'Model',
        mappers: {
          Thread: '../../domain/records.js#ThreadRecord',
          Run: '../../domain/records.js#RunView',
          ProviderThread: '../../domain/records.js#ProviderThreadRecord',
          ProviderThreadCoverage: '../../domain/records.js#CoverageRecord',
          ContextHandoff: '../../domain/records.js#HandoffRecord',
          ContextTransfer: '../../domain/records.js#TransferRecord',
          Checkpoint: '../../domain/records.js#CheckpointRecord',
          RunPlan: '../../domain/records.js#RunPlanRecord',
          Dispatch: '../../domain/records.js#DispatchRecord',
          StartRunPayload: '../../domain/records.js#StartRunResult',
          Provider: '../../domain/providers.js#ProviderDefinition',
          RollbackPayload: '../../domain/records.js#RollbackResult',
          ProviderThreadRollback: '../../domain/records.js#ProviderThreadRollbackRecord',
          CoverageMatrix: '../../operations/analytics.js#CoverageMatrixRecord',
          CoverageRow: '../../operations/analytics.js#CoverageRowRecord',
          Analytics: '../../operations/analytics.js#AnalyticsWindow',
          ThreadChange: '../../operations/changeFeed.js#ThreadChangeEvent',
        },
        scalars: { DateTime: 'string' },
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        maybeValue: 'T | null',
        inputMaybeValue: 'T | null | undefined',
      },
    },
  },
};

export default config;
