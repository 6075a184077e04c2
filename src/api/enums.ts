import { Kind, parse } from 'graphql';

/**
 * Internal values for every enum of the schema: GraphQL's UPPER_SNAKE value maps to the lowercase
 * string Neo4j stores (RUNNING <-> "running"), so resolvers and the graph speak one spelling.
 */
export function lowercaseEnumResolvers(typeDefs: string[]): Record<string, Record<string, string>> {
  const resolvers: Record<string, Record<string, string>> = {};
  for (const sdl of typeDefs) {
    for (const definition of parse(sdl).definitions) {
      if (definition.kind !== Kind.ENUM_TYPE_DEFINITION && definition.kind !== Kind.ENUM_TYPE_EXTENSION) continue;
      const values = (resolvers[definition.name.value] ??= {});
      for (const value of definition.values ?? []) values[value.name.value] = value.name.value.toLowerCase();
    }
  }
  return resolvers;
}
