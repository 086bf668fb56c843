/**
 * A bounded, batching write queue between the engine and one audit sink. push() never waits and
 * never throws, so a slow or dead sink cannot hold a decision. Records wait in a buffer of fixed
 * capacity; a failed batch goes back to the front and is retried with backoff; what does not fit
 * is dropped, counted, and reported through onDrop (a warning and a metric), never silently.
 */
export interface BatchQueueOptions<T> {
  /** Writes one batch; a rejection keeps the batch queued for a retry. */
  write: (batch: T[]) => Promise<void>;
  /** Records held at most while the sink is slow or down (default 10,000). */
  capacity?: number;
  /** Records per write (default 500). */
  batchSize?: number;
  /** Wait this long for more records before writing a partial batch (ms, default 50). */
  flushMs?: number;
  /** Retry backoff after a failed write: doubles from this, capped at maxBackoffMs (ms, default 100 / 5000). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Called for every record that did not fit, with the running total. */
  onDrop?: (dropped: number, total: number) => void;
  /** Called when a write fails (once per outage: again only after a write succeeded). */
  onError?: (err: Error) => void;
}

export interface QueueStats {
  queued: number;
  written: number;
  dropped: number;
  failedWrites: number;
}

export interface BatchQueue<T> {
  push(record: T): void;
  /**
   * Write what is queued; resolves when the buffer is empty, when a write fails after close began
   * (no retries at exit), or after `timeoutMs` (records left are counted as dropped).
   */
  close(timeoutMs?: number): Promise<void>;
  /**
   * Resolves when every record pushed so far has been written (or dropped), or when a write
   * fails meanwhile: a flush tries the sink at once, but never waits on a dead one (retries run
   * on timers that do not keep a process alive); close() gives up on what is left and counts it.
   */
  flush(): Promise<void>;
  stats(): QueueStats;
  /**
   * Resolves true once every record pushed before the call has been written (records keep their
   * order, so a later batch cannot overtake), false after `timeoutMs`, or at once when the sink is
   * failing or a record was dropped: a caller may wait for its audit, but never on a dead sink.
   */
  settled(timeoutMs: number): Promise<boolean>;
}

