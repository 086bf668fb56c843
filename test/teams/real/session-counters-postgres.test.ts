/**
 * The policy server's per-session counters in a real PostgreSQL this file starts
 * (test/teams/real/postgres.ts): two stores on one database (two replicas) share the counts,
 * concurrent updates from several pools are atomic, old rows are pruned, a database that is down
 * falls back to memory with a warning, and two policy servers on one database get one store
 * each on that database and close it on shutdown.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAudit, type PostgresAudit } from '../../../src/audit/postgres.js';
import { createHookEngine } from '../../../src/engine/engine.js';
import { startPolicyServer, type RunningPolicyServer } from '../../../src/policy-server/server.js';
import { policyCounterStore, postgresCounterStore } from '../../../src/policy-server/session-counters.js';
import { newToken } from '../../../src/policy-server/tokens.js';
import { startPostgres, type TestPostgres } from './postgres.js';

let pg: TestPostgres;
let dir = '';
const opened: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  pg = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'ah-counters-pg-'));
});
afterAll(async () => {
  for (const o of opened.splice(0)) await o.close();
  pg?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const inc = (v: number) => v + 1;
function replica(table: string) {
  const warnings: string[] = [];
  const store = policyCounterStore([{ type: 'postgres', url: pg.url, table }], { onWarning: (m) => warnings.push(m) });
  opened.push(store);
  return { store, warnings };
}
async function db(table: string, maxConnections = 4): Promise<PostgresAudit> {
  const d = await postgresAudit({ url: pg.url, table, maxConnections });
  opened.push(d);
  return d;
}

describe('PostgreSQL session counters', () => {
  it('two replicas on one database see each other’s counts; NUL and backslash keys stay distinct; 0 removes the row', async () => {
    const a = replica('audit_c1');
    const b = replica('audit_c1');
    expect(a.store.shared).toBe(true);
    expect(await a.store.read('alice:s1', 'Stop')).toBe(0);
    expect(await a.store.update('alice:s1', 'Stop', inc)).toBe(0);
    expect(await b.store.update('alice:s1', 'Stop', inc)).toBe(1);
    expect(await a.store.read('alice:s1', 'Stop')).toBe(2);
    expect(await b.store.read('bob:s1', 'Stop')).toBe(0);
    expect(await a.store.update('alice:s1', 'once\0hook', () => 1)).toBe(0);
    expect(await b.store.update('alice:s1', 'once\\0hook', () => 1)).toBe(0);
    expect(await b.store.update('alice:s1', 'once\0hook', () => 1)).toBe(1);
    const d = await db('audit_c1');
    const count = async () => Number((await d.query<{ n: string }>('SELECT count(*) AS n FROM audit_c1_counters'))[0]!.n);
    expect(await count()).toBe(3);
    expect(await b.store.update('alice:s1', 'Stop', () => 0)).toBe(2);
    expect(await a.store.read('alice:s1', 'Stop')).toBe(0);
    expect(await count()).toBe(2);
    expect([...a.warnings, ...b.warnings]).toEqual([]);
    const versions = await d.query<{ version: number }>('SELECT version FROM audit_c1_migrations ORDER BY version');
    expect(versions.map((v) => Number(v.version))).toEqual([1, 2]);
  });

  it('concurrent updates from three pools are atomic: each returns a distinct previous value and none is lost', async () => {
    const dbs = await Promise.all([0, 1, 2].map(() => db('audit_c2', 8)));
    const replicas = dbs.map((d) => postgresCounterStore(async () => d));
    const EACH = 40;
    const previous = await Promise.all(replicas.flatMap((r) => Array.from({ length: EACH }, () => r.update('s', 'Stop', inc))));
    expect(await replicas[0]!.read('s', 'Stop')).toBe(3 * EACH);
    expect([...previous].sort((x, y) => x - y)).toEqual(Array.from({ length: 3 * EACH }, (_, i) => i));
  });

  it('deletes rows not written for maxAgeMs when an update prunes', async () => {
    const d = await db('audit_c3');
    const store = postgresCounterStore(async () => d, { maxAgeMs: 86_400_000, pruneIntervalMs: 0 });
    await store.update('old', 'Stop', inc);
    await store.update('recent', 'Stop', inc);
    await d.query("UPDATE audit_c3_counters SET updated_at = now() - interval '2 days' WHERE session_id = 'old'");
    await store.update('new', 'Stop', inc);
    const rows = await d.query<{ session_id: string }>('SELECT session_id FROM audit_c3_counters ORDER BY session_id');
    expect(rows.map((r) => r.session_id)).toEqual(['new', 'recent']);
  });

  it('a database that cannot be reached falls back to this instance’s memory, with a warning, and never throws', async () => {
    const warnings: string[] = [];
    const store = policyCounterStore([{ type: 'postgres', url: 'postgres://agent@127.0.0.1:1/postgres', table: 'audit_c4' }], {
      onWarning: (m) => warnings.push(m),
    });
    opened.push(store);
    expect(await store.update('s', 'Stop', inc)).toBe(0);
    expect(await store.update('s', 'Stop', inc)).toBe(1);
    expect(await store.read('s', 'Stop')).toBe(2);
    expect(warnings[0]).toMatch(/session counters: the database failed .*counting in this instance's memory/);
    // Without a PostgreSQL sink (or without its connection string) the store is memory from the start.
    const memory = policyCounterStore([{ type: 'postgres', urlEnv: 'AGENT_HOOKS_TEST_UNSET_URL' }], { env: {} });
    expect(memory.shared).toBe(false);
  });
});

/** Does this build's engine keep its Stop count in the `sessionCounters` store it is given? */
async function engineUsesCounterStore(): Promise<boolean> {
  const keys: string[] = [];
  const engine = createHookEngine({
    telemetry: false,
    sessionCounters: {
      read: (_s, k) => keys.push(k) && 0,
      update: (_s, k) => keys.push(k) && 0,
    },
  });
  engine.register({ event: 'Stop', name: 'probe', fn: () => ({ decision: 'block', reason: 'probe' }) });
  await engine.run('Stop', { session_id: 'probe', stop_hook_active: false }, { sessionId: 'probe' });
  await engine.close();
  return keys.length > 0;
}

