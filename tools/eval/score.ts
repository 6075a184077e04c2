// Scores a delivered handoff text against the ground truth of the raw session files
// (tools/eval/groundTruth.ts). Pure. What counts as kept, for each kind:
// - a file: its path at the head of a list item (or of a clause of one) that states its final state,
//   or under a heading about files that does; named so with another state only, it is kept with a
//   wrong final state (and is stale when the truth says deleted or renamed). A path named in passing
//   (a run's prose, a command) states nothing;
// - a command: its identifying opening (the command up to 80 characters, cut before anything shaped
//   like a secret, which a handoff must redact);
// - an unresolved failure: its command or path on a line, or under a heading, that says it fails;
// - an open todo: its text (up to 80 characters);
// - the last user request: its text (up to 400 characters), whitespace collapsed;
// - stale: a fixed failure shown as failing, an answered question shown as open, a completed todo
//   shown as open, a deleted or renamed file shown as present, a search with no match shown as failing;
// - leaks: the opening of any reasoning or thinking text of the files, or an injected-context marker.
import type { FinalState, GroundTruth } from './groundTruth.js';

export const KINDS = ['files', 'commands', 'failures', 'todos', 'request'] as const;
export type Kind = (typeof KINDS)[number];

export interface Share {
  kept: number;
  total: number;
}

export interface Score {
  kinds: Record<Kind, Share>;
  /** Files named with a final state other than the truth's. */
  wrongState: string[];
  stale: string[];
  /** What the text holds that no handoff may: reasoning, injected context. */
  leaks: string[];
  /** What the text lost, per kind. */
  missing: { kind: Kind; item: string }[];
}

const COMMAND_CHARS = 80;
const TODO_CHARS = 80;
const REQUEST_CHARS = 400;
const QUESTION_CHARS = 80;

const STATE_WORDS: Record<FinalState, RegExp> = {
  added: /\badd(ed|s)?\b|\bcreat(ed|es|e)\b|\bnew\b/i,
  modified: /\bmodif(ied|y|ies)\b|\bupdat(ed|e|es)\b|\bedit(ed|s)?\b|\bchang(ed|e|es)\b/i,
  deleted: /\bdelet(ed|e|es)\b|\bremov(ed|e|es)\b/i,
  renamed: /\brenam(ed|e|es)\b|\bmov(ed|e|es)\b/i,
};
const FAILING = /\bfail(ed|s|ing|ure|ures)?\b|\berror\b|\bexit(ed)?( code)? ?[1-9]\d*\b|✗|\bbroken\b|\bunresolved\b/i;
const SETTLED =
  /\bfixed\b|\bresolved\b|\bpass(ed|es|ing)?\b|\bnow (green|passes|ok)\b|\bexit(ed)?( code)? ?0\b|\bsucceed(ed|s)?\b/i;
const OPEN = /\[open\]|\bopen\b|\bpending\b|\bin[ _]progress\b|\bunanswered\b|\[ \]|\btodo\b/i;
const CLOSED = /\banswered\b|\bclosed\b|\bresolved\b|\bdone\b|\bcompleted?\b|\[x\]/i;

