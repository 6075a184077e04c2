/**
 * The Neo4j Bloom perspective that `docs/bloom-perspective.json` holds, built from `cypher/bloom/`:
 * one category per node label with its caption, inspector properties and a colour per status; every
 * relationship type; each `cypher/bloom/<name>.cypher` as a search phrase and each
 * `cypher/bloom/scene-<name>.cypher` as a scene action, with the phrase text and name taken from the
 * file's first line. `npm run bloom:perspective` writes the file; a unit test fails when it is stale.
 *
 * Neo4j publishes no schema for this file. Its shape is the one Bloom 2.7 writes when it exports a
 * perspective (Perspectives -> Export), learned from public exports of Bloom 2.x: the keys, their order
 * and the forms of ids and types below follow such files, and test/unit/bloomPerspective.test.ts holds
 * a description of them that the file is compared with. Beyond that shape it is checked as far as a
 * machine without Bloom allows (that test and test/own-neo4j/bloom-export.test.ts): the phrases'
 * parameters, and every phrase and scene action EXPLAINed on a real Neo4j, every property and path
 * checked against a real lineage.
 */
import type {
  HandoffStatus,
  ProviderThreadStatus,
  RunStatus,
  ThreadRelationship,
  TransferStatus,
} from '../domain/records.js';
import { cypher, queryNames } from '../graph/queries.js';
import { createHash } from 'node:crypto';

export const PERSPECTIVE_FILE = 'docs/bloom-perspective.json';

// Fixed, so that building the file twice gives the same bytes.
const WRITTEN_AT = Date.UTC(2026, 11, 3);
const BLOOM_FORMAT_VERSION = '2.7.0';

// ---------------------------------------------------------------------------------------------------
// What the perspective shows: the styling choices of docs/bloom.md, section 3.

// Bloom types a Neo4j integer `bigint` (a float is `number`): ordinals and counts are integers.
type DataType = 'string' | 'bigint' | 'number' | 'array';

interface CategoryStyle {
  label: string;
  color: string;
  /** Shown in the inspector, caption first. */
  properties: Record<string, DataType>;
  /** A colour per value of one property: every `status` the code writes (each map satisfies its domain type), or how a thread came to be. */
  colorBy: { property: string; colors: Record<string, string> } | null;
}

const GREEN = '#8DCC93';
const BLUE = '#4C8EDA';
const RED = '#F16667';
const ORANGE = '#F79767';
const AMBER = '#FFC454';
const YELLOW = '#FFE081';
const PURPLE = '#C990C0';
const GREY = '#A5ABB6';
const DARK_GREY = '#848484';

