/**
 * Per-session counters the engine keeps between firings: the Stop/SubagentStop consecutive-block
 * count (the continuation cap) and the `once` hooks already run. The engine reads and writes them
 * through this store, so a rule that spans firings holds wherever the firings happen: in one
 * process (the in-memory store below), across `dispatch` processes (a private state file per
 * session, src/engine/session-file-store.ts), across policy-server replicas (its database).
 */

/** Counters by session id and key; a counter never set reads 0, and writing 0 removes it. */
export interface SessionCounterStore {
  /** The counter's value (0 when unset). */
  read(sessionId: string, key: string): number | Promise<number>;
  /** Atomically replace the counter by `next(value)` and return the value it had before. */
  update(sessionId: string, key: string, next: (value: number) => number): number | Promise<number>;
  /** Release what the store holds (files, connections). */
  close?(): void | Promise<void>;
}

/** Sessions kept by the in-memory store; the oldest is dropped first. */
const MAX_SESSIONS = 10_000;

/** The default store: one process's memory, bounded (oldest session dropped first). */
export function memoryCounterStore(maxSessions = MAX_SESSIONS): SessionCounterStore {
  const sessions = new Map<string, Map<string, number>>();
  return {
    read: (sessionId, key) => sessions.get(sessionId)?.get(key) ?? 0,
    update(sessionId, key, next) {
      let counters = sessions.get(sessionId);
      const before = counters?.get(key) ?? 0;
      const after = next(before);
      if (after === before) return before;
      if (!counters) {
        if (after === 0) return before;
        counters = new Map();
        sessions.set(sessionId, counters);
        if (sessions.size > maxSessions) sessions.delete(sessions.keys().next().value as string);
      }
      if (after === 0) {
        counters.delete(key);
        if (counters.size === 0) sessions.delete(sessionId);
      } else counters.set(key, after);
      return before;
    },
  };
}

/**
 * A store made on first use: `dispatch` answers most events without reading a counter (only
 * Stop-like events and `once` hooks do), so the file store's code is loaded only then.
 */
export function lazyCounterStore(make: () => Promise<SessionCounterStore>): SessionCounterStore {
  let store: Promise<SessionCounterStore> | undefined;
  const get = () => (store ??= make());
  return {
    read: async (sessionId, key) => (await get()).read(sessionId, key),
    update: async (sessionId, key, next) => (await get()).update(sessionId, key, next),
    close: async () => {
      if (store) await (await store).close?.();
    },
  };
}
