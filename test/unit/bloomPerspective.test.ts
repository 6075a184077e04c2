// The Bloom perspective file (docs/bloom-perspective.json): current with cypher/bloom/, of the shape Bloom
// 2.7 exports (described below from real exports), and with a colour for every status the API can show. Its Cypher is run on a real Neo4j in
// test/own-neo4j/bloom-export.test.ts.
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

// ---------------------------------------------------------------------------------------------------
// What a perspective exported by Bloom 2.x holds: a description written from reading public exports of
// Bloom 2.0, 2.2, 2.3, 2.4, 2.7 and 2.21 (none of them copied here), not from our builder. Each object
// is described by its keys in the order Bloom writes them (the order of the shapes below) and the
// values each key holds. The file must have exactly these keys, in this order, at every level; keys
// marked optional are ones Bloom leaves out until the user touches the feature.
//
// The perspective, top level (2.3 to 2.7 alike; a 2.3 export adds an edit `history` and a `sha`).
//   `id` is a version 1 (time-based) UUID whose time is the perspective's `createdAt`, to the
//   millisecond, with a random node (the multicast bit of its first byte set). `version` is the Bloom
//   release that wrote the file. `sceneActions` comes right after `templates`.
// Categories: `id` a small integer, 1, 2, ... in 2.x (1.x had a catch-all category 0 "Other", gone
//   since). One label each here. `properties` lists {name, exclude, dataType}; dataType is how Bloom
//   types the values it found: `string`; `bigint` for a Neo4j integer (zones, ids, counts, volumes);
//   `number` for a float; `boolean`; `array`; temporal and spatial types by their Neo4j name
//   (`DateTime`, `LocalDateTime`, `Point`). `captionKeys` are property names, or Bloom's own
//   `0_CATEGORY_NAME_CAPTION_KEY`-style keys. `icon` is `no-icon` or an uppercase UUID of Bloom's icon
//   set. `styleRules` appears once a rule was made.
// Style rules (2.7): the keys of `ruleShape`, in that order. A single rule's colour sits in `color`;
//   `condition` is added with the operator once one is chosen; `conditionValue` holds the compared
//   value. `id` is `rule:` and the epoch milliseconds of its making (rules have no createdAt). No 2.x
//   export up to 2.7 carries range values on a rule: the min/max size and colour VALUE keys
//   (minSizeValue, maxSizeValue, minColorValue, maxColorValue, midColorValue) first appear in 2.21
//   exports, together with textAlign, textSize and captions, and hold strings there ("" unset,
//   decimal text such as "0.5" set), never null and never numbers. A 2.7 file therefore has none.
// Relationship types: {id (the type itself), name (the same), properties, color, size, captionKeys
//   (`0_REL_TYPE_CAPTION_KEY` to caption with the type)}.
// Search phrases (`templates`): `id` is `tmpl:` and exactly the phrase's `createdAt`. Each parameter
//   is {name `$x`, dataType (`String`, `Integer`, `Date`, ...), collapsed, suggestionLabel,
//   suggestionProp (a label and property to suggest values from, or both null), suggestionBoolean,
//   cypher (a query for suggestions, or null)}. `hasCypherErrors` is left out by a phrase Bloom made
//   itself and never edited.
// Scene actions: `id` is a version 1 UUID of the action's `createdAt` as for the perspective;
//   `categories` is null (offered on every node) or the ids of the categories it is offered on;
//   `relationshipTypes` likewise null or type names.
// `palette`: Bloom's 14 default colours and `currentIndex`, the number of categories made so far.
// `metadata`: `pathSegments` {source, relationshipType, target} by label; `indexes` for search, each
//   {label, type `native`, propertyKeys [{key, metadataProp}]} (2.3 wrote plain key strings instead);
//   `stats` with counts by label and by type, empty until Bloom has counted.

const hexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/);
const epochMillis = z.number().int().min(1_500_000_000_000);
const shapeOf = <T extends z.ZodRawShape>(shape: T) => ({ schema: z.strictObject(shape), keys: Object.keys(shape) });

const propertyShape = shapeOf({
  name: z.string().min(1),
  exclude: z.boolean(),
  dataType: z.enum(['string', 'bigint', 'number', 'boolean', 'array', 'DateTime', 'LocalDateTime', 'Point']),
});
const ruleShape = shapeOf({
  id: z.string().regex(/^rule:\d{13}$/),
  type: z.enum(['single', 'range', 'unique']),
  size: z.number(),
  minSize: z.number(),
  maxSize: z.number(),
  minColor: hexColor,
  midColor: hexColor,
  maxColor: hexColor,
  minPoint: z.string(),
  maxPoint: z.string(),
  applyColor: z.boolean(),
  applySize: z.boolean(),
  applyCaption: z.boolean(),
  captionKeys: z.array(z.string()),
  color: hexColor,
  isTimeZoneConvertEnabled: z.boolean(),
  selectedTimeZone: z.string(),
  basedOn: z.string().regex(/^[A-Za-z]+_(string|bigint|number|boolean)$/),
  valuesMapper: z.array(z.unknown()),
  existingValues: z.array(z.unknown()),
  conditionValue: z.string().nullable(),
  rangeValue: z.null(),
  condition: z.string().optional(),
});
const categoryShape = shapeOf({
  id: z.number().int().positive(),
  name: z.string().min(1),
  labels: z.array(z.string()).length(1),
  properties: z.array(propertyShape.schema).min(1),
  createdAt: epochMillis,
  lastEditedAt: epochMillis,
  color: hexColor,
  size: z.number().positive(),
  icon: z.union([z.literal('no-icon'), z.uuid().regex(/^[^a-z]+$/)]),
  captionKeys: z.array(z.string()).min(1),
  styleRules: z.array(ruleShape.schema).optional(),
});
const labelPropertyShape = shapeOf({ propertyKey: z.string(), type: z.string(), dataType: z.string() });
const relationshipTypeShape = shapeOf({
  id: z.string(),
  name: z.string(),
  properties: z.array(labelPropertyShape.schema),
  color: hexColor,
  size: z.number().positive(),
  captionKeys: z.array(z.string()),
});
const paramShape = shapeOf({
  name: z.string().regex(/^\$\w+$/),
  dataType: z.enum(['String', 'Integer', 'Float', 'Boolean', 'Date', 'DateTime']),
  collapsed: z.boolean(),
  suggestionLabel: z.string().nullable(),
  suggestionProp: z.string().nullable(),
  suggestionBoolean: z.boolean(),
  cypher: z.string().nullable(),
});
const templateShape = shapeOf({
  name: z.string().min(1),
  id: z.string().regex(/^tmpl:\d{13}$/),
  createdAt: epochMillis,
  text: z.string().min(1),
  cypher: z.string().min(1),
  isUpdateQuery: z.boolean().nullable(),
  params: z.array(paramShape.schema),
  hasCypherErrors: z.boolean().optional(),
});
const sceneActionShape = shapeOf({
  name: z.string().min(1),
  id: z.uuid({ version: 'v1' }),
  createdAt: epochMillis,
  cypher: z.string().min(1),
  isUpdateQuery: z.boolean().nullable(),
  categories: z.array(z.number().int().positive()).min(1).nullable(),
  relationshipTypes: z.array(z.string()).nullable(),
  hasCypherErrors: z.boolean(),
});
const metadataShape = shapeOf({
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
});
const perspectiveShape = shapeOf({
  name: z.string().min(1),
  id: z.uuid({ version: 'v1' }),
  categories: z.array(categoryShape.schema).min(1),
  labels: z.record(z.string(), z.array(labelPropertyShape.schema)),
  relationshipTypes: z.array(relationshipTypeShape.schema),
  palette: z.strictObject({ colors: z.array(hexColor).length(14), currentIndex: z.number().int().nonnegative() }),
  createdAt: epochMillis,
  lastEditedAt: epochMillis,
  templates: z.array(templateShape.schema),
  sceneActions: z.array(sceneActionShape.schema),
  hiddenRelationshipTypes: z.array(z.string()),
  hiddenCategories: z.array(z.number()),
  hideUncategorisedData: z.boolean(),
  isAuto: z.boolean(),
  parentPerspectiveId: z.string().nullable(),
  metadata: metadataShape.schema,
  version: z.string().regex(/^2\.\d+\.\d+$/),
});

