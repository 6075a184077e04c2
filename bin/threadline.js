#!/usr/bin/env node
// The `threadline` command. The tools are TypeScript: tsx's loader is registered in this very process
// (no child process that could outlive a stopped parent), then tools/cli.ts parses the command line.
import { register } from 'tsx/esm/api';

// Run by a wrapper (npm run) that is stopped, this process would otherwise go on alone: it stops when
// its parent is gone, whatever signal the parent got. Noted first thing, before the TypeScript loads.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid === parent) return;
  process.stderr.write('threadline: the command that started this one has stopped: stopping too.\n');
  process.exit(143);
}, 1_000).unref();

register();
await import('../tools/cli.ts');
