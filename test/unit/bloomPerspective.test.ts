// The Bloom perspective file (docs/bloom-perspective.json): current with cypher/bloom/, of the shape Bloom
// exports, and with a colour for every status the API can show. Its Cypher is run on a real Neo4j in
// test/integration/bloom-export.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadTypeDefs } from '../../src/api/schema.js';
import {
  bloomPerspective,
  bloomQueries,
  PERSPECTIVE_FILE,
  perspectiveFileText,
  phraseParameters,
} from '../../src/export/bloomPerspective.js';
import { projectRoot } from '../../src/graph/projectRoot.js';

const committed = readFileSync(join(projectRoot(), PERSPECTIVE_FILE), 'utf8');

// The shape of a perspective as Bloom 2.x exports it, written from exported files, not from our builder:
// every style rule of a 2.3-2.11 export carries the range keys (min/maxSizeValue, min/maxColorValue)
// beside its colour and size; rules and search phrases are named by the moment they were made
// (`rule:<epoch ms>`, `tmpl:<epoch ms>`) and scene actions by a UUID; a Neo4j integer property is
// typed `bigint`, a float `number`; a scene action names the categories it is offered on.
const hexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/);
const epochMillis = /\d{13}$/;
const propertyShape = z.strictObject({
  name: z.string().min(1),
  exclude: z.boolean(),
  dataType: z.enum(['string', 'bigint', 'number', 'boolean', 'array']),
});
const styleRuleShape = z.strictObject({
  id: z.string().regex(new RegExp(`^rule:${epochMillis.source}`)),
  type: z.enum(['single', 'range', 'unique']),
  basedOn: z.string().regex(/^[A-Za-z]+_(string|bigint|number|boolean)$/),
  condition: z.string(),
  conditionValue: z.string().min(1),
  applyColor: z.boolean(),
  applySize: z.boolean(),
  applyCaption: z.boolean(),
  color: hexColor,
  size: z.number(),
  minSize: z.number(),
  maxSize: z.number(),
  minSizeValue: z.number().nullable(),
  maxSizeValue: z.number().nullable(),
  minColor: hexColor,
  midColor: hexColor,
  maxColor: hexColor,
  minColorValue: z.number().nullable(),
  maxColorValue: z.number().nullable(),
  minPoint: z.string(),
  maxPoint: z.string(),
  captionKeys: z.array(z.string()),
  isTimeZoneConvertEnabled: z.boolean(),
  selectedTimeZone: z.string(),
  valuesMapper: z.array(z.unknown()),
  existingValues: z.array(z.unknown()),
  rangeValue: z.unknown(),
});
const categoryShape = z.looseObject({
  id: z.number().int().positive(),
  name: z.string().min(1),
  labels: z.array(z.string()).length(1),
  properties: z.array(propertyShape).min(1),
  createdAt: z.number().int(),
  lastEditedAt: z.number().int(),
  color: hexColor,
  size: z.number().positive(),
  icon: z.string(),
  captionKeys: z.array(z.string()).min(1),
  styleRules: z.array(styleRuleShape),
});
const templateShape = z.strictObject({
  name: z.string().min(1),
  id: z.string().regex(new RegExp(`^tmpl:${epochMillis.source}`)),
  createdAt: z.number().int(),
  text: z.string().min(1),
  cypher: z.string().min(1),
  isUpdateQuery: z.null(),
  params: z.array(
    z.strictObject({
      name: z.string().regex(/^\$\w+$/),
      dataType: z.literal('String'),
      collapsed: z.boolean(),
      suggestionLabel: z.string().nullable(),
      suggestionProp: z.string().nullable(),
      suggestionBoolean: z.boolean(),
      cypher: z.null(),
    }),
  ),
  hasCypherErrors: z.literal(false),
});
const sceneActionShape = z.strictObject({
  name: z.string().min(1),
  id: z.uuid(),
  createdAt: z.number().int(),
  cypher: z.string().min(1),
  isUpdateQuery: z.null(),
  categories: z.array(z.number().int().positive()).min(1).nullable(),
  relationshipTypes: z.array(z.string()).nullable(),
  hasCypherErrors: z.literal(false),
});
const perspectiveShape = z.looseObject({
  name: z.string().min(1),
  id: z.uuid(),
  categories: z.array(categoryShape).min(1),
  labels: z.record(
    z.string(),
    z.array(z.strictObject({ propertyKey: z.string(), type: z.string(), dataType: z.string() })),
  ),
  relationshipTypes: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      properties: z.array(z.unknown()),
      color: hexColor,
      size: z.number().positive(),
      captionKeys: z.array(z.string()),
    }),
  ),
  palette: z.strictObject({ colors: z.array(hexColor).min(1), currentIndex: z.number().int().nonnegative() }),
  createdAt: z.number().int(),
  lastEditedAt: z.number().int(),
  templates: z.array(templateShape),
  hiddenRelationshipTypes: z.array(z.string()),
  hiddenCategories: z.array(z.number()),
  hideUncategorisedData: z.boolean(),
  isAuto: z.boolean(),
  parentPerspectiveId: z.null(),
  metadata: z.strictObject({
    pathSegments: z.array(z.strictObject({ source: z.string(), relationshipType: z.string(), target: z.string() })),
    indexes: z.array(
      z.strictObject({
        label: z.string(),
        type: z.literal('native'),
        propertyKeys: z.array(z.strictObject({ key: z.string(), metadataProp: z.boolean() })).min(1),
      }),
    ),
    stats: z.strictObject({
      labels: z.record(z.string(), z.number()),
      relationshipTypes: z.record(z.string(), z.number()),
    }),
  }),
  sceneActions: z.array(sceneActionShape),
  version: z.string().regex(/^2\.\d+\.\d+$/),
});

