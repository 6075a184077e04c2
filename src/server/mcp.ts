// The MCP server over streamable HTTP at /mcp, for agents that reach the service over the network.
// Stateless: each POST gets its own server and transport, whose tools call this very service's
// /graphql with the request's own bearer token, so an MCP call has the tenant, the limits and the
// refusals of the GraphQL call it makes. The caller has checked the token before this runs.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { createThreadlineClient } from '../../client/index.js';
import { createMcpServer } from '../mcp/server.js';

/** The handler of POST /mcp; `graphqlUrl` is where this service answers GraphQL. */
export function mcpHandler(graphqlUrl: () => string) {
  return async (request: Request, response: Response): Promise<void> => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const server = createMcpServer(createThreadlineClient({ url: graphqlUrl(), apiKey: token }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  };
}

/** GET and DELETE /mcp: a stateless server keeps no stream to resume and no session to end. */
export function mcpMethodNotAllowed(_request: Request, response: Response): void {
  response
    .status(405)
    .set('Allow', 'POST')
    .json({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: POST MCP requests to /mcp.' },
      id: null,
    });
}
