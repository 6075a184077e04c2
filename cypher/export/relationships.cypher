// Export: every relationship between the exported nodes $elementIds (element ids read in the same
// transaction), whatever its type, with its properties (Threadline's relationships have none today).
// Parameters: $elementIds (list of strings). Columns: fromId, type, toId, properties, one row per
// relationship (parallel relationships are separate rows). The subquery keeps the plan an element id
// seek followed by an expansion, never a scan of all relationships.
UNWIND $elementIds AS fromId
MATCH (from)
WHERE elementId(from) = fromId
CALL (from) {
  MATCH (from)-[rel]->(to)
  RETURN rel, elementId(to) AS toId
}
WITH fromId, rel, toId
WHERE toId IN $elementIds
RETURN fromId, type(rel) AS type, toId, properties(rel) AS properties
