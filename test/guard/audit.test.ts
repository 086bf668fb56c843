/**
 * Issue 39, class 7: the audit loses nothing silently. An event id names one event (a reuse with
 * different content is refused or recorded, never hidden while counted as written); a sink that
 * cannot write is reported (decision warnings, stderr), in bounded time.
 *
 * Each `it.fails` states the guarantee as it should hold and fails on today's code (vitest counts
 * it as passing while the bug is there). When the fix lands it turns red: flip it to `it(...)`.
 * The PostgreSQL server is a real throwaway one (test/teams/real/postgres.ts: Debian's binaries,
 * temp data dir, loopback port); OTLP goes to a loopback port nobody listens on.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAudit } from '../../src/audit/postgres.js';
import { createAuditWriter } from '../../src/audit/sinks.js';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine } from '../../src/engine/engine.js';
import { startPolicyServer } from '../../src/policy-server/server.js';
import { newToken } from '../../src/policy-server/tokens.js';
import { startPostgres, type TestPostgres } from '../teams/real/postgres.js';
import { dispatchShell, GUARD_SH, sandbox, verdict, type Sandbox } from './helpers.js';

let sb: Sandbox;
let guard = '';
const hooks = () => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `sh ${guard}` }] }] });
beforeAll(() => {
  sb = sandbox();
  guard = sb.dir.write('guard.sh', GUARD_SH, 0o755);
});
afterAll(() => sb.dir.cleanup());

describe('an event id names one event in the PostgreSQL audit', () => {
  let pg: TestPostgres | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 90_000);
  afterAll(() => pg?.destroy());

  /** A policy server auditing to `table`: `ls` then `rm -rf build` posted with the given event ids; the server closed (audit flushed). */
  async function twoEvents(table: string, ids: [string, string]) {
    const alice = newToken('alice');
    sb.dir.json(`${table}/tokens.json`, { clients: [alice.entry] });
    sb.dir.json(`${table}/team.json`, { hooks: hooks() });
    const server = await startPolicyServer({
      configFiles: [sb.dir.path(`${table}/team.json`)],
      tokensFile: sb.dir.path(`${table}/tokens.json`),
      workDir: sb.dir.path(table),
      auditSinks: [{ type: 'postgres', url: pg!.url, table, flushMs: 5 }],
      settingsEnv: {},
      onWarning: () => {},
      port: 0,
      host: '127.0.0.1',
    });
    const post = async (command: string, id: string) => {
      const res = await fetch(`${server.url}/v1/decide`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json', 'x-agent-hooks-event-id': id },
        body: JSON.stringify({
          session_id: 's',
          hook_event_name: 'PreToolUse',
          cwd: '/w',
          transcript_path: '',
          tool_name: 'Bash',
          tool_input: { command },
        }),
      });
      return { status: res.status, body: (await res.json()) as { decision?: { blocked?: boolean }; audited?: boolean } };
    };
    let first: Awaited<ReturnType<typeof post>>;
    let second: Awaited<ReturnType<typeof post>>;
    try {
      first = await post('ls', ids[0]);
      second = await post('rm -rf build', ids[1]);
    } finally {
      await server.close(); // flushes the audit
    }
    const db = await postgresAudit({ url: pg!.url, table });
    try {
      const rows = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE kind = 'decision' AND decision = 'deny'`);
      return { first, second, denyRows: Number(rows[0]!.n) };
    } finally {
      await db.close();
    }
  }

  it('control: two events with their own ids: the denied one is in the audit', async () => {
    const r = await twoEvents('audit_distinct', ['evt-a', 'evt-b']);
    expect([r.first.body.decision?.blocked, r.second.body.decision?.blocked]).toEqual([false, true]);
    expect(r.denyRows).toBe(1);
  });

  it('a client reusing an event id: the second (denied) event is refused or recorded, never counted written and hidden', async () => {
    const r = await twoEvents('audit_reuse', ['evt-1', 'evt-1']);
    const refused = r.second.status >= 400 && r.second.status < 500;
    expect({ second: r.second.status, audited: r.second.body.audited, refusedOrRecorded: refused || r.denyRows === 1 }).toMatchObject({
      refusedOrRecorded: true,
    });
  });
});

describe('under dispatch, a sink that cannot write is reported, in bounded time', () => {
  let port = 0;
  beforeAll(async () => {
    // A loopback port that was free a moment ago: the collector is down (connection refused).
    port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
  });
  const settings = (name: string, sinks: unknown[]) => sb.dir.json(`${name}.json`, { agentHooks: { auditSinks: sinks }, hooks: hooks() });

  it.concurrent('an OTLP collector that is down: a warning on stderr, and no seconds added to the event', async () => {
    const plain = settings('plain', []);
    const otlp = settings('otlp', [{ type: 'otlp', endpoint: `http://127.0.0.1:${port}`, protocol: 'http/json' }]);
    const base = await dispatchShell('claude', sb.dir.root, 'rm -rf build', { env: sb.env, args: ['--settings', plain] });
    // Killed (by pid) at 8 s: today's exporter waits out its 10 s timeout.
    const r = await dispatchShell('claude', sb.dir.root, 'rm -rf build', { env: sb.env, args: ['--settings', otlp], timeoutMs: 8_000 });
    expect({ timedOut: r.timedOut, warned: /audit|otlp/i.test(r.stderr), fast: r.ms - base.ms < 2_500 }).toEqual({
      timedOut: false,
      warned: true,
      fast: true,
    });
    expect(verdict(r)).toBe('deny');
  });

  it.concurrent('a full disk (file sink on /dev/full): a warning on stderr', async () => {
    const full = settings('full', [{ type: 'file', path: '/dev/full' }]);
    const r = await dispatchShell('claude', sb.dir.root, 'rm -rf build', { env: sb.env, args: ['--settings', full] });
    expect(verdict(r)).toBe('deny');
    expect(r.stderr).toMatch(/audit/i);
  });

  it('the library: a full disk is in the decision’s warnings', async () => {
    const file = sb.dir.json('lib.json', { hooks: hooks() });
    const loaded = await loadConfig({ cwd: sb.dir.root, discover: false, settingsFiles: [file] });
    const auditWriter = createAuditWriter({ sinks: [{ type: 'file', path: '/dev/full', flushMs: 1 }] });
    const engine = createHookEngine({ hooks: loaded.hooks, projectDir: sb.dir.root, cwd: sb.dir.root, auditWriter });
    try {
      const d = await engine.run('PreToolUse', {
        session_id: 's',
        cwd: sb.dir.root,
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf build' },
      });
      expect(d.blocked).toBe(true);
      expect(d.warnings.join('\n')).toMatch(/audit/i);
    } finally {
      await engine.close();
      await auditWriter.close(1_000);
    }
  });
});
