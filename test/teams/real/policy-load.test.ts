/**
 * The policy server under load on loopback: 2 instances (real CLI processes) behind a tiny
 * round-robin balancer, 10,000 events from 50 concurrent clients through dispatch's remote
 * client (src/dispatch/remote.ts), the audit in a real PostgreSQL.
 *  - every event is answered and every decision is audited exactly once (count and ids);
 *  - one instance is SIGKILLed mid-run: clients' retries reach the other, nothing acknowledged
 *    is lost or recorded twice;
 *  - PostgreSQL restarts mid-run: no decision waits for it, the bounded buffer drops and reports.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAudit } from '../../../src/audit/postgres.js';
import { remoteDecision } from '../../../src/dispatch/remote.js';
import { newToken } from '../../../src/policy-server/tokens.js';
import { killStarted, pool, roundRobin, startInstance, type Instance } from './load.js';
import { startPostgres, type TestPostgres } from './postgres.js';

const CLIENTS = 50;
const EVENTS = 10_000;
let pg: TestPostgres;
let dir = '';
const tokens = Array.from({ length: CLIENTS }, (_, i) => newToken(`client-${i}`));

function teamConfig(table: string, buffer: number) {
  return {
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }; exit 0" }] },
      ],
    },
    agentHooks: { auditSinks: [{ type: 'postgres', url: pg.url, table, buffer, flushMs: 20 }] },
  };
}
/** Every 20th event is a Bash call (a command hook runs; every other of them is denied); the rest match no hook. */
const payload = (i: number) =>
  i % 20 === 0
    ? {
        session_id: `s${i % 97}`,
        hook_event_name: 'PreToolUse',
        cwd: `/proj/p${i % 7}`,
        transcript_path: '',
        tool_name: 'Bash',
        tool_input: { command: i % 40 === 0 ? 'rm -rf /' : 'ls' },
      }
    : {
        session_id: `s${i % 97}`,
        hook_event_name: 'PreToolUse',
        cwd: `/proj/p${i % 7}`,
        transcript_path: '',
        tool_name: 'Read',
        tool_input: { file_path: `/f${i}` },
      };

