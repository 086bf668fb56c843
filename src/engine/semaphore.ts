/** A counting semaphore: bounds live hook executions engine-wide. */
export interface Semaphore {
  acquire(): Promise<() => void>;
  /** A slot now, without waiting (the release function), or undefined when all are taken. */
  tryAcquire(): (() => void) | undefined;
  readonly active: number;
  readonly waiting: number;
}

export function createSemaphore(limit: number): Semaphore {
  let active = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  return {
    tryAcquire() {
      if (active >= limit) return undefined;
      active++;
      return once(release);
    },
    acquire() {
      if (active < limit) {
        active++;
        return Promise.resolve(once(release));
      }
      return new Promise((resolve) => queue.push(() => resolve(once(release))));
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      fn();
    }
  };
}
