// The viewer's GraphQL documents, each typed by graphql-codegen from its own text (codegen.ts reads
// the documents marked GraphQL below and validates them against schema/; `npm run codegen:check`
// fails when a generated type lags behind). No DOM here: the tests and the bench send these very texts.
import type * as Operations from './generated/graphql.js';

/** A document's text with the types of its answer and variables, which `request` infers from it. */
export type Query<Result, Variables> = string & { readonly __answer?: Result; readonly __variables?: Variables };

const query = <Result, Variables>(text: string) => text as Query<Result, Variables>;

/** Runs read per window (also the default of the queries' $last). */
export const WINDOW_RUNS = 200;
/** The widest ordinal range Thread.handoffs and Thread.transfers answer at once. */
const LINKS_RANGE = 1000;

/** Ordinals from..to in the ranges LINKS_QUERY is asked for, one request each. */
export function linkRanges(from: number, to: number): { from: number; to: number }[] {
  const ranges = [];
  for (let start = from; start <= to; start += LINKS_RANGE)
    ranges.push({ from: start, to: Math.min(to, start + LINKS_RANGE - 1) });
  return ranges;
}

// Each query is complete with $id alone, the other variables optional: test/reliability/hostile-input.test.ts
// sends every *_QUERY of this module that way to check it stays within the service's query limits.
// The thread's header and its newest window of runs (ThreadEarlierRuns reads the same fields of each run).
export const THREAD_QUERY = query<Operations.ThreadWindowQuery, Operations.ThreadWindowQueryVariables>(/* GraphQL */ `
  query ThreadWindow($id: ID!, $last: Int = 200) {
    thread(id: $id) {
      id
      title
      headOrdinal
      changeSequence
      lineage {
        parent {
          id
          title
        }
        relationshipToParent
        sourcePoint {
          runOrdinal
          checkpointId
        }
      }
      ancestors {
        id
        title
      }
      providerThreadCount
      runs(last: $last) {
        pageInfo {
          hasPreviousPage
          startCursor
        }
        edges {
          node {
            id
            ordinal
            provider
            status
            providerThread {
              id
            }
            plan {
              decision
              providerThreadAction
            }
          }
        }
      }
    }
  }
`);

export const EARLIER_RUNS_QUERY = query<Operations.ThreadEarlierRunsQuery, Operations.ThreadEarlierRunsQueryVariables>(
  /* GraphQL */ `
    query ThreadEarlierRuns($id: ID!, $last: Int = 200, $before: String) {
      thread(id: $id) {
        runs(last: $last, before: $before) {
          pageInfo {
            hasPreviousPage
            startCursor
          }
          edges {
            node {
              id
              ordinal
              provider
              status
              providerThread {
                id
              }
              plan {
                decision
                providerThreadAction
              }
            }
          }
        }
      }
    }
  `,
);

export const LINKS_QUERY = query<Operations.ThreadWindowLinksQuery, Operations.ThreadWindowLinksQueryVariables>(
  /* GraphQL */ `
    query ThreadWindowLinks($id: ID!, $from: Int, $to: Int) {
      thread(id: $id) {
        handoffs(fromOrdinal: $from, toOrdinal: $to) {
          id
          targetRunId
          fromProviderThreadIds
          toProviderThreadId
          coveredRunOrdinals {
            from
            to
          }
          strategy
          status
          createdAt
        }
        transfers(fromOrdinal: $from, toOrdinal: $to) {
          id
          kind
          sourceThreadId
          targetThreadId
          sourcePoint {
            runOrdinal
          }
          basePoint {
            runOrdinal
          }
          status
          resolution
          createdAt
          handoff {
            id
            targetRunId
          }
        }
        forks(first: 100, fromOrdinal: $from, toOrdinal: $to) {
          id
          title
          lineage {
            sourcePoint {
              runOrdinal
              checkpointId
            }
          }
        }
        subagents(first: 100, fromOrdinal: $from, toOrdinal: $to) {
          id
          title
          lineage {
            sourcePoint {
              runOrdinal
            }
          }
        }
        providerThreads(fromOrdinal: $from, toOrdinal: $to, first: 500) {
          id
          provider
          seq
          status
          nativeThreadRef
          model
          runtimeMode
          createdAt
          forkedFrom {
            id
            threadId
            provider
          }
          coverage(fromOrdinal: $from, toOrdinal: $to) {
            nativeRanges {
              from
              to
            }
            missingRanges {
              from
              to
            }
            coveredThroughOrdinal
            handoffIds
          }
        }
      }
    }
  `,
);

// The details panels read a run's or a handoff's texts cut to what they show (a run may hold two
// 100,000-character messages and 500 facts of 20,000 characters), with the whole lengths to say so.
export const RUN_DETAILS_QUERY = query<Operations.RunDetailsQuery, Operations.RunDetailsQueryVariables>(/* GraphQL */ `
  query RunDetails($id: ID!) {
    run(id: $id) {
      id
      model
      runtimeMode
      userMessage(maxChars: 2000)
      userMessageLength
      assistantMessage(maxChars: 2000)
      assistantMessageLength
      error
      createdAt
      completedAt
      contextHandoff {
        id
      }
      factCount
      facts(first: 40) {
        kind
        text(maxChars: 600)
        textLength
        status
      }
      plan {
        handoffStrategy
        coveredRunOrdinals {
          from
          to
        }
        stalenessSignals
        reasons
      }
    }
  }
`);

export const HANDOFF_DETAILS_QUERY = query<Operations.HandoffDetailsQuery, Operations.HandoffDetailsQueryVariables>(
  /* GraphQL */ `
    fragment ReceiptLineParts on ReceiptLine {
      held
      kept
      omitted
    }

    query HandoffDetails($id: ID!) {
      contextHandoff(id: $id) {
        id
        summaryText(maxChars: 20000)
        createdByProvider
        delivery
        source
        length
        budgetChars
        omissions
        failureReason
        receipt {
          files {
            ...ReceiptLineParts
          }
          commands {
            ...ReceiptLineParts
          }
          failures {
            ...ReceiptLineParts
          }
          todos {
            ...ReceiptLineParts
          }
          questions {
            ...ReceiptLineParts
          }
        }
        supersedes {
          id
        }
        supersededBy {
          id
        }
      }
    }
  `,
);

/** What the queries above ask for, in characters (Unicode code points), and how many facts. */
export const SHOWN = { message: 2000, factText: 600, facts: 40, summary: 20000 };

// Not a *_QUERY: it goes over the WebSocket (live.ts), never as an HTTP POST.
// The thread's changes after the one its first paint read (Thread.changeSequence): each redraws it.
export const FOLLOW_SUBSCRIPTION = query<
  Operations.FollowThreadSubscription,
  Operations.FollowThreadSubscriptionVariables
>(/* GraphQL */ `
  subscription FollowThread($id: ID!, $after: Int) {
    threadChanged(threadId: $id, afterSequence: $after) {
      sequence
      kind
      resync
    }
  }
`);

/** Threads per page of the thread index (GET /). */
export const INDEX_PAGE = 25;

// The thread index: one page of the tenant's threads, newest first, narrowed as the search form says.
export const THREAD_INDEX_QUERY = query<Operations.ThreadIndexQuery, Operations.ThreadIndexQueryVariables>(
  /* GraphQL */ `
    query ThreadIndex($filter: ThreadFilter, $first: Int = 25, $after: String) {
      threads(filter: $filter, first: $first, after: $after) {
        edges {
          node {
            id
            title
            project
            providers
            runCount
            lastActivityAt
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
);
