import neo4j, { type Driver } from 'neo4j-driver';

export interface Neo4jConnection {
  uri: string;
  user: string;
  password: string | null;
  database: string;
}

export function createDriver(connection: Neo4jConnection): Driver {
  // No password: the server runs without auth (the local Neo4j's default).
  const auth = connection.password === null ? undefined : neo4j.auth.basic(connection.user, connection.password);
  return neo4j.driver(connection.uri, auth, {
    // A request must fail with SERVICE_UNAVAILABLE within seconds when Neo4j is gone, not hang for
    // the driver's default 30 s of retries or 60 s of connection acquisition.
    maxTransactionRetryTime: 5_000,
    connectionAcquisitionTimeout: 5_000,
    connectionTimeout: 3_000,
  });
}
