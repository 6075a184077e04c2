import neo4j from 'neo4j-driver';

/**
 * Converts what the driver returns into plain JSON-like data: Integers to numbers (refusing any
 * outside the safe range rather than rounding), temporal values to ISO strings, nodes to their
 * properties, recursively through lists and maps.
 */
export function plain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  // Most values are strings and booleans: they skip the driver's type tests, which add up per row.
  if (typeof value !== 'object') return value;
  // Then lists and maps, which the driver answers as arrays and plain objects: they skip the tests
  // for its own classes (Integer, the temporal types, nodes) too.
  if (Array.isArray(value)) return value.map(plain);
  if (Object.getPrototypeOf(value) === Object.prototype) return plainMap(value as Record<string, unknown>);
  if (neo4j.isInt(value)) {
    // An Integer past the safe range converts to a double that is no safe integer: one test, where
    // the driver's inSafeRange() builds two Integers to compare with (a tenth of a long thread's plan).
    const number = value.toNumber();
    if (!Number.isSafeInteger(number))
      throw new RangeError(`Integer ${value.toString()} is outside the safe JavaScript range`);
    return number;
  }
  if (neo4j.isDateTime(value)) return new Date(value.toString()).toISOString();
  if (neo4j.isDate(value) || neo4j.isLocalDateTime(value) || neo4j.isDuration(value)) return value.toString();
  if (isGraphEntity(value)) return plain(value.properties);
  return plainMap(value as Record<string, unknown>);
}

function plainMap(map: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).map(([key, inner]) => [key, plain(inner)]));
}

function isGraphEntity(value: unknown): value is { properties: Record<string, unknown> } {
  return typeof value === 'object' && value !== null && 'properties' in value && 'elementId' in value;
}

/**
 * Parameters as Neo4j should store them: the driver sends every JS number as a float, so whole
 * numbers (ordinals, counts, limits) become Neo4j integers, recursively through lists and maps.
 */
export function toParameters(value: unknown): unknown {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return neo4j.int(value);
  if (Array.isArray(value)) return value.map(toParameters);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toParameters(inner)]));
  }
  return value;
}
