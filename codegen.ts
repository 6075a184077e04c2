import { readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
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

// Every statement's name, from the files under cypher/ (`threads/lock` for cypher/threads/lock.cypher):
// tx.rows, tx.one and cypher() take only these, so a renamed or missing statement fails to compile.
// A fragment (*.fragment.cypher) is part of statements, not one (src/graph/queries.ts).
function queryNameType(): string {
  const names = readdirSync('cypher', { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.cypher') && !path.endsWith('.fragment.cypher'))
    .map((path) =>
      path
        .split(sep)
        .join('/')
        .replace(/\.cypher$/, ''),
    )
    .sort();
  return ['export type QueryName =', ...names.map((name) => `  | '${name}'`)].join('\n') + ';\n';
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
          RunPreview: '../../operations/switching.js#RunPreviewRecord',
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
    'src/graph/generated/queryNames.ts': { plugins: [{ add: { content: queryNameType() } }] },
    // The lineage viewer's answers and variables, from its documents (validated against the schema).
    'src/viewer/generated/graphql.ts': {
      documents: 'src/viewer/queries.ts',
      plugins: ['typescript', 'typescript-operations'],
      config: {
        onlyOperationTypes: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string' },
        skipTypename: true,
        avoidOptionals: { field: true },
        maybeValue: 'T | null',
      },
    },
    // The typed client's operations, on the wire's own terms (UPPER_SNAKE enums), with no import
    // from src/: documents as typed strings, so a product UI needs no GraphQL library to send them.
    'client/generated/operations.ts': {
      documents: 'client/operations/*.graphql',
      plugins: ['typescript', 'typescript-operations', 'typed-document-node'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        onlyOperationTypes: true,
        documentMode: 'string',
        skipTypename: true,
        scalars: { DateTime: 'string' },
        maybeValue: 'T | null',
        inputMaybeValue: 'T | null | undefined',
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
      },
    },
  },
};

export default config;
