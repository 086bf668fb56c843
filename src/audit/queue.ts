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
  /** Why the last write failed, while the sink is failing (cleared by a write that succeeds). */
  lastError?: string;
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

/** Everything one queue holds between calls; the functions below read and write it explicitly. */
interface QueueState<T> {
  options: BatchQueueOptions<T>;
  capacity: number;
  batchSize: number;
  flushMs: number;
  baseBackoff: number;
  maxBackoff: number;
  buffer: T[];
  stats: QueueStats;
  timer: NodeJS.Timeout | undefined;
  writing: Promise<void> | undefined;
  backoff: number;
  inOutage: boolean;
  closed: boolean;
  abandoned: boolean;
  /** close() callers waiting for the buffer to drain. */
  waiters: Array<() => void>;
  /** flush() callers, each with the first write that started after it: that write failing ends the wait. */
  flushWaiters: Array<{ from: number; resolve: () => void }>;
  writesStarted: number;
  /** Sequence numbers for settled(): records pushed, and records done (written or dropped) in order. */
  pushedSeq: number;
  doneSeq: number;
  lastDropSeq: number;
  seqWaiters: Array<{ target: number; resolve: (ok: boolean) => void }>;
}

export function createBatchQueue<T>(options: BatchQueueOptions<T>): BatchQueue<T> {
  const s = initialState(options);
  return {
    push: (record) => pushRecord(s, record),
    flush: () => flushQueue(s),
    close: (timeoutMs = 5000) => closeQueue(s, timeoutMs),
    stats: () => ({ ...s.stats, queued: s.buffer.length }),
    settled: (timeoutMs) => settledBy(s, timeoutMs),
  };
}

function initialState<T>(options: BatchQueueOptions<T>): QueueState<T> {
  return {
    options,
    capacity: Math.max(1, options.capacity ?? 10_000),
    batchSize: Math.max(1, options.batchSize ?? 500),
    flushMs: options.flushMs ?? 50,
    baseBackoff: options.backoffMs ?? 100,
    maxBackoff: options.maxBackoffMs ?? 5000,
    buffer: [],
    stats: { queued: 0, written: 0, dropped: 0, failedWrites: 0 },
    timer: undefined,
    writing: undefined,
    backoff: 0,
    inOutage: false,
    closed: false,
    abandoned: false,
    waiters: [],
    flushWaiters: [],
    writesStarted: 0,
    pushedSeq: 0,
    doneSeq: 0,
    lastDropSeq: -1,
    seqWaiters: [],
  };
}

/** Resolve the settled() callers whose records are all done: true unless a record was dropped. */
function settleSeq<T>(s: QueueState<T>): void {
  if (s.seqWaiters.length === 0) return;
  s.seqWaiters = s.seqWaiters.filter((w) => {
    if (s.doneSeq < w.target) return true;
    w.resolve(s.lastDropSeq < w.target);
    return false;
  });
}

function drop<T>(s: QueueState<T>, n: number): void {
  if (n <= 0) return;
  s.stats.dropped += n;
  s.options.onDrop?.(n, s.stats.dropped);
  s.lastDropSeq = s.pushedSeq;
}

/** Nothing queued and nothing in flight: every close() and flush() caller may go. */
function settleWaiters<T>(s: QueueState<T>): void {
  if (s.buffer.length > 0 || s.writing) return;
  const w = [...s.waiters, ...s.flushWaiters.map((f) => f.resolve)];
  s.waiters = [];
  s.flushWaiters = [];
  for (const f of w) f();
}

function cancelTimer<T>(s: QueueState<T>): void {
  if (s.timer) clearTimeout(s.timer);
  s.timer = undefined;
}

function schedule<T>(s: QueueState<T>, delay: number): void {
  if (s.timer || s.writing) return;
  s.timer = setTimeout(() => {
    s.timer = undefined;
    pump(s);
  }, delay);
  // The queue must not keep a CLI process alive on its own: close() flushes explicitly.
  s.timer.unref?.();
}

/** Start writing the head batch unless a write is in flight; an empty buffer only settles waiters. */
function pump<T>(s: QueueState<T>): void {
  if (s.writing || s.buffer.length === 0) {
    settleWaiters(s);
    return;
  }
  const batch = s.buffer.slice(0, s.batchSize);
  const thisWrite = ++s.writesStarted;
  s.writing = s.options.write(batch).then(
    () => onWritten(s, batch),
    (err: unknown) => onWriteFailed(s, err, thisWrite),
  );
  void s.writing.finally(() => afterWrite(s));
}

function onWritten<T>(s: QueueState<T>, batch: T[]): void {
  if (s.abandoned) {
    // close() gave up on this batch and counted it as dropped; it made it after all.
    s.stats.dropped -= batch.length;
    s.stats.written += batch.length;
    return;
  }
  s.buffer.splice(0, batch.length);
  s.stats.written += batch.length;
  s.stats.queued = s.buffer.length;
  s.doneSeq += batch.length;
  settleSeq(s);
  s.backoff = 0;
  s.inOutage = false;
  delete s.stats.lastError;
}