export function createBatchQueue<T>(options: BatchQueueOptions<T>): BatchQueue<T> {
  const capacity = Math.max(1, options.capacity ?? 10_000);
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const flushMs = options.flushMs ?? 50;
  const baseBackoff = options.backoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5000;
  let buffer: T[] = [];
  const stats: QueueStats = { queued: 0, written: 0, dropped: 0, failedWrites: 0 };
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let backoff = 0;
  let inOutage = false;
  let closed = false;
  let abandoned = false;
  let waiters: Array<() => void> = [];
  // flush() callers, each with the first write that started after it: that write failing ends the wait.
  let flushWaiters: Array<{ from: number; resolve: () => void }> = [];
  let writesStarted = 0;
  // Sequence numbers for settled(): records pushed, and records done (written or dropped) in order.
  let pushedSeq = 0;
  let doneSeq = 0;
  let lastDropSeq = -1;
  let seqWaiters: Array<{ target: number; resolve: (ok: boolean) => void }> = [];
  const settleSeq = () => {
    if (seqWaiters.length === 0) return;
    seqWaiters = seqWaiters.filter((w) => {
      if (doneSeq < w.target) return true;
      w.resolve(lastDropSeq < w.target);
      return false;
    });
  };

  const drop = (n: number) => {
    if (n <= 0) return;
    stats.dropped += n;
    options.onDrop?.(n, stats.dropped);
    lastDropSeq = pushedSeq;
  };

  const settleWaiters = () => {
    if (buffer.length > 0 || writing) return;
    const w = [...waiters, ...flushWaiters.map((f) => f.resolve)];
    waiters = [];
    flushWaiters = [];
    for (const f of w) f();
  };

  const schedule = (delay: number) => {
    if (timer || writing) return;
    timer = setTimeout(() => {
      timer = undefined;
      pump();
    }, delay);
    // The queue must not keep a CLI process alive on its own: close() flushes explicitly.
    timer.unref?.();
  };

  const pump = () => {
    if (writing || buffer.length === 0) {
      settleWaiters();
      return;
    }
    const batch = buffer.slice(0, batchSize);
    const thisWrite = ++writesStarted;
    writing = options.write(batch).then(
      () => {
        if (abandoned) {
          // close() gave up on this batch and counted it as dropped; it made it after all.
          stats.dropped -= batch.length;
          stats.written += batch.length;
          return;
        }
        buffer.splice(0, batch.length);
        stats.written += batch.length;
        stats.queued = buffer.length;
        doneSeq += batch.length;
        settleSeq();
        backoff = 0;
        inOutage = false;
      },
      (err: unknown) => {
        stats.failedWrites++;
        if (!inOutage) options.onError?.(err instanceof Error ? err : new Error(String(err)));
        inOutage = true;
        for (const w of seqWaiters.splice(0)) w.resolve(false);
        flushWaiters = flushWaiters.filter((f) => {
          if (f.from > thisWrite) return true;
          f.resolve();
          return false;
        });
        backoff = Math.min(maxBackoff, backoff ? backoff * 2 : baseBackoff);
      },
    );
    void writing.finally(() => {
      writing = undefined;
      if (buffer.length === 0) settleWaiters();
      // Closing, and the sink refused the write: retrying would hold the process (a CLI run,
      // the agent waiting on `dispatch`) for the whole close budget; close() counts the rest.
      else if (closed && inOutage) for (const w of waiters.splice(0)) w();
      else if (closed && backoff === 0) pump();
      else schedule(backoff || (buffer.length >= batchSize || seqWaiters.length > 0 ? 0 : flushMs));
    });
  };

  return {
    push(record) {
      if (closed || buffer.length >= capacity) {
        drop(1);
        return;
      }
      pushedSeq++;
      buffer.push(record);
      stats.queued = buffer.length;
      if (!writing && !backoff) {
        if (buffer.length >= batchSize) {
          if (timer) clearTimeout(timer);
          timer = undefined;
          pump();
        } else schedule(flushMs);
      }
    },
    flush() {
      if (buffer.length === 0 && !writing) return Promise.resolve();
      const p = new Promise<void>((resolve) => flushWaiters.push({ from: writesStarted + 1, resolve }));
      // Write now rather than after the flush delay or the retry backoff.
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
        pump();
      }
      return p;
    },
    async close(timeoutMs = 5000) {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      backoff = 0;
      if (buffer.length > 0 && !writing) pump();
      let deadline: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => {
          if (buffer.length === 0 && !writing) resolve();
          else waiters.push(resolve);
        }),
        new Promise<void>((resolve) => {
          deadline = setTimeout(resolve, timeoutMs);
        }),
      ]);
      if (deadline) clearTimeout(deadline);
      if (timer) clearTimeout(timer);
      timer = undefined;
      // What a dead sink still holds at the end is lost: say so.
      const left = buffer.length;
      if (left > 0) abandoned = true;
      buffer = [];
      stats.queued = 0;
      drop(left);
      doneSeq = pushedSeq;
      for (const w of seqWaiters.splice(0)) w.resolve(false);
      settleWaiters();
    },
    stats: () => ({ ...stats, queued: buffer.length }),
    settled(timeoutMs) {
      const target = pushedSeq;
      if (doneSeq >= target) return Promise.resolve(lastDropSeq < target);
      if (inOutage || closed) return Promise.resolve(false);
      // Someone waits: write now rather than after flushMs (records arriving meanwhile join the next batch).
      if (timer && !backoff) {
        clearTimeout(timer);
        timer = undefined;
        pump();
      }
      return new Promise<boolean>((resolve) => {
        const w = { target, resolve };
        seqWaiters.push(w);
        const t = setTimeout(() => {
          seqWaiters = seqWaiters.filter((x) => x !== w);
          resolve(false);
        }, timeoutMs);
        t.unref?.();
        const orig = w.resolve;
        w.resolve = (ok) => {
          clearTimeout(t);
          orig(ok);
        };
      });
    },
  };
}
