// File changes a successful shell command made on its own: `rm`, `git rm`, `mv`, `git mv` and
// `sed -i` of named paths. Agents delete and rename files this way as often as with their edit tools;
// without it, a file an edit tool added and `rm` removed would read as added.
import type { FileEdit } from './activity.js';

// A path the shell would expand or substitute is not a path we can name.
const EXPANDED = /[*?[\]{}$`~]/;
// Sequential parts of a command line (`&&`, `;`, a newline, outside quotes); a pipe or a redirection
// outside quotes makes the line too unusual to read.
const UNUSUAL = /[|<>()]/;
const SED_SCRIPT_OPTIONS = new Set(['-e', '--expression', '-f', '--file']);

/** The deletions, renames and in-place edits a command line made, when every part of it is simple enough to read. */
export function shellFileEdits(command: string): FileEdit[] {
  const parts = sequentialParts(command);
  if (parts === null) return [];
  return parts.flatMap((part) => partEdits(words(part)));
}

/** The command split at `&&`, `;` and newlines outside quotes; null when it holds anything unusual. */
function sequentialParts(command: string): string[] | null {
  const parts: string[] = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < command.length; i += 1) {
    const c = command.charAt(i);
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (UNUSUAL.test(c)) return null;
    else if (c === ';' || c === '\n' || (c === '&' && command[i + 1] === '&')) {
      parts.push(command.slice(start, i));
      if (c === '&') i += 1;
      start = i + 1;
    } else if (c === '&') return null;
  }
  parts.push(command.slice(start));
  return parts;
}

function partEdits(argv: string[] | null): FileEdit[] {
  if (argv === null || argv.length === 0) return [];
  const [program, ...rest] = argv;
  const git = program === 'git' ? rest.shift() : null;
  const tool = git === null ? program : `git ${git}`;
  const operands = tool === 'sed' ? sedFiles(rest) : rest.filter((arg) => !arg.startsWith('-'));
  if (operands.some((path) => EXPANDED.test(path))) return [];
  switch (tool) {
    case 'rm':
    case 'git rm':
      // `git rm --cached` keeps the file on disk; a recursive remove names folders, not files.
      if (rest.some((arg) => arg === '--cached' || arg === '--recursive' || /^-\w*[rR]/.test(arg))) return [];
      return operands.map((path) => edit(path, 'deleted'));
    case 'mv':
    case 'git mv': {
      const [from, to] = operands;
      if (operands.length !== 2 || from === undefined || to === undefined || to.endsWith('/')) return [];
      return [{ path: to, change: 'renamed', additions: 0, deletions: 0, previousPath: from }];
    }
    case 'sed':
      return operands.map((path) => edit(path, 'modified'));
    default:
      return [];
  }
}

/** The files `sed -i` edits in place: its operands, less the first when that is the script (no -e, -f). */
function sedFiles(args: string[]): string[] {
  if (!args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place'))) return [];
  const operands: string[] = [];
  let scriptOption = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (SED_SCRIPT_OPTIONS.has(arg)) {
      scriptOption = true;
      index += 1;
    } else if (!arg.startsWith('-')) operands.push(arg);
  }
  return scriptOption ? operands : operands.slice(1);
}

function edit(path: string, change: 'deleted' | 'modified'): FileEdit {
  return { path, change, additions: change === 'deleted' ? 0 : null, deletions: null, previousPath: null };
}

/** Shell words with plain quoting; null when the part uses anything more (escapes, unbalanced quotes). */
function words(part: string): string[] | null {
  const result: string[] = [];
  for (const match of part.trim().matchAll(/'([^']*)'|"([^"\\$`]*)"|([^\s'"\\]+)|(\S)/g)) {
    if (match[4] !== undefined) return null;
    result.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  return result;
}