// Context the harnesses inject into user messages: never the user's words, never a handoff's.
const INJECTED = [
  '<environment_context>',
  '<system-reminder>',
  '<user_instructions>',
  '<INSTRUCTIONS>',
  '# AGENTS.md instructions',
];

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Each line of the text with the nearest heading above it (a Markdown heading or a line ending in a colon). */
function linesWithHeadings(text: string): { line: string; heading: string }[] {
  let heading = '';
  return text.split('\n').map((line) => {
    const trimmed = line.trim();
    if (/^#{1,6}\s/.test(trimmed) || (/:$/.test(trimmed) && trimmed.length < 80)) heading = trimmed;
    return { line: collapse(line), heading };
  });
}

/** The clause of a line that names `needle`: the line split at `; `, `, ` and ` | ` between items. */
function clauseOf(line: string, needle: string): string {
  const clauses = line.split(/;\s|,\s(?=\S+\s\()|\s\|\s/);
  return clauses.find((clause) => clause.includes(needle)) ?? line;
}

/** The opening of a command that identifies it, cut before a word shaped like a secret. */
export function commandOpening(command: string): string {
  const words = collapse(command).split(' ');
  const secret = words.findIndex((word) => /^(sk-|ghp_|gho_|xox[bp]-|AKIA|tok[A-Z0-9])|[A-Za-z0-9_-]{32,}/.test(word));
  const kept = secret < 0 ? words : words.slice(0, Math.max(1, secret));
  return kept.join(' ').slice(0, COMMAND_CHARS);
}

export function scoreHandoff(truth: GroundTruth, text: string): Score {
  const lines = linesWithHeadings(text);
  const flat = collapse(text);
  const naming = (needle: string) => lines.filter(({ line }) => line.includes(needle));
  const missing: Score['missing'] = [];
  const stale: string[] = [];
  const wrongState: string[] = [];
  const share = (kind: Kind, items: { item: string; kept: boolean }[]): Share => {
    for (const { item, kept } of items) if (!kept) missing.push({ kind, item });
    return { kept: items.filter((entry) => entry.kept).length, total: items.length };
  };

  const files = share(
    'files',
    truth.files.map((file) => {
      const claims = naming(file.path).flatMap(({ line, heading }) => {
        const clause = clauseOf(line, file.path);
        if (!claimsState(clause, file.path, file.from) && !/\bfiles?\b/i.test(heading)) return [];
        const stated = (Object.keys(STATE_WORDS) as FinalState[]).filter((state) => STATE_WORDS[state].test(clause));
        const states =
          stated.length > 0
            ? stated
            : (Object.keys(STATE_WORDS) as FinalState[]).filter((state) => STATE_WORDS[state].test(heading));
        const right = states.includes(file.state) || (file.from !== null && clause.includes(file.from));
        return [{ right, states }];
      });
      const right = claims.some((claim) => claim.right);
      if (!right && claims.some((claim) => claim.states.length > 0)) {
        wrongState.push(`${file.path} (${file.state})`);
        if (file.state === 'deleted' || file.state === 'renamed') stale.push(`file ${file.path} shown as present`);
      }
      return { item: `${file.path} (${file.state})`, kept: right };
    }),
  );

  const commands = share(
    'commands',
    truth.commands.map((command) => ({ item: command.command, kept: flat.includes(commandOpening(command.command)) })),
  );
  for (const command of truth.commands.filter((entry) => entry.ok && entry.fixed)) {
    const opening = commandOpening(command.command);
    const shownFailing = naming(opening).some(({ line, heading }) => {
      const clause = clauseOf(line, opening);
      if (SETTLED.test(clause)) return false;
      return FAILING.test(clause.replace(opening, '')) || (FAILING.test(heading) && !SETTLED.test(heading));
    });
    if (shownFailing) stale.push(`fixed failure shown as failing: ${command.command}`);
  }

  for (const search of truth.searchesWithoutMatch) {
    const opening = commandOpening(search);
    const shownFailing = naming(opening).some(({ line, heading }) => {
      const clause = clauseOf(line, opening);
      return /\bfail(ed|s|ure|ures)?\b/i.test(clause.replace(opening, '')) || /fail/i.test(heading);
    });
    if (shownFailing) stale.push(`search without a match shown as a failure: ${search}`);
  }

  const failures = share(
    'failures',
    truth.unresolvedFailures.map((failure) => {
      const needle = failure.kind === 'command' ? commandOpening(failure.target) : failure.target;
      const kept = naming(needle).some(({ line, heading }) => {
        const clause = clauseOf(line, needle).replace(needle, '');
        return FAILING.test(clause) || FAILING.test(heading);
      });
      return { item: failure.target, kept };
    }),
  );

  const todos = share(
    'todos',
    truth.openTodos.map((todo) => ({ item: todo, kept: flat.includes(collapse(todo).slice(0, TODO_CHARS)) })),
  );
  for (const todo of truth.doneTodos) {
    const needle = collapse(todo).slice(0, TODO_CHARS);
    if (naming(needle).some(({ line, heading }) => shownOpen(clauseOf(line, needle), heading)))
      stale.push(`completed todo shown as open: ${todo}`);
  }
  for (const question of truth.answeredQuestions) {
    const needle = collapse(question).slice(0, QUESTION_CHARS);
    if (naming(needle).some(({ line, heading }) => shownOpen(clauseOf(line, needle), heading)))
      stale.push(`answered question shown as open: ${question}`);
  }

  const request =
    truth.lastUserRequest === null
      ? { kept: 0, total: 0 }
      : share('request', [
          {
            item: truth.lastUserRequest,
            kept: flat.includes(collapse(truth.lastUserRequest).slice(0, REQUEST_CHARS)),
          },
        ]);

  const leaks = [...truth.reasoning, ...INJECTED].filter((opening) => flat.includes(opening));
  return { kinds: { files, commands, failures, todos, request }, wrongState, stale, leaks, missing };
}

const STATE_LEAD =
  /^((file|added|created|new|modified|updated|edited|changed|deleted|removed|renamed|moved)\b[\s:]*)+$/i;

/**
 * A list item or clause about the path itself: it starts with the path (or a rename's old path and an
 * arrow), or with state words and then the path ("Deleted: a.ts").
 */
function claimsState(clause: string, path: string, from: string | null): boolean {
  const head = clause.replace(/^[-*•]\s*(\[.\]\s*)?/, '').replace(/`/g, '');
  const at = head.indexOf(path);
  if (at === 0) return true;
  if (from !== null && head.startsWith(from) && /^\s*(→|->|to)\s*$/.test(head.slice(from.length, at))) return true;
  return at > 0 && STATE_LEAD.test(head.slice(0, at));
}

function shownOpen(clause: string, heading: string): boolean {
  if (CLOSED.test(clause)) return false;
  return OPEN.test(clause) || (OPEN.test(heading) && !CLOSED.test(heading));
}

/** Sums of several scores, kind by kind. */
export function totalOf(scores: readonly Score[]): Score {
  const kinds = Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      scores.reduce(
        (sum, score) => ({ kept: sum.kept + score.kinds[kind].kept, total: sum.total + score.kinds[kind].total }),
        {
          kept: 0,
          total: 0,
        },
      ),
    ]),
  ) as Record<Kind, Share>;
  return {
    kinds,
    wrongState: scores.flatMap((score) => score.wrongState),
    stale: scores.flatMap((score) => score.stale),
    leaks: scores.flatMap((score) => score.leaks),
    missing: scores.flatMap((score) => score.missing),
  };
}

/** The default-budget targets of issue 26: share of each kind kept, and nothing wrong or stale. */
const TARGETS: Record<Kind, number> = { files: 0.95, commands: 0.9, failures: 1, todos: 1, request: 1 };

/** The second budget every case is scored at besides the providers' own, in characters: a tight one. */
export const TIGHT_BUDGET = 4_000;

export function missedTargets(total: Score): string[] {
  const missed = KINDS.filter((kind) => {
    const { kept, total: all } = total.kinds[kind];
    return all > 0 && kept / all < TARGETS[kind];
  }).map((kind) => `${kind}: ${total.kinds[kind].kept} of ${total.kinds[kind].total}, target ${TARGETS[kind] * 100}%`);
  if (total.wrongState.length > 0) missed.push(`files with a wrong final state: ${total.wrongState.length}`);
  if (total.stale.length > 0) missed.push(`stale items: ${total.stale.length}`);
  if (total.leaks.length > 0) missed.push(`leaks: ${total.leaks.length}`);
  return missed;
}
