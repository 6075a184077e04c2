#!/usr/bin/env node
// The `threadline` command. The tools are TypeScript: tsx's loader is registered in this very process
// (no child process that could outlive a stopped parent), then tools/cli.ts parses the command line.
import { register } from 'tsx/esm/api';

register();
await import('../tools/cli.ts');