const perspective = perspectiveShape.parse(JSON.parse(committed));

/** The `$parameters` a Cypher text uses outside its `//` comments. */
function cypherParameters(text: string): string[] {
  const code = text.replace(/\/\/.*$/gm, '');
  return [...new Set([...code.matchAll(/\$([A-Za-z_]\w*)/g)].map((match) => match[1]!))].sort();
}

/** The lowercase values of a GraphQL enum of schema/, as the graph stores them. */
function storedEnumValues(name: string): string[] {
  for (const sdl of loadTypeDefs()) {
    for (const definition of parse(sdl).definitions) {
      if (definition.kind === Kind.ENUM_TYPE_DEFINITION && definition.name.value === name)
        return (definition.values ?? []).map((value) => value.name.value.toLowerCase()).sort();
    }
  }
  throw new Error(`no enum ${name} in schema/`);
}

const categoryNamed = (label: string) => perspective.categories.find((category) => category.labels[0] === label);
const ruleValues = (label: string, property: string) =>
  (categoryNamed(label)?.styleRules ?? [])
    .filter((rule) => rule.basedOn === `${property}_string`)
    .map((rule) => rule.conditionValue)
    .sort();

describe('the Bloom perspective file', () => {
  it('is what cypher/bloom/ builds (npm run bloom:perspective rewrites it)', () => {
    expect(committed).toBe(perspectiveFileText(bloomPerspective(bloomQueries())));
  });

  it('holds every search phrase and scene action of cypher/bloom/, with the file as its Cypher', () => {
    const queries = bloomQueries();
    const phrases = queries.filter((query) => !query.name.startsWith('bloom/scene-'));
    const scenes = queries.filter((query) => query.name.startsWith('bloom/scene-'));
    expect(perspective.templates.map((template) => template.cypher)).toEqual(phrases.map((query) => query.cypher));
    expect(perspective.sceneActions.map((action) => action.cypher)).toEqual(scenes.map((query) => query.cypher));
    expect(perspective.templates.map((template) => template.text)).toEqual([
      'Fork tree of thread $threadId in tenant $tenant',
      'Handoffs covering run $runId in tenant $tenant',
      'Coverage of provider thread $providerThreadId in tenant $tenant',
      'Stale provider threads in tenant $tenant',
      'Lineage of thread $threadId in tenant $tenant',
    ]);
    expect(perspective.sceneActions.map((action) => action.name)).toEqual([
      'Fork tree',
      'Handoffs covering',
      'Coverage',
      'Lineage',
    ]);
  });

  it("declares exactly the parameters each phrase's Cypher uses, each with a suggestion of an existing category", () => {
    for (const template of perspective.templates) {
      const declared = template.params.map((param) => param.name.slice(1)).sort();
      expect(declared, template.text).toEqual([...phraseParameters(template.text)].sort());
      expect(declared, template.text).toEqual(cypherParameters(template.cypher));
      for (const param of template.params) {
        const category = categoryNamed(param.suggestionLabel ?? '');
        expect(category, `${template.text}: ${param.name}`).toBeDefined();
        expect(category!.properties.map((property) => property.name)).toContain(param.suggestionProp);
      }
    }
    for (const action of perspective.sceneActions)
      expect(cypherParameters(action.cypher), action.name).toEqual(['nodes']);
  });

  it("keeps the service's bookkeeping out of scenes, and offers every type and action as docs/bloom.md says", () => {
    expect(perspective.hideUncategorisedData).toBe(true);
    const labels = perspective.categories.flatMap((category) => category.labels);
    expect(labels).not.toContain('SchemaMigration');
    expect(labels).not.toContain('ThreadChange');
    expect(perspective.hiddenRelationshipTypes).toEqual([]);
    expect(perspective.hiddenCategories).toEqual([]);
    // Each scene action on the category its file's header names, and only there.
    const offeredOn = Object.fromEntries(
      perspective.sceneActions.map((action) => [
        action.name,
        action.categories!.map((id) => perspective.categories.find((category) => category.id === id)!.name),
      ]),
    );
    expect(offeredOn).toEqual({
      'Fork tree': ['Thread'],
      'Handoffs covering': ['Run'],
      Coverage: ['ProviderThread'],
      Lineage: ['Thread'],
    });
    for (const action of perspective.sceneActions) expect(action.relationshipTypes, action.name).toBeNull();
  });

  it('colours every status the API can show, and only those', () => {
    expect(ruleValues('Run', 'status')).toEqual(storedEnumValues('RunStatus'));
    expect(ruleValues('ProviderThread', 'status')).toEqual(storedEnumValues('ProviderThreadStatus'));
    expect(ruleValues('ContextHandoff', 'status')).toEqual(storedEnumValues('HandoffStatus'));
    expect(ruleValues('ContextTransfer', 'status')).toEqual(storedEnumValues('TransferStatus'));
    expect(ruleValues('Thread', 'relationshipToParent')).toEqual(storedEnumValues('ThreadRelationship'));
  });

  it('captions every category with its caption property, and joins categories only by declared types', () => {
    const labels = perspective.categories.map((category) => category.labels[0]!);
    expect(labels.sort()).toEqual(Object.keys(perspective.labels).sort());
    expect(new Set(perspective.categories.map((category) => category.id)).size).toBe(labels.length);
    for (const category of perspective.categories) {
      expect(category.captionKeys, category.name).toEqual(['caption']);
      expect(category.properties[0]!.name, category.name).toBe('caption');
      // The root `labels` map lists the same properties with the same types.
      expect(
        perspective.labels[category.labels[0]!]!.map(({ propertyKey, dataType }) => [propertyKey, dataType]),
      ).toEqual(category.properties.map(({ name, dataType }) => [name, dataType]));
    }
    const types = perspective.relationshipTypes.map((type) => type.name);
    for (const segment of perspective.metadata.pathSegments) {
      expect(labels).toContain(segment.source);
      expect(labels).toContain(segment.target);
      expect(types).toContain(segment.relationshipType);
    }
    expect([...new Set(perspective.metadata.pathSegments.map((segment) => segment.relationshipType))].sort()).toEqual(
      [...types].sort(),
    );
    const ids = [
      ...perspective.templates.map((template) => template.id),
      ...perspective.sceneActions.map((action) => action.id),
      ...perspective.categories.flatMap((category) => category.styleRules.map((rule) => rule.id)),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    // Integers as Bloom types them: every ordinal and count.
    const typed = Object.fromEntries(
      perspective.categories.flatMap((category) =>
        category.properties.map((property) => [`${category.name}.${property.name}`, property.dataType]),
      ),
    );
    for (const key of [
      'Thread.headOrdinal',
      'Thread.forkOrdinal',
      'Run.ordinal',
      'ContextHandoff.coveredFrom',
      'Checkpoint.fileCount',
    ])
      expect(typed[key], key).toBe('bigint');
  });
});
