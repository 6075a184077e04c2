/**
 * `threadline <command>`: one command-line tool for the service and its store (bin/threadline.js runs
 * it; the npm scripts are aliases of it). Every command's --help only prints; the service commands
 * take --url and --token, the store commands --data-dir (default: the .threadline folder of this
 * checkout, wherever the command runs from). Exit status: 0 done, 1 failed (the message says why),
 * 2 a usage error or a refusal before anything was written. What a command answers goes to stdout
 * (one JSON document with --json); what it does goes to stderr, as plain lines on a terminal and JSON
 * lines otherwise.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { projectRoot } from '../src/graph/projectRoot.js';
import { DEFAULT_URL } from './demo.js';
import { describeFailure, log } from './log.js';

const root = projectRoot();

interface CommonOptions {
  url?: string;
  token?: string;
  dataDir?: string;
}

// The flags of each command as commander hands them over (its option names, camel-cased).
interface ImportFlags {
  split: 'project' | 'session' | 'none';
  thread?: string;
  dryRun?: boolean;
  preview?: string;
  json?: boolean;
}
interface WatchFlags {
  only?: boolean;
  settle: string;
  json?: boolean;
}
interface HandoffFlags {
  to: string;
  project?: string;
  thread?: string;
  out?: string;
  json?: boolean;
}
interface ThreadsFlags {
  project?: string;
  provider?: string;
  search?: string;
  first: string;
  json?: boolean;
}

function withService(command: Command): Command {
  return command
    .option('--url <url>', `the service's base URL (default THREADLINE_URL, else ${DEFAULT_URL})`)
    .option(
      '--token <token>',
      'bearer token, when the service runs with THREADLINE_API_KEYS (default THREADLINE_TOKEN)',
    );
}

function withStore(command: Command): Command {
  return command.option(
    '--data-dir <dir>',
    'the local store: where `threadline start` keeps Neo4j and records where it listens (default THREADLINE_DATA_DIR, else .threadline in the Threadline folder)',
  );
}

/** The flags every command shares, as the variables the tools and the service read. */
function applyCommon(options: CommonOptions): void {
  if (options.url !== undefined) process.env.THREADLINE_URL = options.url;
  if (options.token !== undefined) process.env.THREADLINE_TOKEN = options.token;
  if (options.dataDir !== undefined) process.env.THREADLINE_DATA_DIR = resolve(options.dataDir);
  // Found from anywhere: not .threadline under whatever folder the command happens to run in.
  else if (!process.env.THREADLINE_DATA_DIR) process.env.THREADLINE_DATA_DIR = join(root, '.threadline');
}

function serviceUrl(): string {
  return process.env.THREADLINE_URL || DEFAULT_URL;
}

function serviceToken(): string | undefined {
  return process.env.THREADLINE_TOKEN || undefined;
}

/**
 * Runs one of the script tools in this process, as if started alone with `args`. Its --help is
 * passed on only when `safeHelp` (the tool prints its usage and stops); otherwise the help shown is
 * the one declared here, and the tool is not even loaded.
 */
function scriptCommand(program: Command, name: string, file: string, description: string, safeHelp: boolean): Command {
  const command = program
    .command(name)
    .description(description)
    .argument('[args...]', safeHelp ? 'its own arguments: see below' : 'its own arguments')
    .allowUnknownOption()
    .helpOption(false)
    .option('-h, --help', 'print this help and stop')
    .action(async (args: string[], options: { help?: boolean }) => {
      if (options.help) {
        process.stdout.write(command.helpInformation());
        if (!safeHelp) return;
        process.stdout.write('\n');
        args = ['--help'];
      }
      process.argv = [process.argv[0]!, join(root, file), ...args];
      await import(pathToFileURL(join(root, file)).href);
    });
  return command;
}

