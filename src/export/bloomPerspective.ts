/**
 * The Neo4j Bloom perspective that `docs/bloom-perspective.json` holds, built from `cypher/bloom/`:
 * one category per node label with its caption, inspector properties and a colour per status; every
 * relationship type; each `cypher/bloom/<name>.cypher` as a search phrase and each
 * `cypher/bloom/scene-<name>.cypher` as a scene action, with the phrase text and name taken from the
 * file's first line. `npm run bloom:perspective` writes the file; a unit test fails when it is stale.
 *
 * Neo4j publishes no schema for this file. Its shape is the one Bloom 2.x writes when it exports a
 * perspective (Perspectives -> Export): the fields and their types below follow such exported files. It
 * is checked as far as a machine without Bloom allows (test/unit/bloomPerspective.test.ts and
 * test/integration/bloom-export.test.ts): the shape, the phrases' parameters, and every phrase and
 * scene action EXPLAINed on a real Neo4j, every property and path checked against a real lineage.
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
const PERSPECTIVE_ID = '7d3c0a52-5b8e-4c1e-9a43-0f1e6b7a2d10';
const WRITTEN_AT = Date.UTC(2026, 11, 3);
const BLOOM_FORMAT_VERSION = '2.6.0';

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
  basedOn: string;
  condition: 'equals';
  conditionValue: string;
  applyColor: true;
  applySize: false;
  applyCaption: false;
  color: string;
  size: number;
  minSize: number;
  maxSize: number;
  minSizeValue: null;
  maxSizeValue: null;
  minColor: string;
  midColor: string;
  maxColor: string;
  minColorValue: null;
  maxColorValue: null;
  minPoint: string;
  maxPoint: string;
  captionKeys: string[];
  isTimeZoneConvertEnabled: boolean;
  selectedTimeZone: string;
  valuesMapper: unknown[];
  existingValues: unknown[];
  rangeValue: null;
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
  sceneActions: SceneAction[];
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

const fileName = (query: BloomQuery) => query.name.replace(/^bloom\//, '');

const PHRASE_HEADER = /^\/\/ Bloom search phrase: "([^"]+)"/;
const SCENE_HEADER = /^\/\/ Bloom scene action: "([^"]+)", for .* \(offered on the (\w+) category\)/;

/** The `$parameters` a phrase's text names, in order. */
export function phraseParameters(text: string): string[] {
  return [...text.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);
}

/**
 * A UUID as Bloom gives a scene action, but derived from the file's name so that the file is the same
 * at every build: SHA-1 of the name, with the version (5, name-based) and variant bits set.
 */
function nameBasedUuid(name: string): string {
  const hex = createHash('sha1').update(`threadline-bloom:${name}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// Bloom names a rule and a search phrase by the moment it was made (`rule:<epoch ms>`,
// `tmpl:<epoch ms>`); here each gets its own moment after WRITTEN_AT, in the order it is written.
const RULES_FROM = WRITTEN_AT + 1_000;
const TEMPLATES_FROM = WRITTEN_AT + 2_000;

function searchPhrase(query: BloomQuery, text: string, index: number): SearchPhrase {
  return {
    name: text.split(' $')[0]!,
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
    id: nameBasedUuid(fileName(query)),
    createdAt: WRITTEN_AT + index,
    cypher: query.cypher,
    isUpdateQuery: null,
    categories: [categoryId(category)],
    relationshipTypes: null,
    hasCypherErrors: false,
  };
}

function colorRule(id: number, property: string, value: string, color: string): StyleRule {
  return {
    id: `rule:${id}`,
    type: 'single',
    // Bloom names the property a rule reads as <property>_<data type>.
    basedOn: `${property}_string`,
    condition: 'equals',
    conditionValue: value,
    applyColor: true,
    applySize: false,
    applyCaption: false,
    color,
    size: 1,
    minSize: 1,
    maxSize: 2,
    // The range a range rule maps its sizes and colours over; a single rule has none.
    minSizeValue: null,
    maxSizeValue: null,
    minColor: '#D5EEE2',
    midColor: '#81CCA8',
    maxColor: '#428C6A',
    minColorValue: null,
    maxColorValue: null,
    minPoint: 'unprocessed',
    maxPoint: 'unprocessed',
    captionKeys: [],
    isTimeZoneConvertEnabled: false,
    selectedTimeZone: 'Z',
    valuesMapper: [],
    existingValues: [],
    rangeValue: null,
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
    const firstLine = query.cypher.split('\n', 1)[0]!;
    const phrase = PHRASE_HEADER.exec(firstLine);
    const scene = SCENE_HEADER.exec(firstLine);
    if (phrase) templates.push(searchPhrase(query, phrase[1]!, templates.length));
    else if (scene) sceneActions.push(sceneAction(query, scene[1]!, scene[2]!, sceneActions.length));
    else throw new Error(`${query.name}: the first line names neither a search phrase nor a scene action`);
  }
  const relationshipTypes = [...new Set(PATH_SEGMENTS.map(([, type]) => type))].sort();
  const rules = colorRules();
  return {
    name: 'Threadline lineage',
    id: PERSPECTIVE_ID,
    categories: CATEGORIES.map((style, index) => category(style, index, rules[index]!)),
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
    sceneActions,
    version: BLOOM_FORMAT_VERSION,
  };
}

/** The file's text: two-space JSON with a final newline. */
export function perspectiveFileText(perspective: Perspective): string {
  return `${JSON.stringify(perspective, null, 2)}\n`;
}
