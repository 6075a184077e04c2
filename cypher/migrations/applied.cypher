// Names of the schema migrations already applied.
MATCH (migration:SchemaMigration)
RETURN migration.name AS name
ORDER BY name
