// The bytes one instance sends for one change, bounded (docs/live-updates.md). A change's event is
// resolved once per tenant and selection, but sent to every subscriber, so without a bound a thread
// with many subscribers on long runs makes one change cost subscribers x answer bytes. Each
// subscriber of the change gets an equal share of the change's budget (at most the per-event limit);
// an answer over its share is withheld: the subscriber gets the event without its thread, and reads
// the thread again. Shares keep a small selection whole whatever the others ask; the running total
// keeps the bound when subscribers come and go while one change is delivered.
import type { ThreadChangeWithheld } from '../operations/changeFeed.js';

export interface FanOutLimits {
  /** The most bytes one subscriber's event may have. */
  eventMaxBytes: number;
  /** The most bytes of whole events this instance sends for one change, to all its subscribers. */
  changeMaxBytes: number;
}

/** How long a change's spending is remembered: well past the time its subscribers take it. */
const CHANGE_WINDOW_MS = 60_000;

export class FanOutBudget {
  private readonly spent = new Map<string, number>();

  constructor(private readonly limits: FanOutLimits) {}

  /** The most bytes one of `subscribers` subscribers of a change may be sent whole. */
  share(subscribers: number): number {
    return Math.min(this.limits.eventMaxBytes, Math.floor(this.limits.changeMaxBytes / Math.max(1, subscribers)));
  }

  /** Why an answer that did not fit `share(subscribers)` (its size unknown past that) is withheld. */
  overShare(subscribers: number): ThreadChangeWithheld {
    return this.share(subscribers) < this.limits.eventMaxBytes ? 'fan_out_budget' : 'event_too_large';
  }

  /**
   * Whether an answer of `bytes` for change `change` goes out whole to one of its `subscribers`: null,
   * and its bytes are spent; else why it is withheld.
   */
  admit(change: string, bytes: number, subscribers: number): ThreadChangeWithheld | null {
    if (bytes > this.limits.eventMaxBytes) return 'event_too_large';
    const spent = this.spent.get(change) ?? this.open(change);
    if (bytes > this.share(subscribers) || spent + bytes > this.limits.changeMaxBytes) return 'fan_out_budget';
    this.spent.set(change, spent + bytes);
    return null;
  }

  private open(change: string): number {
    this.spent.set(change, 0);
    setTimeout(() => this.spent.delete(change), CHANGE_WINDOW_MS).unref();
    return 0;
  }
}