const CATEGORIES: CategoryStyle[] = [
  {
    label: 'Thread',
    color: '#57C7E3',
    properties: {
      caption: 'string',
      id: 'string',
      tenant: 'string',
      title: 'string',
      headOrdinal: 'bigint',
      relationshipToParent: 'string',
      parentThreadId: 'string',
      forkOrdinal: 'bigint',
    },
    colorBy: {
      property: 'relationshipToParent',
      colors: { fork: PURPLE, subagent: ORANGE } satisfies Record<ThreadRelationship, string>,
    },
  },
  {
    label: 'Run',
    color: '#D9C8AE',
    properties: {
      caption: 'string',
      id: 'string',
      tenant: 'string',
      threadId: 'string',
      ordinal: 'bigint',
      status: 'string',
      provider: 'string',
      planDecision: 'string',
      planAction: 'string',
      planStrategy: 'string',
      planReasons: 'array',
      userMessage: 'string',
    },
    colorBy: {
      property: 'status',
      colors: { running: BLUE, completed: GREEN, failed: RED, interrupted: ORANGE, rolled_back: GREY } satisfies Record<
        RunStatus,
        string
      >,
    },
  },
  {
    label: 'ProviderThread',
    color: '#ECB5C9',
    properties: {
      caption: 'string',
      id: 'string',
      tenant: 'string',
      status: 'string',
      provider: 'string',
      nativeThreadRef: 'string',
    },
    colorBy: {
      property: 'status',
      colors: {
        active: BLUE,
        idle: GREEN,
        stale: AMBER,
        resume_failed: RED,
        divergent: PURPLE,
        rolled_back: GREY,
        closed: DARK_GREY,
      } satisfies Record<ProviderThreadStatus, string>,
    },
  },
  {
    label: 'ContextHandoff',
    color: '#C990C0',
    properties: {
      caption: 'string',
      id: 'string',
      tenant: 'string',
      status: 'string',
      strategy: 'string',
      coveredFrom: 'bigint',
      coveredTo: 'bigint',
      source: 'string',
      endedBecause: 'string',
      summaryText: 'string',
    },
    colorBy: {
      property: 'status',
      colors: { ready: GREEN, pending: YELLOW, failed: RED, superseded: GREY } satisfies Record<HandoffStatus, string>,
    },
  },
  {
    label: 'ContextTransfer',
    color: '#569480',
    properties: { caption: 'string', id: 'string', tenant: 'string', kind: 'string', status: 'string' },
    colorBy: {
      property: 'status',
      colors: { pending: YELLOW, consumed: GREEN, superseded: GREY } satisfies Record<TransferStatus, string>,
    },
  },
  {
    label: 'RunFact',
    color: '#D9D9D9',
    properties: { caption: 'string', tenant: 'string', kind: 'string', text: 'string', status: 'string' },
    colorBy: null,
  },
  {
    label: 'Checkpoint',
    color: '#DA7194',
    properties: {
      caption: 'string',
      id: 'string',
      tenant: 'string',
      status: 'string',
      diffSummary: 'string',
      fileCount: 'bigint',
    },
    colorBy: { property: 'status', colors: { current: GREEN, stale: GREY } },
  },
];

/** Every relationship between categorised nodes, as (from label, type, to label): docs/bloom.md's table. */
const PATH_SEGMENTS: readonly (readonly [string, string, string])[] = [
  ['Thread', 'HAS_RUN', 'Run'],
  ['Thread', 'HAS_PROVIDER_THREAD', 'ProviderThread'],
  ['Thread', 'FORKED_FROM', 'Run'],
  ['Thread', 'SPAWNED_BY', 'Run'],
  ['Run', 'USES', 'ProviderThread'],
  ['Run', 'USES', 'ContextHandoff'],
  ['Run', 'RECORDED', 'RunFact'],
  ['Run', 'CAPTURED', 'Checkpoint'],
  ['ContextHandoff', 'COVERS', 'Run'],
  ['ContextHandoff', 'DELIVERED_TO', 'ProviderThread'],
  ['ContextHandoff', 'DRAWN_FROM', 'ProviderThread'],
  ['ContextHandoff', 'SUPERSEDES', 'ContextHandoff'],
  ['ProviderThread', 'FORKED_FROM', 'ProviderThread'],
  ['ContextTransfer', 'MATERIALIZED_AS', 'ContextHandoff'],
  ['ContextTransfer', 'SUPERSEDES', 'ContextTransfer'],
  ['ContextTransfer', 'FROM_THREAD', 'Thread'],
  ['ContextTransfer', 'TO_THREAD', 'Thread'],
  ['ContextTransfer', 'FROM_RUN', 'Run'],
  ['ContextTransfer', 'BASE_RUN', 'Run'],
];

/** Relationships that carry lineage get a colour; belonging and bookkeeping stay thin and grey. */
const RELATIONSHIP_COLORS: Record<string, string> = {
  USES: BLUE,
  COVERS: GREEN,
  DELIVERED_TO: ORANGE,
  DRAWN_FROM: AMBER,
  SUPERSEDES: RED,
  FORKED_FROM: PURPLE,
  SPAWNED_BY: PURPLE,
};
const BACKGROUND_RELATIONSHIP_COLOR = GREY;

/** Where Bloom suggests values for a phrase's parameter, as it types: a label and a property. */
const PARAMETER_SUGGESTIONS: Record<string, readonly [string, string]> = {
  tenant: ['Thread', 'tenant'],
  threadId: ['Thread', 'id'],
  providerThreadId: ['ProviderThread', 'id'],
  runId: ['Run', 'id'],
};

