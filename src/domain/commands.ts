// What a shell command (or a read-only tool call) does, judged from its text alone: exploration that
// only reads, a search that may find nothing, or a change to files. Every function here scans the text
// once with a hand-written tokenizer (no backtracking pattern ever sees client text), so it is linear
// in the command's length.

/** Programs that only read (given no redirection into a file and none of the flags below). */
const READ_ONLY_PROGRAMS: ReadonlySet<string> = new Set([
  'cat',
  'sed',
  'nl',
  'head',
  'tail',
  'less',
  'more',
  'rg',
  'grep',
  'egrep',
  'fgrep',
  'ag',
  'ack',
  'ls',
  'tree',
  'find',
  'fd',
  'wc',
  'stat',
  'file',
  'pwd',
  'echo',
  'printf',
  'which',
  'type',
  'du',
  'df',
  'diff',
  'cmp',
  'sort',
  'uniq',
  'cut',
  'tr',
  'awk',
  'jq',
  'realpath',
  'dirname',
  'basename',
  'readlink',
  'true',
  'xxd',
  'od',
  'column',
  'date',
  'whoami',
  'env',
  'printenv',
]);
/** Git subcommands that only read. */
const READ_ONLY_GIT: ReadonlySet<string> = new Set([
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'grep',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'branch',
  'remote',
  'describe',
  'shortlog',
  'reflog',
  'cat-file',
]);
/** Tool calls that read (Claude Code's own names) are exploration too, whatever their argument. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['Read', 'Grep', 'Glob', 'LS', 'WebFetch', 'WebSearch']);
/** Commands that change nothing by themselves (`cd x && …`). */
const NEUTRAL_PREFIXES: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd', 'set', 'export']);
/** Words that run the command after them (`time npm run build`, `do npm test` in a loop runs `npm test`). */
const RUNNERS: ReadonlySet<string> = new Set([
  'time',
  'command',
  'nohup',
  'do',
  'then',
  'else',
  'while',
  'until',
  'if',
]);
/** The parts of a loop or condition that run nothing themselves (`for i in 1 2`, `done`). */
const SHELL_FRAME: ReadonlySet<string> = new Set(['for', 'done', 'fi', 'esac']);
const SEARCH_PROGRAMS: ReadonlySet<string> = new Set(['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack']);
/** Flags that make an otherwise read-only program write. */
const WRITING_FLAGS: Readonly<Record<string, readonly string[]>> = {
  sed: ['-i', '--in-place'],
  find: ['-delete', '-exec', '-execdir', '-ok', '-fprint', '-fls'],
  sort: ['-o', '--output'],
  awk: ['-i'],
  fd: ['-x', '--exec', '-X', '--exec-batch'],
};
/** Programs whose first operand is a pattern or script, not a path. */
const PATTERN_FIRST: ReadonlySet<string> = new Set(['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack', 'sed', 'awk', 'jq']);
const SHELL_WRAPPERS: ReadonlySet<string> = new Set(['bash', 'sh', 'zsh']);

interface Segment {
  words: string[];
  /** Output goes into a file (`>`, `>>`, `tee`), not counting `2>&1` or `/dev/null`. */
  writes: boolean;
}

/**
 * The command split into simple commands (at `|`, `&&`, `||`, `;` and newlines), each as its words with
 * quotes removed. One pass over the text.
 */
function segments(command: string): Segment[] {
  const result: Segment[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  let writes = false;
  let redirect = false;
  const endWord = (): void => {
    if (!inWord) return;
    if (redirect) {
      if (word !== '/dev/null' && !word.startsWith('&')) writes = true;
      redirect = false;
    } else words.push(word);
    word = '';
    inWord = false;
  };
  const endSegment = (): void => {
    endWord();
    if (words.length > 0 || writes) result.push({ words, writes });
    words = [];
    writes = false;
    redirect = false;
  };
  for (let i = 0; i < command.length; i += 1) {
    const c = command.charAt(i);
    if (quote !== null) {
      if (c === quote) quote = null;
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[i + 1];
      inWord = true;
      i += 1;
    } else if (c === ' ' || c === '\t') endWord();
    else if (c === '|' || c === ';' || c === '\n' || c === '&') {
      // `2>&1` and `&>`: the `&` belongs to a redirection; `&&` / a lone `&` ends the command.
      if (c === '&' && (redirect || command[i + 1] === '>')) {
        word += c;
        inWord = true;
        continue;
      }
      endSegment();
      if ((c === '|' || c === '&') && command[i + 1] === c) i += 1;
    } else if (c === '>' || c === '<') {
      // A descriptor number before `>` (`2>`) is part of the redirection, not a word.
      if (inWord && /^\d$/.test(word)) {
        word = '';
        inWord = false;
      } else endWord();
      redirect = c === '>';
      if (command[i + 1] === '>') i += 1;
    } else {
      word += c;
      inWord = true;
    }
  }
  endSegment();
  return result;
}

/** The program a simple command runs, past variable assignments, neutral wrappers and a path. */
function program(words: readonly string[]): { name: string; args: string[] } | null {
  const i = words.findIndex(
    (word, at) => !(/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.slice(0, 64)) || (RUNNERS.has(word) && at + 1 < words.length)),
  );
  const first = i < 0 ? undefined : words[i];
  if (first === undefined) return null;
  const slash = first.lastIndexOf('/');
  return { name: slash >= 0 ? first.slice(slash + 1) : first, args: words.slice(i + 1) };
}

