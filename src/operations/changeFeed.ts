// Live updates across instances without a change feed from Neo4j (Community has none): every operation
// records its change in the graph, in its own transaction (src/graph/repositories/changes.ts), and each
// instance polls the graph for the threads it has subscribers for, with one range seek per thread, and
// hands the changes to them. docs/live-updates.md describes the design.
import type { ThreadChangeRecord } from '../domain/changes.js';
import { notFound } from '../domain/errors.js';
import { changeHead, changesSince, type Watch } from '../graph/repositories/changes.js';
import type { BackgroundRunner, Graph } from '../graph/transactions.js';

/** Why an event goes out without its thread: the fan-out's byte budget (src/server/fanOutBudget.ts). */
export type ThreadChangeWithheld = 'event_too_large' | 'fan_out_budget';

/** One change as a subscriber receives it. */
export interface ThreadChangeEvent extends ThreadChangeRecord {
  /** Changes between the subscriber's last one and this one left the feed before it saw them. */
  resync: boolean;
  /** Set on the event sent in place of one over the fan-out's budget: its thread is not read. */
  withheld?: ThreadChangeWithheld;
}

/**
 * Events a subscriber has not taken yet. A subscriber that falls this far behind loses the oldest
 * ones, and the next it takes says `resync`.
 */
const MAX_QUEUED_EVENTS = 100;

class Subscriber implements AsyncIterableIterator<ThreadChangeEvent> {
  private readonly queue: ThreadChangeEvent[] = [];
  private waiting: ((result: IteratorResult<ThreadChangeEvent>) => void) | null = null;
  private dropped = false;
  private ended = false;

  constructor(
    /** The newest change this subscriber has been given (or did not want: the head when it subscribed). */
    public cursor: number,
    private readonly leave: (subscriber: Subscriber) => void,
  ) {}

  offer(change: ThreadChangeRecord): void {
    if (this.ended || change.sequence <= this.cursor) return;
    const event = { ...change, resync: change.sequence > this.cursor + 1 };
    this.cursor = change.sequence;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: event, done: false });
      return;
    }
    this.queue.push(event);
    if (this.queue.length > MAX_QUEUED_EVENTS) {
      this.queue.shift();
      this.dropped = true;
    }
  }

  next(): Promise<IteratorResult<ThreadChangeEvent>> {
    const event = this.queue.shift();
    if (event) {
      const resync = event.resync || this.dropped;
      this.dropped = false;
      return Promise.resolve({ value: { ...event, resync }, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<ThreadChangeEvent>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    this.leave(this);
    this.waiting?.({ value: undefined, done: true });
    this.waiting = null;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

export interface ChangeFeedOptions {
  /** How often the graph is polled while this instance has subscribers. */
  pollIntervalMs: number;
  /** Told about a poll that failed; the next poll tries again. */
  pollFailed(error: unknown): void;
}

/** This instance's subscribers, by thread, and the poll that feeds them. */
export class ChangeFeed {
  private readonly watched = new Map<string, { tenant: string; threadId: string; subscribers: Set<Subscriber> }>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private closed = false;

  /** Each poll reads the changes of every tenant's watched threads, as background work; each watch names its tenant. */
  constructor(
    private readonly inBackground: BackgroundRunner,
    private readonly options: ChangeFeedOptions,
  ) {}

  /**
   * The changes of thread `threadId` of the graph's tenant from now on, or after `afterSequence`
   * (those the feed still keeps, the first marked `resync` when older ones are gone). NOT_FOUND when
   * the tenant has no such thread, as for every other read.
   */
  async subscribe(
    graph: Graph,
    threadId: string,
    afterSequence: number | null,
  ): Promise<AsyncIterableIterator<ThreadChangeEvent>> {
    const head = await graph.read((tx) => changeHead(tx, threadId));
    if (head === null) throw notFound('Thread', threadId);
    const key = `${graph.tenant}\u0000${threadId}`;
    const watch = this.watched.get(key) ?? { tenant: graph.tenant, threadId, subscribers: new Set<Subscriber>() };
    this.watched.set(key, watch);
    const subscriber = new Subscriber(Math.min(afterSequence ?? head, head), (gone) => {
      watch.subscribers.delete(gone);
      if (watch.subscribers.size === 0 && this.watched.get(key) === watch) this.watched.delete(key);
    });
    watch.subscribers.add(subscriber);
    if (this.closed) subscriber.end();
    else this.schedule();
    return subscriber;
  }

  /** How many subscriptions it feeds for one thread of one tenant. */
  subscribersOf(tenant: string, threadId: string): number {
    return this.watched.get(`${tenant}\u0000${threadId}`)?.subscribers.size ?? 0;
  }

  /** How many subscriptions it feeds. */
  subscriberCount(): number {
    let count = 0;
    for (const watch of this.watched.values()) count += watch.subscribers.size;
    return count;
  }

  /** Ends every subscription and stops polling; waits for a poll under way. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const watch of [...this.watched.values()]) for (const subscriber of [...watch.subscribers]) subscriber.end();
    await this.polling;
  }

  private schedule(): void {
    if (this.timer || this.polling || this.closed || this.watched.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.poll()
        .catch((error: unknown) => this.options.pollFailed(error))
        .finally(() => {
          this.polling = null;
          this.schedule();
        });
    }, this.options.pollIntervalMs);
  }

  private async poll(): Promise<void> {
    const watches: Watch[] = [...this.watched.values()].map(({ tenant, threadId, subscribers }) => ({
      tenant,
      threadId,
      after: Math.min(...[...subscribers].map((subscriber) => subscriber.cursor)),
    }));
    if (watches.length === 0) return;
    const changes = await this.inBackground(
      'poll thread changes',
      (rootGraph) => rootGraph.read((tx) => changesSince(tx, watches)),
      (read) => ({ 'threadline.changes': read.length, 'threadline.watched_threads': watches.length }),
    );
    for (const change of changes) {
      for (const subscriber of this.watched.get(`${change.tenant}\u0000${change.threadId}`)?.subscribers ?? [])
        subscriber.offer(change);
    }
  }
}