/** The unique indexes a search in Bloom can use, by label (cypher/schema/). */
const SEARCH_INDEXES: Record<string, string[]> = {
  Thread: ['tenant', 'id'],
  Run: ['id'],
  ProviderThread: ['id'],
  ContextHandoff: ['id'],
  ContextTransfer: ['id'],
  Checkpoint: ['id'],
};

// ---------------------------------------------------------------------------------------------------
// The file's shape

interface PerspectiveProperty {
  name: string;
  exclude: boolean;
  dataType: DataType;
}
interface StyleRule {
  id: string;
  type: 'single';
  size: number;
  minSize: number;
  maxSize: number;
  minColor: string;
  midColor: string;
  maxColor: string;
  minPoint: string;
  maxPoint: string;
  applyColor: true;
  applySize: false;
  applyCaption: false;
  captionKeys: string[];
  color: string;
  isTimeZoneConvertEnabled: boolean;
  selectedTimeZone: string;
  basedOn: string;
  valuesMapper: unknown[];
  existingValues: unknown[];
  conditionValue: string;
  rangeValue: null;
  condition: 'equals';
}
interface Category {
  id: number;
  name: string;
  labels: string[];
  properties: PerspectiveProperty[];
  createdAt: number;
  lastEditedAt: number;
  color: string;
  size: number;
  icon: string;
  captionKeys: string[];
  styleRules: StyleRule[];
}
interface LabelProperty {
  propertyKey: string;
  type: string;
  dataType: DataType;
}
interface RelationshipType {
  id: string;
  name: string;
  properties: LabelProperty[];
  color: string;
  size: number;
  captionKeys: string[];
}
interface TemplateParameter {
  name: string;
  dataType: 'String';
  collapsed: boolean;
  suggestionLabel: string | null;
  suggestionProp: string | null;
  suggestionBoolean: boolean;
  cypher: null;
}
interface SearchPhrase {
  name: string;
  id: string;
  createdAt: number;
  text: string;
  cypher: string;
  isUpdateQuery: null;
  params: TemplateParameter[];
  hasCypherErrors: boolean;
}
interface SceneAction {
  name: string;
  id: string;
  createdAt: number;
  cypher: string;
  isUpdateQuery: null;
  /** The ids of the categories it is offered on: the one its file's header names. */
  categories: number[];
  relationshipTypes: null;
  hasCypherErrors: boolean;
}
export interface Perspective {
  name: string;
  id: string;
  categories: Category[];
  labels: Record<string, LabelProperty[]>;
  relationshipTypes: RelationshipType[];
  palette: { colors: string[]; currentIndex: number };
  createdAt: number;
  lastEditedAt: number;
  templates: SearchPhrase[];
  sceneActions: SceneAction[];
  hiddenRelationshipTypes: string[];
  hiddenCategories: number[];
  hideUncategorisedData: boolean;
  isAuto: boolean;
  parentPerspectiveId: null;
  metadata: {
    pathSegments: { source: string; relationshipType: string; target: string }[];
    indexes: { label: string; type: 'native'; propertyKeys: { key: string; metadataProp: boolean }[] }[];
    stats: { labels: Record<string, number>; relationshipTypes: Record<string, number> };
  };
  version: string;
}

// The key Bloom's exported files use for "caption a relationship with its type".
const RELATIONSHIP_TYPE_CAPTION = '0_REL_TYPE_CAPTION_KEY';

// Bloom's own default palette, which it cycles through for categories added later by hand.
const PALETTE = [
  '#FFE081',
  '#C990C0',
  '#F79767',
  '#57C7E3',
  '#F16667',
  '#D9C8AE',
  '#8DCC93',
  '#ECB5C9',
  '#4C8EDA',
  '#FFC454',
  '#DA7194',
  '#569480',
  '#848484',
  '#D9D9D9',
];

// ---------------------------------------------------------------------------------------------------
// Building it

/** A `cypher/bloom/` file: its registry name (`bloom/<file>`) and its text. */
interface BloomQuery {
  name: string;
  cypher: string;
}

export function bloomQueries(): BloomQuery[] {
  return queryNames()
    .filter((name) => name.startsWith('bloom/'))
    .map((name) => ({ name, cypher: cypher(name) }));
}