function segmentReadsOnly(segment: Segment): boolean {
  if (segment.writes) return false;
  const run = program(segment.words);
  if (run === null) return true;
  if (NEUTRAL_PREFIXES.has(run.name)) return true;
  if (run.name === 'git') {
    const sub = run.args.find((arg) => !arg.startsWith('-'));
    if (sub === 'branch' || sub === 'remote') return run.args.length <= 2 && !run.args.some((a) => /^-[dDmM]$/.test(a));
    return sub !== undefined && READ_ONLY_GIT.has(sub) && !run.args.includes('--output');
  }
  if (!READ_ONLY_PROGRAMS.has(run.name)) return false;
  const writing = WRITING_FLAGS[run.name] ?? [];
  return !run.args.some((arg) => writing.some((flag) => arg === flag || (flag === '-i' && arg.startsWith('-i'))));
}

/**
 * Whether a command only explores: every simple command in it reads (or changes directory) and none
 * writes into a file. Read-only tool calls (`Read path`, `Grep pattern`) count too. An empty command is not.
 */
export function isExploration(command: string): boolean {
  const trimmed = command.trim();
  if (trimmed === '') return false;
  const [tool = ''] = trimmed.split(' ', 1);
  if (READ_ONLY_TOOLS.has(tool)) return true;
  const parts = segments(unwrapShell(trimmed));
  return parts.length > 0 && parts.every(segmentReadsOnly);
}

/** `bash -lc "…"` runs its argument: judge that. */
function unwrapShell(command: string): string {
  const word = command.slice(0, command.search(/\s|$/));
  if (!SHELL_WRAPPERS.has(word.slice(word.lastIndexOf('/') + 1))) return command;
  const [first] = segments(command);
  const run = first && program(first.words);
  if (!run || !SHELL_WRAPPERS.has(run.name)) return command;
  const flagAt = run.args.findIndex((arg) => /^-[a-z]*c[a-z]*$/.test(arg));
  return (flagAt >= 0 ? run.args[flagAt + 1] : undefined) ?? command;
}

/**
 * A search that ran fine and found nothing: `rg`/`grep` exit 1 with no output. Not a failure, whatever
 * the exit code says. The last simple command decides a pipeline's status, so it is the one looked at.
 */
export function isSearchWithoutMatch(command: string, exitCode: number | null, output: string): boolean {
  if (exitCode !== 1 || output.trim() !== '') return false;
  const parts = segments(unwrapShell(command.trim()));
  const last = parts.at(-1);
  const run = last && program(last.words);
  if (!run) return false;
  if (run.name === 'git') return run.args.find((arg) => !arg.startsWith('-')) === 'grep';
  return SEARCH_PROGRAMS.has(run.name);
}

/** The paths an exploring command reads (its file operands), for the "most read" list. */
export function explorationPaths(command: string): string[] {
  const trimmed = command.trim();
  const [tool = ''] = trimmed.split(' ', 1);
  if (tool === 'Read' || tool === 'LS') {
    const path = trimmed.slice(tool.length).trim();
    return path === '' ? [] : [path];
  }
  if (READ_ONLY_TOOLS.has(tool)) return [];
  const paths: string[] = [];
  for (const segment of segments(unwrapShell(trimmed))) {
    const run = program(segment.words);
    if (run === null || !READ_ONLY_PROGRAMS.has(run.name) || run.name === 'echo' || run.name === 'printf') continue;
    const operands = run.args.filter((arg) => !arg.startsWith('-'));
    // `head -n 50 a.ts`: a flag's number is not a path.
    paths.push(...(PATTERN_FIRST.has(run.name) ? operands.slice(1) : operands.filter((arg) => !isNumber(arg))));
  }
  return paths;
}

