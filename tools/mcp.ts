// npm run mcp: the MCP server over stdio (src/mcp/server.ts), for an agent that starts it as a
// command; it answers through a running Threadline service. Until the `threadline mcp` subcommand
// runs it, this is its entry. Nothing goes to stdout but the protocol; --help goes to stderr.
//   THREADLINE_URL    the service's base URL, default http://127.0.0.1:4000 (a URL ending in /graphql works too)
//   THREADLINE_TOKEN  bearer token, when the service runs with THREADLINE_API_KEYS
import { runMcpStdio } from '../src/mcp/server.js';
import { DEFAULT_URL } from './demo.js';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stderr.write(
    `Usage: npm run -s mcp\n\nServes Threadline's MCP tools over stdio, answering through the service at THREADLINE_URL (default ${DEFAULT_URL}), with THREADLINE_TOKEN as its bearer token.\n`,
  );
} else {
  await runMcpStdio({
    url: process.env.THREADLINE_URL || DEFAULT_URL,
    token: process.env.THREADLINE_TOKEN || null,
  });
}