const PHRASE_HEADER = /^\/\/ Bloom search phrase: "([^"]+)"/;
const SCENE_HEADER = /^\/\/ Bloom scene action: "([^"]+)", for .* \(offered on the (\w+) category\)/;

/** The `$parameters` a phrase's text names, in order. */
export function phraseParameters(text: string): string[] {
  return [...text.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] ?? '');
}

// Bloom names a perspective and a scene action by a time-based (version 1) UUID of the moment it was
// made, a rule and a search phrase by that moment itself (`rule:<epoch ms>`, `tmpl:<epoch ms>`). Here
// each gets its own fixed moment after WRITTEN_AT, in the order it is written, so that every build
// gives the same file.
const RULES_FROM = WRITTEN_AT + 1_000;
const TEMPLATES_FROM = WRITTEN_AT + 2_000;
const SCENE_ACTIONS_FROM = WRITTEN_AT + 3_000;

// UUID time counts 100 ns steps from 1582-10-15, the Gregorian reform; epoch ms are from 1970.
const GREGORIAN_TO_UNIX_100NS = 0x01b21dd213814000n;
// A fixed node and clock sequence where Bloom's generator puts random ones: a random node has the
// multicast bit (the lowest bit of its first byte) set, so that it can never be a real MAC address.
const UUID_NODE = Buffer.from(
  createHash('sha1')
    .update('threadline-bloom')
    .digest()
    .subarray(0, 6)
    .map((byte, index) => (index === 0 ? byte | 1 : byte)),
).toString('hex');
const UUID_CLOCK_SEQUENCE = 0x1f2a;

/** The version 1 UUID of a moment, as Bloom gives a perspective and a scene action. */
function timeUuid(epochMillis: number): string {
  const time = BigInt(epochMillis) * 10_000n + GREGORIAN_TO_UNIX_100NS;
  const hex = (value: bigint, digits: number) => value.toString(16).padStart(digits, '0');
  const clock = (UUID_CLOCK_SEQUENCE & 0x3fff) | 0x8000;
  return [
    hex(time & 0xffffffffn, 8),
    hex((time >> 32n) & 0xffffn, 4),
    hex(((time >> 48n) & 0x0fffn) | 0x1000n, 4),
    clock.toString(16),
    UUID_NODE,
  ].join('-');
}

function searchPhrase(query: BloomQuery, text: string, index: number): SearchPhrase {
  return {
    name: text.split(' $', 1)[0] ?? text,
    id: `tmpl:${TEMPLATES_FROM + index}`,
    createdAt: TEMPLATES_FROM + index,
    text,
    cypher: query.cypher,
    isUpdateQuery: null,
    params: phraseParameters(text).map((parameter) => {
      const suggestion = PARAMETER_SUGGESTIONS[parameter];
      if (!suggestion) throw new Error(`${query.name}: no suggestion for $${parameter} in PARAMETER_SUGGESTIONS`);
      return {
        name: `$${parameter}`,
        dataType: 'String',
        collapsed: false,
        suggestionLabel: suggestion[0],
        suggestionProp: suggestion[1],
        suggestionBoolean: false,
        cypher: null,
      };
    }),
    hasCypherErrors: false,
  };
}

function sceneAction(query: BloomQuery, name: string, label: string, index: number): SceneAction {
  const category = CATEGORIES.findIndex((style) => style.label === label);
  if (category < 0) throw new Error(`${query.name}: offered on ${label}, which is no category`);
  return {
    name,
    id: timeUuid(SCENE_ACTIONS_FROM + index),
    createdAt: SCENE_ACTIONS_FROM + index,
    cypher: query.cypher,
    isUpdateQuery: null,
    categories: [categoryId(category)],
    relationshipTypes: null,
    hasCypherErrors: false,
  };
}

function colorRule(id: number, property: string, value: string, color: string): StyleRule {
  // The keys and their order of a rule in a Bloom 2.7 export. The size and the min/mid/max colours
  // are Bloom's defaults, unused while applySize is off and the rule is not a range.
  return {
    id: `rule:${id}`,
    type: 'single',
    size: 1,
    minSize: 1,
    maxSize: 2,
    minColor: '#D5EEE2',
    midColor: '#81CCA8',
    maxColor: '#428C6A',
    minPoint: 'unprocessed',
    maxPoint: 'unprocessed',
    applyColor: true,
    applySize: false,
    applyCaption: false,
    captionKeys: [],
    color,
    isTimeZoneConvertEnabled: false,
    selectedTimeZone: 'Z',
    // Bloom names the property a rule reads as <property>_<data type>.
    basedOn: `${property}_string`,
    valuesMapper: [],
    existingValues: [],
    conditionValue: value,
    rangeValue: null,
    condition: 'equals',
  };
}

