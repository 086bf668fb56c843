/**
 * The PostgreSQL audit sink, through the `pg` client (an optional peer dependency, imported only
 * when a PostgreSQL sink is configured). The schema is created by numbered migrations run under
 * an advisory lock, so any number of policy-server instances can start at once. One row per
 * hook execution and per decision; ids are the primary key and inserts skip ids already written,
 * so a retried batch (or a retried firing, src/audit/record.ts) is recorded once.
 */
import type { AuditRecord } from './record.js';
import { memoUntilRejected } from '../util/memo-until-rejected.js';

export interface PostgresSinkOptions {
  /** A connection string (`postgres://user@host:port/db`). */
  url: string;
  /** Table name (default agent_hooks_audit). */
  table?: string;
  /** Pool size (default 4). */
  maxConnections?: number;
  /** Per-statement timeout (ms, default 5000): a hung server fails the batch, which is retried. */
  statementTimeoutMs?: number;
}

export interface PostgresAudit {
  insert(records: AuditRecord[]): Promise<void>;
  /** Run the migrations (idempotent); insert() runs them on first use. */
  migrate(): Promise<void>;
  query<R extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Run `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (query: PgQuery) => Promise<T>): Promise<T>;
  readonly table: string;
  close(): Promise<void>;
}

type PgQuery = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

interface PgPool {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  connect(): Promise<{ query: PgPool['query']; release(err?: unknown): void }>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): void;
}

/** Columns of the audit table, in insert order. */
const COLUMNS = [
  'id',
  'kind',
  'ts',
  'project',
  'session_id',
  'client',
  'event',
  'firing_id',
  'tool_name',
  'hook_id',
  'hook_type',
  'hook_source',
  'matcher',
  'outcome',
  'exit_code',
  'duration_ms',
  'decision',
  'reason',
  'error',
  'record',
] as const;

/** Migration n creates what version n needs; applied versions are kept in <table>_migrations. */
function migrations(table: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      id text PRIMARY KEY,
      kind text NOT NULL,
      ts timestamptz NOT NULL,
      project text NOT NULL,
      session_id text NOT NULL,
      client text NOT NULL,
      event text NOT NULL,
      firing_id text NOT NULL,
      tool_name text,
      hook_id text,
      hook_type text,
      hook_source jsonb,
      matcher text,
      outcome text NOT NULL,
      exit_code integer,
      duration_ms double precision NOT NULL,
      decision text,
      reason text,
      error text,
      record jsonb NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${table}_ts ON ${table} (ts DESC);
    CREATE INDEX IF NOT EXISTS ${table}_session ON ${table} (session_id, ts DESC);
    CREATE INDEX IF NOT EXISTS ${table}_project ON ${table} (project, ts DESC);
    CREATE INDEX IF NOT EXISTS ${table}_client ON ${table} (client, ts DESC);
    CREATE INDEX IF NOT EXISTS ${table}_event ON ${table} (event, ts DESC);
    CREATE INDEX IF NOT EXISTS ${table}_outcome ON ${table} (outcome, ts DESC);
    CREATE INDEX IF NOT EXISTS ${table}_firing ON ${table} (firing_id);`,
    // The policy server's per-session counters (src/policy-server/session-counters.ts): shared by
    // every instance on this database. Names stay within PostgreSQL's 63 characters.
    `CREATE TABLE IF NOT EXISTS ${table}_counters (
      session_id text NOT NULL,
      key text NOT NULL,
      value integer NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, key)
    );
    CREATE INDEX IF NOT EXISTS ${table}_counters_at ON ${table}_counters (updated_at);`,
  ];
}

async function loadPg(): Promise<{ Pool: new (config: Record<string, unknown>) => PgPool }> {
  try {
    const mod = (await import('pg')) as unknown as { default?: { Pool: unknown }; Pool?: unknown };
    const Pool = (mod.Pool ?? mod.default?.Pool) as new (config: Record<string, unknown>) => PgPool;
    return { Pool };
  } catch {
    throw new Error('the PostgreSQL audit sink needs the `pg` package: npm install pg (it is an optional peer dependency of agent-hooks)');
  }
}

export async function postgresAudit(options: PostgresSinkOptions): Promise<PostgresAudit> {
  const table = options.table ?? 'agent_hooks_audit';
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(table))
    throw new Error(`audit table name ${JSON.stringify(table)} must be lower-case letters, digits and _`);
  const { Pool } = await loadPg();
  const pool = new Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 4,
    statement_timeout: options.statementTimeoutMs ?? 5000,
    connectionTimeoutMillis: options.statementTimeoutMs ?? 5000,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
  });
  // An idle client losing its server (a restart) must not crash the process; the next query fails and is retried.
  pool.on('error', () => {});
  // Migrate once; a failed migration is tried again by the next insert or query.
  const migration = memoUntilRejected(() => migrate(pool, table));
  const ensure = () => migration.get();

  return {
    table,
    migrate: ensure,
    async insert(records) {
      if (records.length === 0) return;
      await ensure();
      const { sql, params } = insertStatement(table, records);
      await pool.query(sql, params);
    },
    async query(sql, params) {
      await ensure();
      return (await pool.query(sql, params)).rows as never;
    },
    async transaction(fn) {
      await ensure();
      return inTransaction(pool, fn);
    },
    close: () => pool.end(),
  };
}

async function inTransaction<T>(pool: PgPool, fn: (query: PgQuery) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(async (sql, params) => (await client.query(sql, params)).rows);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    // A connection in an unknown state is closed rather than reused.
    client.release(err);
    throw err;
  }
}

/** Apply the migrations not yet recorded, each in its own transaction, under a per-table advisory lock. */
async function migrate(pool: PgPool, table: string): Promise<void> {
  const client = await pool.connect();
  try {
    // One fixed lock key per table: instances starting together migrate one after the other.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`agent-hooks:${table}`]);
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${table}_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const done = new Set((await client.query(`SELECT version FROM ${table}_migrations`)).rows.map((r) => Number(r.version)));
      const steps = migrations(table);
      for (let v = 1; v <= steps.length; v++) {
        if (done.has(v)) continue;
        await client.query('BEGIN');
        await client.query(steps[v - 1]!);
        await client.query(`INSERT INTO ${table}_migrations (version) VALUES ($1)`, [v]);
        await client.query('COMMIT');
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`agent-hooks:${table}`]);
    }
  } catch (err) {
    client.release(err);
    throw err;
  }
  client.release();
}

/** One multi-row INSERT for a batch; a record already stored (same id, a retried batch) is skipped. */
function insertStatement(table: string, records: readonly AuditRecord[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const rows: string[] = [];
  for (const r of records) {
    const base = params.length;
    params.push(
      r.id,
      r.kind,
      r.ts,
      r.project,
      r.session_id,
      r.client,
      r.event,
      r.firing_id,
      r.tool_name ?? null,
      r.hook?.id ?? null,
      r.hook?.type ?? null,
      r.hook ? JSON.stringify(r.hook.source) : null,
      r.hook?.matcher ?? null,
      r.outcome,
      r.exitCode ?? null,
      r.durationMs,
      r.decision ?? null,
      r.reason ?? null,
      r.error ?? null,
      JSON.stringify(r),
    );
    rows.push(`(${COLUMNS.map((_, i) => `$${base + i + 1}`).join(',')})`);
  }
  return { sql: `INSERT INTO ${table} (${COLUMNS.join(',')}) VALUES ${rows.join(',')} ON CONFLICT (id) DO NOTHING`, params };
}