export function buildProgram(): Command {
  const program = new Command('threadline')
    .description('Threadline: the lineage of agent conversations that move between Codex and Claude Code.')
    .exitOverride()
    .showHelpAfterError('(threadline <command> --help for its usage)')
    .hook('preAction', (_program, action) => applyCommon(action.opts<CommonOptions>()));

  withStore(program.command('start'))
    .description('Serve the GraphQL API, with a local Neo4j on the store unless NEO4J_URI names one')
    .option('--port <port>', 'the HTTP port (default PORT, else 4000)')
    .action(async (options: { port?: string }) => {
      if (options.port !== undefined) process.env.PORT = options.port;
      const { ensureBuilt } = await import('./build.js');
      ensureBuilt((line) => log('info', line));
      await import(pathToFileURL(join(root, 'dist/src/server/main.js')).href);
    });

  withService(program.command('import'))
    .description('Record past Codex and Claude Code sessions as runs, one app thread per project by default')
    .argument(
      '<paths...>',
      'session files, or folders searched for *.jsonl files (~/.codex/sessions, a ~/.claude/projects folder)',
    )
    .addOption(
      new Option('--split <how>', 'one app thread per project, per session (its subagents with it), or one for all')
        .choices(['project', 'session', 'none'])
        .default('project'),
    )
    .addOption(
      new Option(
        '--thread <id>',
        'every session into this thread (created when missing); refused when a session already lives in another',
      ).conflicts('split'),
    )
    .option('--dry-run', 'print the threads and sessions the import would write, and write nothing')
    .option('--preview <provider>', 'then show what a run on this provider would be given in each thread (read-only)')
    .option(
      '--json',
      'print one JSON object: dryRun, runsImported, runsAlreadyPresent, duplicateTurns, unknownRecordTypes, threads [{id, project, subagentOf, title, created, runsImported, runsAlreadyPresent, providerThreads [{id, provider, nativeThreadRef, runs}]}], problems and warnings [{file, line, reason}], with --preview previews',
    )
    .action(async (paths: string[], options: ImportFlags) => {
      const { importCommand } = await import('./import.js');
      process.exitCode = await importCommand({
        url: serviceUrl(),
        token: serviceToken(),
        split: options.split,
        thread: options.thread,
        dryRun: options.dryRun ?? false,
        preview: options.preview,
        json: options.json ?? false,
        paths,
      });
    });

  withStore(withService(program.command('watch')))
    .description(
      'Follow ~/.codex/sessions and ~/.claude/projects (and the folders named), recording each turn as it completes',
    )
    .argument('[folders...]', 'more folders of session files to follow')
    .option('--only', "follow only the folders named, not the providers' own")
    .option(
      '--settle <seconds>',
      "how long a file's last turn must stay quiet to count as complete without its end record",
      '60',
    )
    .option('--json', 'print a JSON line for each batch of turns recorded')
    .action(async (folders: string[], options: WatchFlags) => {
      const { watchCommand } = await import('./watch.js');
      process.exitCode = await watchCommand({
        url: serviceUrl(),
        token: serviceToken(),
        folders: folders.map((folder) => resolve(folder)),
        defaults: !options.only,
        settleMs: Number(options.settle) * 1000,
        json: options.json ?? false,
        stateFile: join(process.env.THREADLINE_DATA_DIR!, 'watch.json'),
      });
    });

  withService(program.command('handoff'))
    .description('Print the context an agent should be given now to continue the thread (read-only)')
    .requiredOption('--to <provider>', 'the agent that takes over: codex or claude')
    .option('--project <dir>', "the project whose thread to hand off (default: this folder's, or its git root's)")
    .addOption(new Option('--thread <id>', 'the thread to hand off, instead of a project').conflicts('project'))
    .option('--out <file>', 'write the context to this file instead of stdout')
    .option('--json', 'print the whole preview as JSON: the plan, the session to resume, the context')
    .addHelpText('after', '\nExample: codex "$(threadline handoff --to codex)"')
    .action(async (options: HandoffFlags) => {
      const { handoffCommand } = await import('./handoff.js');
      process.exitCode = await handoffCommand({
        url: serviceUrl(),
        token: serviceToken(),
        to: options.to,
        project: options.project,
        thread: options.thread,
        out: options.out,
        json: options.json ?? false,
      });
    });

  withService(program.command('threads'))
    .description('List the threads, newest first, with their project, providers and runs')
    .option('--project <dir>', 'only the threads of this project')
    .option('--provider <name>', 'only the threads a run of this provider ran on')
    .option('--search <text>', 'only the threads whose title, id or project contain this')
    .option('--first <n>', 'how many (1..100)', '20')
    .option('--json', 'print them as one JSON array')
    .action(async (options: ThreadsFlags) => {
      const { threadsCommand } = await import('./threadIndex.js');
      process.exitCode = await threadsCommand({
        url: serviceUrl(),
        token: serviceToken(),
        filter: { project: options.project, provider: options.provider, text: options.search },
        first: Number(options.first),
        json: options.json ?? false,
      });
    });

  withService(program.command('mcp'))
    .description("Serve Threadline's MCP tools over stdio, for an agent that starts it as a command")
    .addHelpText('after', '\nExample: claude mcp add --transport stdio threadline -- threadline mcp')
    .action(async () => {
      const { runMcpStdio } = await import('../src/mcp/server.js');
      await runMcpStdio({ url: serviceUrl(), token: serviceToken() ?? null });
    });

  withStore(
    scriptCommand(program, 'query', 'tools/query.ts', 'Run an analytics query (cypher/analytics/) on the graph', true),
  );
  withStore(scriptCommand(program, 'export', 'tools/export.ts', 'Write a Cypher script of a lineage for Bloom', true));
  withStore(
    scriptCommand(program, 'audit', 'tools/audit.ts', "Check the graph's invariants (exit 1 on a violation)", false),
  );
  withStore(
    scriptCommand(
      program,
      'backup',
      'tools/backup.ts',
      'Dump the stopped local store (Neo4j dump), and check it',
      true,
    ),
  );
  withStore(scriptCommand(program, 'restore', 'tools/restore.ts', 'Load a dump into the stopped local store', true));
  withService(
    scriptCommand(
      program,
      'demo',
      'tools/demo.ts',
      'Play six scenarios against the service, printing the plans',
      false,
    ),
  );
  scriptCommand(
    program,
    'bench',
    'bench/commands/bench.ts',
    'The benchmark, on a throwaway Neo4j; writes docs/benchmarks.md',
    true,
  );
  return program;
}

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are answers; anything else commander refuses is a usage error.
      process.exitCode = error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
      return;
    }
    log('error', describeFailure(error, serviceUrl()));
    process.exitCode = 1;
  }
}

// A reader that stops early (`| head`) is not a failure of the command.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
await main(process.argv.slice(2));
