// A handoff's continuity receipt: per kind of thing a successor must not lose, how many the covered
// runs hold at the moment of the handoff, how many the handoff's text keeps, and which it left out.
// Computed when the text is written, whoever wrote it (the local summarizer condensing to its budget,
// or a provider), and stored with the handoff, so "what did this handoff drop" is a query, not a guess.
import { currentState, type SummaryInput } from './summary.js';

export const RECEIPT_KINDS = ['files', 'commands', 'failures', 'todos', 'questions'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

/** At most this many omitted items are named per kind; `held - kept` says how many there are. */
export const RECEIPT_OMITTED_MAX = 20;
/** An item counts as kept when the text holds its opening: enough to name it, short enough to survive a cut line. */
const IDENTIFYING_CHARS = 60;
const OMITTED_ITEM_MAX = 200;

export interface ReceiptLine {
  held: number;
  kept: number;
  /** The first RECEIPT_OMITTED_MAX items the text left out, as the covered runs name them. */
  omitted: string[];
}

export type HandoffReceipt = Record<ReceiptKind, ReceiptLine>;

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * What the covered runs hold of each kind, by the same reading the local summary uses (src/domain/summary.ts,
 * `currentState`): files in their final state, state-changing and verifying commands (not exploration),
 * unresolved failures, the last plan's open todos, questions and approvals still open.
 */
function heldItems(input: SummaryInput): Record<ReceiptKind, string[]> {
  const state = currentState(input);
  return {
    files: state.files.map((file) => file.path),
    commands: state.commands.map((command) => command.command),
    failures: state.failures.filter((failure) => failure.fixedInRun === null).map((failure) => failure.what),
    todos: state.todos.map((todo) => todo.text),
    questions: state.questions.map((question) => question.text),
  };
}

/** The receipt of `text` as a handoff of `input`'s runs. Matching ignores case and whitespace. */
export function receiptFor(input: SummaryInput, text: string): HandoffReceipt {
  const haystack = collapse(text).toLowerCase();
  const held = heldItems(input);
  const line = (items: string[]): ReceiptLine => {
    const omitted = [...new Set(items.map(collapse))].filter(
      (item) => item !== '' && !haystack.includes(item.slice(0, IDENTIFYING_CHARS).toLowerCase()),
    );
    const distinct = new Set(items.map(collapse).filter((item) => item !== '')).size;
    return {
      held: distinct,
      kept: distinct - omitted.length,
      omitted: omitted
        .slice(0, RECEIPT_OMITTED_MAX)
        .map((item) => (item.length <= OMITTED_ITEM_MAX ? item : `${item.slice(0, OMITTED_ITEM_MAX - 1)}…`)),
    };
  };
  return {
    files: line(held.files),
    commands: line(held.commands),
    failures: line(held.failures),
    todos: line(held.todos),
    questions: line(held.questions),
  };
}