/** The keys of `value` in order, against a shape's keys less the optional ones it leaves out. */
function expectKeysInOrder(value: object, shape: { keys: string[] }, where: string) {
  const present = Object.keys(value);
  expect(present, where).toEqual(shape.keys.filter((key) => present.includes(key)));
}

/** The epoch milliseconds a version 1 UUID holds. */
function uuidMillis(uuid: string): number {
  const hex = uuid.replace(/-/g, '');
  const time =
    (BigInt(`0x${hex.slice(13, 16)}`) << 48n) |
    (BigInt(`0x${hex.slice(8, 12)}`) << 32n) |
    BigInt(`0x${hex.slice(0, 8)}`);
  return Number((time - 0x01b21dd213814000n) / 10_000n);
}
/** A random node, as Bloom's UUIDs have: the multicast bit of the node's first byte is set. */
const randomNode = (uuid: string) => (parseInt(uuid.slice(24, 26), 16) & 1) === 1;

const perspective = perspectiveShape.schema.parse(JSON.parse(committed));

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

  it('has the keys of a Bloom 2.7 export, in its order, at every level, and ids in the forms Bloom writes', () => {
    expect(perspective.version).toBe('2.7.0');
    expectKeysInOrder(perspective, perspectiveShape, 'perspective');
    expectKeysInOrder(perspective.metadata, metadataShape, 'metadata');
    for (const category of perspective.categories) {
      expectKeysInOrder(category, categoryShape, category.name);
      for (const property of category.properties) expectKeysInOrder(property, propertyShape, category.name);
      for (const rule of category.styleRules ?? []) {
        expectKeysInOrder(rule, ruleShape, rule.id);
        // A Bloom 2.7 rule carries no range values (those come with 2.21, as strings).
        for (const key of ['minSizeValue', 'maxSizeValue', 'minColorValue', 'midColorValue', 'maxColorValue'])
          expect(rule, rule.id).not.toHaveProperty(key);
      }
    }
    for (const properties of Object.values(perspective.labels))
      for (const property of properties) expectKeysInOrder(property, labelPropertyShape, property.type);
    for (const type of perspective.relationshipTypes) {
      expectKeysInOrder(type, relationshipTypeShape, type.name);
      expect(type.id).toBe(type.name);
    }
    for (const template of perspective.templates) {
      expectKeysInOrder(template, templateShape, template.text);
      expect(template.id).toBe(`tmpl:${template.createdAt}`);
      for (const param of template.params) expectKeysInOrder(param, paramShape, template.text);
    }
    for (const action of perspective.sceneActions) {
      expectKeysInOrder(action, sceneActionShape, action.name);
      expect(uuidMillis(action.id), action.name).toBe(action.createdAt);
      expect(randomNode(action.id), action.name).toBe(true);
    }
    expect(uuidMillis(perspective.id)).toBe(perspective.createdAt);
    expect(randomNode(perspective.id)).toBe(true);
    expect(perspective.categories.map((category) => category.id)).toEqual(
      perspective.categories.map((_, index) => index + 1),
    );
    expect(perspective.palette.currentIndex).toBe(perspective.categories.length);
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
      ...perspective.categories.flatMap((category) => (category.styleRules ?? []).map((rule) => rule.id)),
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
