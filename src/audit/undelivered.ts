/**
 * What an audit writer has not delivered, in words. A module of its own: a decision's audit outcome
 * needs only this, and a dispatch without audit sinks then loads none of the queue (queue.ts).
 */
import type { QueueStats } from './queue.js';

/** What has not reached its sink, one clause per sink that holds, failed or dropped records; '' when nothing. */
export function undelivered(stats: ReadonlyArray<QueueStats & { sink: string }>): string {
  return stats
    .filter((s) => s.queued > 0 || s.dropped > 0 || s.lastError !== undefined)
    .map((s) => {
      const what = [s.queued > 0 ? `${s.queued} record(s) not written yet` : '', s.dropped > 0 ? `${s.dropped} dropped` : '']
        .filter(Boolean)
        .join(', ');
      return `${s.sink}${s.lastError !== undefined ? ` failed (${s.lastError})` : ''}${what ? `: ${what}` : ''}`;
    })
    .join('; ');
}
