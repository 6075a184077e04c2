// Limits on the shape of a GraphQL document, checked before anything runs, so that one request
// cannot make the service or Neo4j do unbounded work, and the hiding of schema hints in errors. The
// numbers leave room over the product's heaviest real queries (the lineage viewer's first read:
// depth 6, cost ~5.5k, 147 tokens, no aliases or directives); README.md's Configuration section
// explains them.
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, type ParseOptions, type ValidationContext } from 'graphql';

export const QUERY_LIMITS = {
  /** Nested selections; the viewer needs 6 (thread > runs > edges > node > providerThread > id). */
  depth: 10,
  /**
   * graphql-armor's cost: 2 per object, 1 per scalar, x1.5 per level, times a literal `first` or
   * `last`. The viewer's first read costs ~5.5k (its `runs(last: $last)` is a variable, not multiplied;
   * a literal `last: 200` would make it ~23k); paging nested in paging (threads x runs) costs millions.
   */
  cost: 250_000,
  /** Aliased fields (`__typename` excepted); no product query uses any. */
  aliases: 20,
  directives: 20,
  /** Lexical tokens of the document; the viewer's thread query has 147. */
  tokens: 2_000,
} as const;

export type QueryLimit = keyof typeof QUERY_LIMITS;

/**
 * Refusals keep Apollo's validation code and name the limit in extensions.limit. Armor's own
 * Apollo handler would report BAD_USER_INPUT, which Apollo overwrites with GRAPHQL_VALIDATION_FAILED
 * anyway, and prefixes every message with a misleading "Syntax Error: ".
 */
const refuse =
  (limit: QueryLimit) =>
  (context: ValidationContext | null, error: GraphQLError): void =>
    context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { limit } }));

const limited = (limit: QueryLimit) => ({ propagateOnRejection: false, onReject: [refuse(limit)] });

/** Validation rules for ApolloServer's `validationRules`. */
export function queryLimitRules() {
  return new ApolloArmor({
    maxDepth: { n: QUERY_LIMITS.depth, ...limited('depth') },
    costLimit: { maxCost: QUERY_LIMITS.cost, ...limited('cost') },
    maxAliases: { n: QUERY_LIMITS.aliases, ...limited('aliases') },
    maxDirectives: { n: QUERY_LIMITS.directives, ...limited('directives') },
    // Armor's Apollo plugins for these two are not used: its token plugin throws from a parsing hook,
    // which Apollo answers with HTTP 500; its suggestion mask misses "Did you mean the enum value".
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: false },
  }).protect().validationRules;
}

/**
 * The token limit, enforced by graphql-js's own parser: it aborts at the limit, before building a
 * document, and Apollo answers GRAPHQL_PARSE_FAILED with HTTP 400.
 */
export const parseOptions: ParseOptions = { maxTokens: QUERY_LIMITS.tokens };

const SUGGESTION = 'Did you mean ';

/**
 * Production hides "Did you mean ...?" hints, which would reveal the schema that introspection hides.
 * A scan, not a pattern: the message echoes a client's names, and each hint ends at the next "?", so
 * once no "?" follows, no later hint can end either and the rest is kept as it is.
 */
export function withoutSuggestions(message: string): string {
  let kept = '';
  let from = 0;
  for (;;) {
    const start = message.indexOf(SUGGESTION, from);
    const end = start < 0 ? -1 : message.indexOf('?', start + SUGGESTION.length);
    if (end < 0) return kept + message.slice(from);
    kept += message.slice(from, start > from && message[start - 1] === ' ' ? start - 1 : start);
    from = end + 1;
  }
}