/** Every category's colour rules, numbered on across the categories in the order they are written. */
function colorRules(): StyleRule[][] {
  let next = RULES_FROM;
  return CATEGORIES.map(({ colorBy }) =>
    colorBy
      ? Object.entries(colorBy.colors).map(([value, color]) => colorRule(next++, colorBy.property, value, color))
      : [],
  );
}

const categoryId = (index: number) => index + 1;

function category(style: CategoryStyle, index: number, styleRules: StyleRule[]): Category {
  return {
    id: categoryId(index),
    name: style.label,
    labels: [style.label],
    properties: Object.entries(style.properties).map(([name, dataType]) => ({ name, exclude: false, dataType })),
    createdAt: WRITTEN_AT,
    lastEditedAt: WRITTEN_AT,
    color: style.color,
    size: 1,
    icon: 'no-icon',
    captionKeys: ['caption'],
    styleRules,
  };
}

export function bloomPerspective(queries: BloomQuery[]): Perspective {
  const templates: SearchPhrase[] = [];
  const sceneActions: SceneAction[] = [];
  for (const query of queries) {
    const [firstLine = ''] = query.cypher.split('\n', 1);
    const phrase = PHRASE_HEADER.exec(firstLine);
    const scene = SCENE_HEADER.exec(firstLine);
    if (phrase) templates.push(searchPhrase(query, phrase[1] ?? '', templates.length));
    else if (scene) sceneActions.push(sceneAction(query, scene[1] ?? '', scene[2] ?? '', sceneActions.length));
    else throw new Error(`${query.name}: the first line names neither a search phrase nor a scene action`);
  }
  const relationshipTypes = [...new Set(PATH_SEGMENTS.map(([, type]) => type))].sort();
  const rules = colorRules();
  return {
    name: 'Threadline lineage',
    id: timeUuid(WRITTEN_AT),
    categories: CATEGORIES.map((style, index) => category(style, index, rules[index] ?? [])),
    labels: Object.fromEntries(
      CATEGORIES.map((style) => [
        style.label,
        Object.entries(style.properties).map(([propertyKey, dataType]) => ({
          propertyKey,
          type: style.label,
          dataType,
        })),
      ]),
    ),
    relationshipTypes: relationshipTypes.map((type) => ({
      id: type,
      name: type,
      properties: [],
      color: RELATIONSHIP_COLORS[type] ?? BACKGROUND_RELATIONSHIP_COLOR,
      size: RELATIONSHIP_COLORS[type] ? 2 : 1,
      captionKeys: [RELATIONSHIP_TYPE_CAPTION],
    })),
    palette: { colors: PALETTE, currentIndex: CATEGORIES.length % PALETTE.length },
    createdAt: WRITTEN_AT,
    lastEditedAt: WRITTEN_AT,
    templates,
    sceneActions,
    hiddenRelationshipTypes: [],
    hiddenCategories: [],
    // SchemaMigration and ThreadChange nodes are the service's bookkeeping, not lineage.
    hideUncategorisedData: true,
    isAuto: false,
    parentPerspectiveId: null,
    metadata: {
      pathSegments: PATH_SEGMENTS.map(([source, relationshipType, target]) => ({ source, relationshipType, target })),
      indexes: Object.entries(SEARCH_INDEXES).map(([label, keys]) => ({
        label,
        type: 'native',
        propertyKeys: keys.map((key) => ({ key, metadataProp: false })),
      })),
      stats: { labels: {}, relationshipTypes: {} },
    },
    version: BLOOM_FORMAT_VERSION,
  };
}

/** The file's text: two-space JSON with a final newline. */
export function perspectiveFileText(perspective: Perspective): string {
  return `${JSON.stringify(perspective, null, 2)}\n`;
}