beforeAll(async () => {
  pg = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'ah-load-'));
  writeFileSync(join(dir, 'tokens.json'), JSON.stringify({ clients: tokens.map((t) => t.entry) }));
});
afterAll(() => {
  killStarted();
  pg?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function cluster(config: unknown) {
  writeFileSync(join(dir, 'team.json'), JSON.stringify(config));
  const args = ['--config', join(dir, 'team.json'), '--tokens', join(dir, 'tokens.json'), '--rate', '0'];
  const instances: Instance[] = [await startInstance(args, dir), await startInstance(args, dir)];
  const alive = new Set(instances);
  const lb = await roundRobin(() => instances.map((i) => i.url));
  return {
    instances,
    lb,
    alive,
    async stop() {
      await lb.close();
      for (const i of instances) await i.stop('SIGTERM');
    },
  };
}

describe('policy server under load', () => {
  it('10,000 events, 50 clients, 2 instances, one SIGKILLed mid-run: all answered, each decision audited exactly once', {
    timeout: 900_000,
  }, async () => {
    const c = await cluster(teamConfig('audit_load', 100_000));
    const answered = new Map<string, { denied: boolean; fallback: boolean }>();
    let done = 0;
    let killed = false;
    try {
      await pool(EVENTS, CLIENTS, async (i, w) => {
        const eventId = `e${i}`;
        const d = await remoteDecision('PreToolUse', payload(i), { url: c.lb.url, token: tokens[w]!.token, eventId, attempts: 4 });
        answered.set(`client-${w}:${eventId}`, {
          denied: d.decision === 'deny',
          fallback: d.warnings.some((x) => /policy server unavailable/.test(x)),
        });
        if (++done === Math.floor(EVENTS * 0.3) && !killed) {
          killed = true;
          await c.instances[1]!.stop('SIGKILL');
        }
      });
    } finally {
      await c.stop();
    }
    expect(killed).toBe(true);
    expect(answered.size).toBe(EVENTS);
    const acknowledged = [...answered].filter(([, v]) => !v.fallback);
    // Retries went to the surviving instance: no event needed the failure policy.
    expect(acknowledged.length).toBe(EVENTS);
    for (const [id, v] of answered) expect(v.denied, id).toBe(Number(id.split(':e')[1]) % 40 === 0);

    const db = await postgresAudit({ url: pg.url, table: 'audit_load' });
    const rows = await db.query<{ id: string }>("SELECT id FROM audit_load WHERE kind = 'decision'");
    const ids = new Set(rows.map((r) => r.id));
    expect(rows.length).toBe(ids.size); // primary key: never twice
    // A decision's id is `<client>:<event id>:<digest of the payload>` (src/policy-server/app.ts).
    const events = new Set([...ids].map((id) => id.split(':').slice(0, 2).join(':')));
    expect(events.size).toBe(ids.size);
    for (const [id] of acknowledged) expect(events.has(id), id).toBe(true);
    expect(ids.size).toBe(EVENTS);
    const hooks = await db.query<{ n: string; distinct_firings: string }>(
      "SELECT count(*) AS n, count(DISTINCT firing_id) AS distinct_firings FROM audit_load WHERE kind = 'hook'",
    );
    expect(Number(hooks[0]!.n)).toBe(EVENTS / 20);
    expect(Number(hooks[0]!.distinct_firings)).toBe(EVENTS / 20);
    const denied = await db.query<{ n: string }>("SELECT count(*) AS n FROM audit_load WHERE kind = 'decision' AND decision = 'deny'");
    expect(Number(denied[0]!.n)).toBe(EVENTS / 40);
    await db.close();
  });

  it('PostgreSQL restarted mid-run: every decision answered without waiting for it, drops bounded and reported', {
    timeout: 600_000,
  }, async () => {
    const BUFFER = 50;
    const c = await cluster(teamConfig('audit_restart', BUFFER));
    const N = 3000;
    let done = 0;
    let restarted = false;
    let fallbacks = 0;
    let blockedDuringOutage = 0;
    try {
      await pool(N, CLIENTS, async (i, w) => {
        const d = await remoteDecision('PreToolUse', payload(i), { url: c.lb.url, token: tokens[w]!.token, eventId: `r${i}`, attempts: 4 });
        if (d.warnings.some((x) => /policy server unavailable/.test(x))) fallbacks++;
        if (d.decision === 'deny' && i % 40 !== 0) blockedDuringOutage++;
        if (++done === Math.floor(N * 0.3) && !restarted) {
          restarted = true;
          pg.stop();
          // The clients keep going while the server is down (stop/start are synchronous here,
          // so give the event loop a moment of outage with requests in flight).
          await new Promise((r) => setTimeout(r, 5000));
          pg.start();
        }
      });
      await new Promise((r) => setTimeout(r, 1500));
      const stats = await Promise.all(
        c.instances.map(
          async (inst) =>
            ((await (await fetch(`${inst.url}/readyz`)).json()) as { audit: Array<{ queued: number; written: number; dropped: number }> })
              .audit[0]!,
        ),
      );
      expect(restarted).toBe(true);
      expect(fallbacks).toBe(0);
      expect(blockedDuringOutage).toBe(0);
      for (const s of stats) expect(s.queued).toBeLessThanOrEqual(BUFFER);
      const dropped = stats.reduce((a, s) => a + s.dropped, 0);
      const written = stats.reduce((a, s) => a + s.written, 0);
      expect(dropped).toBeGreaterThan(0);
      const db = await postgresAudit({ url: pg.url, table: 'audit_restart' });
      const n = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM audit_restart'))[0]!.n);
      const expectedRecords = N + N / 20;
      // What was not dropped is in PostgreSQL, once; what was dropped is counted.
      expect(n).toBe(written);
      expect(n + dropped).toBe(expectedRecords);
      await db.close();
      expect(c.instances.map((i) => i.stderr()).join('')).toMatch(/dropped so far/);
    } finally {
      await c.stop();
    }
  });
});
