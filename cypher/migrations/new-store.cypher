// Whether the store holds nothing but the migrations' own records: on a new store the migrations
// that move data have none to move, and only the ones that shape the schema need to run.
OPTIONAL MATCH (node)
WHERE NOT node:SchemaMigration AND NOT node:SchemaLock
WITH node
LIMIT 1
RETURN node IS NULL AS isNew
