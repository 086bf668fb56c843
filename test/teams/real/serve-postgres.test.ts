/**
 * serve's team timeline from the PostgreSQL sink: filters by project, client and session, paging
 * with a cursor that never skips or repeats a row, firings grouped by firing id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditWriter } from '../../../src/audit/sinks.js';
import { postgresAudit, type PostgresAudit } from '../../../src/audit/postgres.js';
import { createHookEngine } from '../../../src/engine/engine.js';
import { queryPostgresAudit } from '../../../src/serve/audit-postgres.js';
import { startPostgres, type TestPostgres } from './postgres.js';

let pg: TestPostgres;
let db: PostgresAudit;
beforeAll(async () => {
  pg = await startPostgres();
  const writer = createAuditWriter({ sinks: [{ type: 'postgres', url: pg.url, table: 'audit_s', flushMs: 5 }] });
  const engine = createHookEngine({ projectDir: '/srv', auditWriter: writer, telemetry: false });
  engine.register({
    event: 'PreToolUse',
    matcher: 'Bash',
    name: 'guard',
    fn: (p) => ((p.tool_input as { command: string }).command === 'rm' ? { decision: 'block', reason: 'no' } : {}),
  });
  engine.register({ event: 'PreToolUse', matcher: 'Bash', name: 'log', fn: () => ({}) });
  // 3 projects × 2 clients × 5 events; every 5th is denied (the second hook then never runs: serial).
  let i = 0;
  for (const project of ['/p/a', '/p/b', '/p/c'])
    for (const client of ['alice', 'bob'])
      for (let k = 0; k < 5; k++)
        await engine.run(
          'PreToolUse',
          { session_id: `${client}-s`, cwd: project, tool_name: 'Bash', tool_input: { command: i++ % 5 === 0 ? 'rm' : 'ls' } },
          { client, project },
        );
  await engine.close();
  await writer.close();
  db = await postgresAudit({ url: pg.url, table: 'audit_s' });
});
afterAll(async () => {
  await db?.close();
  pg?.destroy();
});

describe('serve: the audit from PostgreSQL', () => {
  it('filters by project, client and session', async () => {
    const all = await queryPostgresAudit(db, {});
    // 30 firings: 6 denied after one hook, 24 allowed after two.
    expect(all.total).toBe(6 + 24 * 2);
    expect(all.facets.projects).toEqual(['/p/a', '/p/b', '/p/c']);
    expect(all.facets.clients).toEqual(['alice', 'bob']);
    const a = await queryPostgresAudit(db, { project: '/p/b', client: 'alice' });
    expect(a.total).toBe(1 + 4 * 2);
    for (const e of a.entries) expect(e).toMatchObject({ project: '/p/b', client: 'alice', session_id: 'alice-s' });
    const blocked = await queryPostgresAudit(db, { outcome: 'blocked' });
    expect(blocked.total).toBe(6);
    expect(blocked.entries.every((e) => e.blocked && e.hook.includes('guard'))).toBe(true);
    const s = await queryPostgresAudit(db, { session: 'bob-s' });
    expect(s.entries.every((e) => e.client === 'bob')).toBe(true);
  });

  it('pages newest first without skipping or repeating a row, and groups firings by id', async () => {
    const seen: string[] = [];
    let before: string | undefined;
    let pages = 0;
    do {
      const page = await queryPostgresAudit(db, { limit: 7, ...(before ? { before } : {}) });
      expect(page.error).toBeUndefined();
      for (const e of page.entries) seen.push(`${e.firing_id}/${e.hook}`);
      for (let k = 1; k < page.entries.length; k++)
        expect(Date.parse(page.entries[k - 1]!.ts)).toBeGreaterThanOrEqual(Date.parse(page.entries[k]!.ts));
      before = page.nextBefore;
      pages++;
    } while (before && pages < 20);
    expect(seen.length).toBe(54);
    expect(new Set(seen).size).toBe(54);
    expect(pages).toBe(8);
    const one = await queryPostgresAudit(db, { project: '/p/a', client: 'bob' });
    expect(one.firings).toHaveLength(5);
    expect(one.firings.filter((f) => f.blocked)).toHaveLength(1);
    expect(one.firings.find((f) => !f.blocked)!.bars).toHaveLength(2);
  });

  it('a bad cursor or a database that is down is an error in the answer, never a throw', async () => {
    expect((await queryPostgresAudit(db, { before: 'nonsense' })).error).toMatch(/cursor/);
    const gone = await postgresAudit({ url: 'postgres://agent@127.0.0.1:1/postgres', table: 'audit_s' });
    const r = await queryPostgresAudit(gone, {});
    expect(r.error).toMatch(/audit database/);
    await gone.close();
  });
});
