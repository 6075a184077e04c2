// Records that schema migration $name has been applied.
MERGE (migration:SchemaMigration {name: $name})
ON CREATE SET migration.appliedAt = datetime()