/** A failed write: report the outage once, release the waiters it concerns, back off. */
function onWriteFailed<T>(s: QueueState<T>, err: unknown, thisWrite: number): void {
  s.stats.failedWrites++;
  s.stats.lastError = err instanceof Error ? err.message : String(err);
  if (!s.inOutage) s.options.onError?.(err instanceof Error ? err : new Error(String(err)));
  s.inOutage = true;
  for (const w of s.seqWaiters.splice(0)) w.resolve(false);
  s.flushWaiters = s.flushWaiters.filter((f) => {
    if (f.from > thisWrite) return true;
    f.resolve();
    return false;
  });
  s.backoff = Math.min(s.maxBackoff, s.backoff ? s.backoff * 2 : s.baseBackoff);
}

/** After each write, successful or not: settle, give up (closing on a dead sink), or go on. */
function afterWrite<T>(s: QueueState<T>): void {
  s.writing = undefined;
  if (s.buffer.length === 0) settleWaiters(s);
  // Closing, and the sink refused the write: retrying would hold the process (a CLI run,
  // the agent waiting on `dispatch`) for the whole close budget; close() counts the rest.
  else if (s.closed && s.inOutage) for (const w of s.waiters.splice(0)) w();
  else if (s.closed && s.backoff === 0) pump(s);
  else schedule(s, s.backoff || (s.buffer.length >= s.batchSize || s.seqWaiters.length > 0 ? 0 : s.flushMs));
}

function pushRecord<T>(s: QueueState<T>, record: T): void {
  if (s.closed || s.buffer.length >= s.capacity) {
    drop(s, 1);
    return;
  }
  s.pushedSeq++;
  s.buffer.push(record);
  s.stats.queued = s.buffer.length;
  // A write in flight or a backoff running picks the record up when it ends.
  if (!s.writing && !s.backoff) {
    if (s.buffer.length >= s.batchSize) {
      cancelTimer(s);
      pump(s);
    } else schedule(s, s.flushMs);
  }
}

function flushQueue<T>(s: QueueState<T>): Promise<void> {
  if (s.buffer.length === 0 && !s.writing) return Promise.resolve();
  const p = new Promise<void>((resolve) => s.flushWaiters.push({ from: s.writesStarted + 1, resolve }));
  // Write now rather than after the flush delay or the retry backoff.
  if (s.timer) {
    cancelTimer(s);
    pump(s);
  }
  return p;
}

async function closeQueue<T>(s: QueueState<T>, timeoutMs: number): Promise<void> {
  s.closed = true;
  cancelTimer(s);
  s.backoff = 0;
  if (s.buffer.length > 0 && !s.writing) pump(s);
  // The race is awaited here, not inside a helper: an extra async frame would add microtask turns
  // between the drain and abandonRest, during which a settling write could interleave.
  const wait = drainedOrDeadline(s, timeoutMs);
  await wait.done;
  if (wait.deadline) clearTimeout(wait.deadline);
  cancelTimer(s);
  abandonRest(s);
}

/** A promise that resolves when the buffer drained (or a closing write failed), or after timeoutMs. */
function drainedOrDeadline<T>(s: QueueState<T>, timeoutMs: number): { done: Promise<void>; deadline: NodeJS.Timeout | undefined } {
  let deadline: NodeJS.Timeout | undefined;
  const done = Promise.race([
    new Promise<void>((resolve) => {
      if (s.buffer.length === 0 && !s.writing) resolve();
      else s.waiters.push(resolve);
    }),
    new Promise<void>((resolve) => {
      deadline = setTimeout(resolve, timeoutMs);
    }),
  ]);
  return { done, deadline };
}

/** What a dead sink still holds at the end is lost: say so, and release every waiter. */
function abandonRest<T>(s: QueueState<T>): void {
  const left = s.buffer.length;
  if (left > 0) s.abandoned = true;
  s.buffer = [];
  s.stats.queued = 0;
  drop(s, left);
  s.doneSeq = s.pushedSeq;
  for (const w of s.seqWaiters.splice(0)) w.resolve(false);
  settleWaiters(s);
}

function settledBy<T>(s: QueueState<T>, timeoutMs: number): Promise<boolean> {
  const target = s.pushedSeq;
  if (s.doneSeq >= target) return Promise.resolve(s.lastDropSeq < target);
  // A failing or closed sink: a caller may wait for its audit, but never on a dead sink.
  if (s.inOutage || s.closed) return Promise.resolve(false);
  // Someone waits: write now rather than after flushMs (records arriving meanwhile join the next batch).
  if (s.timer && !s.backoff) {
    cancelTimer(s);
    pump(s);
  }
  return new Promise<boolean>((resolve) => {
    const w = { target, resolve };
    s.seqWaiters.push(w);
    const t = setTimeout(() => {
      s.seqWaiters = s.seqWaiters.filter((x) => x !== w);
      resolve(false);
    }, timeoutMs);
    t.unref?.();
    const orig = w.resolve;
    w.resolve = (ok) => {
      clearTimeout(t);
      orig(ok);
    };
  });
}
