// The typed client of Threadline's GraphQL API: the transport, the orchestrator's turn, and every
// operation of client/operations/ with its generated types.
export * from './client.js';
export * from './orchestrator.js';
export * from './generated/operations.js';
