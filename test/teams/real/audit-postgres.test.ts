/**
 * The PostgreSQL audit sink against a real server this file starts (test/teams/real/postgres.ts):
 * the migration's schema and indexes, one row per hook execution and per decision, retried
 * batches written once, and a server restart while events keep coming (bounded buffer, no
 * decision waits, drops counted and warned).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuditWriter } from '../../../src/audit/sinks.js';
import { postgresAudit } from '../../../src/audit/postgres.js';
import { createHookEngine } from '../../../src/engine/engine.js';
import { startPostgres, type TestPostgres } from './postgres.js';

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.destroy());

describe('PostgreSQL audit sink', () => {
  it('migrates once (concurrently) and creates the indexes by time, session, project, event, outcome', async () => {
    const a = await postgresAudit({ url: pg.url, table: 'audit_m' });
    const b = await postgresAudit({ url: pg.url, table: 'audit_m' });
    await Promise.all([a.migrate(), b.migrate(), a.migrate()]);
    const versions = await a.query<{ version: number }>('SELECT version FROM audit_m_migrations ORDER BY version');
    expect(versions.map((v) => Number(v.version))).toEqual([1, 2]);
    const idx = (await a.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'audit_m'")).map((r) => r.indexdef);
    for (const col of ['ts', 'session_id', 'project', 'event', 'outcome', 'client'])
      expect(idx.some((d) => d.includes(`(${col}`))).toBe(true);
    await a.close();
    await b.close();
  });

  it('records every hook execution and decision of the engine, each id once even when a batch is written twice', async () => {
    const writer = createAuditWriter({ sinks: [{ type: 'postgres', url: pg.url, table: 'audit_e', flushMs: 5 }] });
    const engine = createHookEngine({ projectDir: '/proj/a', auditWriter: writer, telemetry: false });
    engine.register({
      event: 'PreToolUse',
      matcher: 'Bash',
      name: 'guard',
      fn: (p) => ((p.tool_input as { command: string }).command.includes('rm') ? { decision: 'block', reason: 'no rm' } : {}),
    });
    const N = 40;
    for (let i = 0; i < N; i++) {
      await engine.run(
        'PreToolUse',
        { session_id: `s${i % 4}`, cwd: '/proj/a', tool_name: 'Bash', tool_input: { command: i % 5 === 0 ? 'rm -rf x' : 'ls' } },
        { client: 'ci-bot' },
      );
    }
    await engine.close();
    await writer.close();
    const db = await postgresAudit({ url: pg.url, table: 'audit_e' });
    const rows = await db.query<{ kind: string; n: string }>('SELECT kind, count(*) AS n FROM audit_e GROUP BY kind ORDER BY kind');
    expect(rows.map((r) => [r.kind, Number(r.n)])).toEqual([
      ['decision', N],
      ['hook', N],
    ]);
    const blocked = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM audit_e WHERE kind = 'decision' AND outcome = 'blocked' AND decision = 'deny'",
    );
    expect(Number(blocked[0]!.n)).toBe(N / 5);
    const one = (await db.query<Record<string, unknown>>("SELECT * FROM audit_e WHERE kind = 'hook' LIMIT 1"))[0]!;
    expect(one).toMatchObject({
      project: '/proj/a',
      client: 'ci-bot',
      event: 'PreToolUse',
      hook_type: 'function',
      matcher: 'Bash',
      tool_name: 'Bash',
    });
    expect((one.hook_source as { kind: string }).kind).toBe('sdk');
    // A batch retried after a timeout the server did act on: the same ids are kept once.
    const again = await db.query<Record<string, unknown>>('SELECT record FROM audit_e ORDER BY ts LIMIT 10');
    await db.insert(again.map((r) => r.record as never));
    const total = await db.query<{ n: string }>('SELECT count(*) AS n FROM audit_e');
    expect(Number(total[0]!.n)).toBe(2 * N);
    await db.close();
  });

  it('a PostgreSQL restart mid-run: no decision waits, records within the buffer arrive, the rest are counted as dropped and warned', async () => {
    const warnings: string[] = [];
    let droppedMetric = 0;
    const BUFFER = 50;
    const writer = createAuditWriter(
      { sinks: [{ type: 'postgres', url: pg.url, table: 'audit_r', flushMs: 5, buffer: BUFFER, batchSize: 20 }] },
      { onWarning: (m) => warnings.push(m), onDrop: (_s, n) => (droppedMetric += n) },
    );
    const engine = createHookEngine({ projectDir: '/proj/r', auditWriter: writer, telemetry: false });
    engine.register({ event: 'PreToolUse', name: 'allow', fn: () => ({}) });
    const fire = async (n: number) => {
      for (let i = 0; i < n; i++) await engine.run('PreToolUse', { session_id: 'r', tool_name: 'Read', tool_input: {} });
    };
    await fire(20);
    await writer.flush();
    pg.stop();
    // 100 firings = 200 records while the server is down: every decision answers.
    let answered = 0;
    for (let i = 0; i < 100; i++) {
      const d = await engine.run('PreToolUse', { session_id: 'r', tool_name: 'Read', tool_input: {} });
      if (d.blocked === false) answered++;
    }
    expect(answered).toBe(100);
    const during = writer.stats()[0]!;
    expect(during.queued).toBeLessThanOrEqual(BUFFER);
    expect(during.dropped).toBe(200 - during.queued);
    expect(droppedMetric).toBe(during.dropped);
    // The failed write is reported once the queue tries (asynchronously, after the firings answered).
    await vi.waitFor(() => expect(warnings.some((w) => /failed/.test(w))).toBe(true), { timeout: 15_000 });
    expect(warnings.some((w) => /dropped/.test(w))).toBe(true);
    pg.start();
    await fire(10);
    await writer.flush();
    const after = writer.stats()[0]!;
    await engine.close();
    await writer.close();
    const db = await postgresAudit({ url: pg.url, table: 'audit_r' });
    const n = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM audit_r'))[0]!.n);
    // Everything not dropped was written, once.
    expect(n).toBe(2 * 130 - after.dropped);
    expect(after.written).toBe(n);
    await db.close();
  });
});