const engineKeepsCounters = await engineUsesCounterStore();

describe('policy servers on one database', () => {
  const alice = newToken('alice');
  const servers: RunningPolicyServer[] = [];
  async function replicas(table: string): Promise<[RunningPolicyServer, RunningPolicyServer]> {
    writeFileSync(join(dir, 'tokens.json'), JSON.stringify({ clients: [alice.entry] }));
    writeFileSync(
      join(dir, 'team.json'),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: `echo '{"decision":"block","reason":"keep going"}'` }] }] },
        // Named connections: the test can count the servers' own.
        agentHooks: { auditSinks: [{ type: 'postgres', url: `${pg.url}?application_name=replica`, table, flushMs: 5 }] },
      }),
    );
    const start = () =>
      startPolicyServer({ configFiles: [join(dir, 'team.json')], tokensFile: join(dir, 'tokens.json'), workDir: dir, onWarning: () => {} });
    const pair: [RunningPolicyServer, RunningPolicyServer] = [await start(), await start()];
    servers.push(...pair);
    return pair;
  }
  afterAll(async () => {
    for (const s of servers.splice(0)) await s.close();
  });

  it('each keeps its counters in the shared database, and closes its connection on shutdown', async () => {
    const [a, b] = await replicas('audit_c5');
    expect([a.sessionCounters.shared, b.sessionCounters.shared]).toEqual([true, true]);
    expect(await a.sessionCounters.update('alice:s9', 'Stop', inc)).toBe(0);
    expect(await b.sessionCounters.read('alice:s9', 'Stop')).toBe(1);
    const d = await db('audit_c5');
    const connections = async () =>
      Number((await d.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'replica'"))[0]!.n);
    expect(await connections()).toBeGreaterThanOrEqual(2);
    await a.close();
    await b.close();
    // The audit sinks' pools and both counter pools are closed (an idle one would stay 10 s).
    await expect.poll(connections, { timeout: 3000 }).toBe(0);
  });

  // Runs once the engine reads and writes its counters through `sessionCounters` (issue 38's pipeline).
  it.skipIf(!engineKeepsCounters)('caps a session’s consecutive Stop blocks at 8 across the two replicas', async () => {
    const [a, b] = await replicas('audit_c6');
    const blocked: boolean[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await fetch(`${(i % 2 ? b : a).url}/v1/decide`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: 's1', hook_event_name: 'Stop', cwd: dir, transcript_path: '', stop_hook_active: i > 0 }),
      });
      blocked.push(((await r.json()) as { decision: { blocked: boolean } }).decision.blocked);
    }
    expect(blocked).toEqual([...Array(8).fill(true), false, true, true, true]);
  });
});
