/**
 * The policy server's per-session counters (the Stop-block count, the `once` hooks run;
 * src/engine/session-counters.ts), kept per session rather than per instance: in the team's
 * PostgreSQL audit database when a PostgreSQL audit sink is configured, so every replica on that
 * database counts the same session's events together; else in the instance's memory.
 *
 * Table `<audit table>_counters` (migration 2 of src/audit/postgres.ts). An update is one
 * transaction under a transaction-scoped advisory lock on (session, key): concurrent updates from
 * any number of connections and replicas are applied one after the other, and each returns the
 * value it replaced. Rows not written for `maxAgeMs` are deleted, at most once per
 * `pruneIntervalMs` per instance.
 *
 * The database being down must not stop decisions: a failed read or update falls back to this
 * instance's memory for that call (with a warning), as if there were one replica.
 */
import type { SinkSettings } from '../audit/sinks.js';
import type { PostgresAudit } from '../audit/postgres.js';
import { memoryCounterStore, type SessionCounterStore } from '../engine/session-counters.js';
import { memoUntilRejected } from '../util/memo-until-rejected.js';

export interface PostgresCounterOptions {
  /** Rows not written for this long are deleted (ms, default 30 days). */
  maxAgeMs?: number;
  /** Pruning runs at most this often per instance (ms, default 1 hour). */
  pruneIntervalMs?: number;
  onWarning?: (message: string) => void;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * PostgreSQL text cannot hold NUL, which the engine's `once` keys contain: backslash and NUL are
 * escaped (`\\`, `\0`), so distinct ids and keys stay distinct.
 */
const pgText = (s: string) => s.replace(/\\/g, '\\\\').replace(/\0/g, '\\0');

/** Counters in `<table>_counters` of the database behind `db` (connected on first use). */
export function postgresCounterStore(db: () => Promise<PostgresAudit>, o: PostgresCounterOptions = {}): SessionCounterStore {
  const maxAgeMs = o.maxAgeMs ?? 30 * DAY_MS;
  const pruneIntervalMs = o.pruneIntervalMs ?? 3600 * 1000;
  let prunedAt = 0;
  const prune = async (d: PostgresAudit) => {
    if (Date.now() - prunedAt < pruneIntervalMs) return;
    prunedAt = Date.now();
    await d.query(`DELETE FROM ${d.table}_counters WHERE updated_at < now() - $1 * interval '1 millisecond'`, [maxAgeMs]);
  };
  return {
    async read(sessionId, key) {
      const d = await db();
      const rows = await d.query<{ value: number }>(`SELECT value FROM ${d.table}_counters WHERE session_id = $1 AND key = $2`, [
        pgText(sessionId),
        pgText(key),
      ]);
      return Number(rows[0]?.value ?? 0);
    },
    async update(sessionId, key, next) {
      const d = await db();
      await prune(d);
      const t = `${d.table}_counters`;
      const [sid, k] = [pgText(sessionId), pgText(key)];
      return d.transaction(async (q) => {
        // Serializes every update of this counter, the first one too (a row lock needs a row).
        await q('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${t}\n${sid}\n${k}`]);
        const rows = await q(`SELECT value FROM ${t} WHERE session_id = $1 AND key = $2`, [sid, k]);
        const before = Number(rows[0]?.value ?? 0);
        const after = next(before);
        if (after === before) return before;
        if (after === 0) await q(`DELETE FROM ${t} WHERE session_id = $1 AND key = $2`, [sid, k]);
        else
          await q(
            `INSERT INTO ${t} (session_id, key, value, updated_at) VALUES ($1, $2, $3, now())
             ON CONFLICT (session_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
            [sid, k, after],
          );
        return before;
      });
    },
  };
}

/**
 * The store a policy server gives its engines: PostgreSQL when one of `sinks` is a PostgreSQL
 * audit sink with a connection string (the first such), else memory. Either way a call the
 * database cannot answer is answered from this instance's memory, with a warning.
 */
export function policyCounterStore(
  sinks: readonly SinkSettings[] | undefined,
  o: PostgresCounterOptions & { env?: NodeJS.ProcessEnv } = {},
): SessionCounterStore & { close(): Promise<void>; readonly shared: boolean } {
  const memory = memoryCounterStore();
  const env = o.env ?? process.env;
  const sink = sinks?.find(
    (s): s is Extract<SinkSettings, { type: 'postgres' }> => s.type === 'postgres' && !!(s.url ?? (s.urlEnv && env[s.urlEnv])),
  );
  if (!sink) return { ...memory, shared: false, close: async () => {} };
  const url = (sink.url ?? env[sink.urlEnv!])!;
  // Its own small pool, connected on first use: the audit sink's queue owns the other.
  const conn = memoUntilRejected(() =>
    import('../audit/postgres.js').then((m) => m.postgresAudit({ url, table: sink.table, maxConnections: 2 })),
  );
  const store = postgresCounterStore(() => conn.get(), o);
  const warn = o.onWarning ?? (() => {});
  let failures = 0;
  const fallBack = (err: unknown) => {
    failures++;
    // Every power of two: loud at the start of an outage, not one line per event.
    if ((failures & (failures - 1)) === 0)
      warn(
        `session counters: the database failed (${(err as Error).message}); counting in this instance's memory (${failures} time(s) so far)`,
      );
  };
  return {
    shared: true,
    read: (sessionId, key) =>
      Promise.resolve(store.read(sessionId, key)).catch((err) => {
        fallBack(err);
        return memory.read(sessionId, key);
      }),
    update: (sessionId, key, next) =>
      Promise.resolve(store.update(sessionId, key, next)).catch((err) => {
        fallBack(err);
        return memory.update(sessionId, key, next);
      }),
    async close() {
      await (await conn.current()?.catch(() => undefined))?.close();
    },
  };
}