function isNumber(word: string): boolean {
  return word !== '' && [...word].every((c) => c >= '0' && c <= '9');
}

/**
 * The command's simple commands that do something, as word lists from their program on: neutral
 * prefixes (`cd x &&`), loop frames (`for i in 1 2`, `done`) and read-only steps (`| tail -3`) left out.
 */
function steps(command: string): string[][] {
  return segments(unwrapShell(command.trim())).flatMap((segment) => {
    const run = program(segment.words);
    if (run === null || NEUTRAL_PREFIXES.has(run.name) || SHELL_FRAME.has(run.name)) return [];
    if (segmentReadsOnly(segment)) return [];
    return [[run.name, ...run.args]];
  });
}

/** Steps compared per command at most: a longer command is a script, which no later command is judged to fix. */
const MAX_COMPARED_STEPS = 64;
/** Later commands tried per failure at most, nearest first: bounds a run of many commands of one program. */
const MAX_FIX_CANDIDATES = 64;

/**
 * The program and its first argument: a step that runs another again, the same or more broadly, shares
 * them, so that only steps with the same head are ever compared.
 */
function headOf(step: readonly string[]): string {
  return step.slice(0, 2).join('\u0000');
}

function sameStep(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, i) => word === b[i]);
}

/** `wider` runs the program of `narrow` with only some of its words. */
function broaderStep(wider: readonly string[], narrow: readonly string[]): boolean {
  if (wider.length < 2 || wider[0] !== narrow[0] || wider[1] !== narrow[1]) return false;
  const words = new Set(narrow);
  return wider.every((word) => words.has(word));
}

/** Every step of `before` ran again, the same or more broadly, in `after`. */
function runsAgain(before: readonly string[][], after: readonly string[][]): boolean {
  if (before.length === 0 || after.length === 0) return false;
  if (before.length > MAX_COMPARED_STEPS || after.length > MAX_COMPARED_STEPS) return false;
  const byHead = grouped(after.map((step) => [headOf(step), step] as const));
  return before.every((step) =>
    (byHead.get(headOf(step)) ?? []).some((other) => sameStep(step, other) || broaderStep(other, step)),
  );
}

/**
 * Whether `later`, run successfully after `failed` failed, shows the failure fixed: the same command;
 * a command that runs it among its steps (`cargo build && cargo test`); or the same program run more
 * broadly, with only some of its words (`pytest -q` after `pytest tests/test_x.py -q`, `npm test` after
 * `npm test -- shelves`).
 */
export function fixes(failed: string, later: string): boolean {
  return runsAgain(steps(failed), steps(later));
}

/** A command that succeeded, and when it ran: its place among a run's calls, or its run's ordinal. */
export interface Success {
  command: string;
  at: number;
}

/**
 * For commands that succeeded, the first one that ran after a failed command and fixes it (`fixes`),
 * found without comparing every pair: each distinct command is indexed, at its last success, by the
 * heads of its steps, and a failure is compared with the nearest later ones that share its first
 * step's head, at most MAX_FIX_CANDIDATES of them.
 */
export function laterFixes<T extends Success>(succeeded: readonly T[]): (failed: string, at: number) => T | undefined {
  const known = new Map<string, string[][]>();
  const stepsOf = (command: string): string[][] => {
    const found = known.get(command) ?? steps(command);
    known.set(command, found);
    return found;
  };
  const last = new Map<string, T>();
  for (const success of succeeded)
    if ((last.get(success.command)?.at ?? -Infinity) <= success.at) last.set(success.command, success);
  const inOrder = [...last.values()].sort((a, b) => a.at - b.at);
  const byHead = grouped(
    inOrder.flatMap((success) =>
      [...new Set(stepsOf(success.command).map(headOf))].map((head) => [head, success] as const),
    ),
  );
  return (failed, at) => {
    const before = stepsOf(failed);
    const later = before[0] === undefined ? [] : (byHead.get(headOf(before[0])) ?? []);
    const nearest = firstAfter(later, at);
    return later
      .slice(nearest, nearest + MAX_FIX_CANDIDATES)
      .find((success) => runsAgain(before, stepsOf(success.command)));
  };
}

function grouped<K, V>(entries: readonly (readonly [K, V])[]): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const [key, value] of entries) {
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [value]);
    else group.push(value);
  }
  return groups;
}

/** The position of the first success after `at` in a list in the order they ran (its length when none is). */
function firstAfter(inOrder: readonly Success[], at: number): number {
  let low = 0;
  let high = inOrder.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- low <= middle < high <= length
    if (inOrder[middle]!.at > at) high = middle;
    else low = middle + 1;
  }
  return low;
}
