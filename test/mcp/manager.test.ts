import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  createMcpClientManager,
  McpConfigError,
  type McpCallOutcome,
  type McpClientManager,
  type McpClientManagerOptions,
} from '../../src/mcp/index.js';
import { INHERITED_ENV_KEYS } from '../../src/backends/env.js';
import { isPidLive, liveGroupMembers, waitUntil } from '../backends/helpers.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { fixtureServer, pidBook, SERVER } from './helpers.js';

const book = pidBook();
let dir: TempDir;
let managers: McpClientManager[] = [];

function manager(opts: McpClientManagerOptions = {}): McpClientManager {
  const m = createMcpClientManager({
    projectDir: dir.root,
    servers: { fx: fixtureServer() },
    shutdownGraceMs: 200,
    killGraceMs: 200,
    ...opts,
  });
  managers.push(m);
  return m;
}

function pidOf(m: McpClientManager, server = 'fx'): number {
  const pid = m.status().find((s) => s.server === server)?.pid;
  if (pid === undefined) throw new Error(`no pid for ${server}`);
  book.groups.add(pid);
  return pid;
}

function textOf(o: McpCallOutcome): string {
  if (!o.ok) throw new Error(`call failed: ${o.failure}: ${o.message}`);
  return (o.result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
}

function infoOf(o: McpCallOutcome): {
  pid: number;
  cwd: string;
  env: string[];
  CLAUDE_PROJECT_DIR: string | null;
  FIXTURE_VAR: string | null;
} {
  return JSON.parse(JSON.parse(textOf(o)).systemMessage);
}

const call = (m: McpClientManager, tool: string, args: Record<string, unknown> = {}, timeoutMs = 10_000, server = 'fx') =>
  m.callTool(server, tool, args, { timeoutMs });

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await Promise.all(managers.map((m) => m.close()));
  managers = [];
  dir.cleanup();
});
afterAll(async () => {
  expect(await book.leftovers()).toEqual([]);
});

describe('McpClientManager: configured stdio servers', () => {
  it('starts a server lazily on first use and reuses it', async () => {
    const m = manager();
    expect(m.status()).toEqual([{ server: 'fx', kind: 'stdio', state: 'idle', failures: 0 }]);
    expect(textOf(await call(m, 'text', { text: 'one' }))).toBe('one');
    const pid = pidOf(m);
    expect(m.status()[0]).toMatchObject({ state: 'connected', pid });
    expect(textOf(await call(m, 'text', { text: 'two' }))).toBe('two');
    expect(pidOf(m)).toBe(pid);
  });

  it('connect() starts servers eagerly and reports each', async () => {
    const m = manager({ servers: { fx: fixtureServer(), broken: { command: 'agent-hooks-no-such-command-xyz' } } });
    const r = await m.connect();
    expect(r.find((x) => x.server === 'fx')).toEqual({ server: 'fx', ok: true });
    const broken = r.find((x) => x.server === 'broken')!;
    expect(broken.ok).toBe(false);
    expect(broken.error).toMatch(/command "agent-hooks-no-such-command-xyz" not found/);
    expect(isPidLive(pidOf(m))).toBe(true);
  });

  it('gives the server a minimal environment with CLAUDE_PROJECT_DIR and its own env, in the project directory', async () => {
    process.env.AGENT_HOOKS_TEST_SECRET = 'do-not-leak';
    try {
      const m = manager({ servers: { fx: fixtureServer({ env: { FIXTURE_VAR: 'given' } }) } });
      const info = infoOf(await call(m, 'info'));
      book.groups.add(info.pid);
      expect(info.CLAUDE_PROJECT_DIR).toBe(dir.root);
      expect(info.FIXTURE_VAR).toBe('given');
      expect(info.cwd).toBe(dir.root);
      expect(info.env).not.toContain('AGENT_HOOKS_TEST_SECRET');
      const allowed = new Set([...INHERITED_ENV_KEYS, 'CLAUDE_PROJECT_DIR', 'FIXTURE_VAR']);
      expect(info.env.filter((k) => !allowed.has(k))).toEqual([]);
    } finally {
      delete process.env.AGENT_HOOKS_TEST_SECRET;
    }
  });

  it('honours a server cwd; a missing cwd is a clear start error', async () => {
    const sub = dir.path('sub');
    dir.write('sub/.keep', '');
    const m = manager({ servers: { fx: fixtureServer({ cwd: sub }), nocwd: fixtureServer({ cwd: dir.path('missing') }) } });
    expect(infoOf(await call(m, 'info')).cwd).toBe(sub);
    pidOf(m);
    const r = await call(m, 'text', {}, 10_000, 'nocwd');
    expect(r).toMatchObject({ ok: false, failure: 'not-connected' });
    expect((r as { message: string }).message).toMatch(/working directory .*missing does not exist/);
  });

  it('unknown server: names the configured ones', async () => {
    const m = manager();
    const r = await call(m, 'text', {}, 1000, 'nope');
    expect(r).toEqual({ ok: false, failure: 'unknown-server', message: 'MCP server "nope" is not configured (configured: fx)' });
  });

  it('unknown tool: a failed call with the server message; the server stays up', async () => {
    const m = manager();
    const r = await call(m, 'no_such_tool');
    expect(r).toMatchObject({ ok: false, failure: 'failed' });
    expect((r as { message: string }).message).toMatch(/MCP tool "no_such_tool" on server "fx" failed: .*not found/);
    expect(m.status()[0]!.state).toBe('connected');
    pidOf(m);
  });

  it('timeout: the call gives up, the server keeps serving', async () => {
    const m = manager();
    await call(m, 'text');
    const pid = pidOf(m);
    const r = await call(m, 'sleep', { ms: 30_000 }, 300);
    expect(r).toEqual({ ok: false, failure: 'timeout', message: 'MCP tool "sleep" on server "fx" did not answer within 300 ms' });
    expect(textOf(await call(m, 'text', { text: 'still here' }))).toBe('still here');
    expect(pidOf(m)).toBe(pid);
  });

  it('abort: the caller cancels a running call', async () => {
    const m = manager();
    await call(m, 'text');
    const ac = new AbortController();
    const p = m.callTool('fx', 'sleep', { ms: 30_000 }, { timeoutMs: 10_000, signal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    expect(await p).toMatchObject({ ok: false, failure: 'aborted' });
    pidOf(m);
  });

  it('a server that crashes mid-call: clear error with exit code and stderr; the next call restarts it', async () => {
    const warnings: string[] = [];
    const m = manager({ onWarning: (w) => warnings.push(w) });
    await call(m, 'text');
    const first = pidOf(m);
    const r = await call(m, 'crash', { code: 3 });
    expect(r).toMatchObject({ ok: false, failure: 'crashed' });
    expect((r as { message: string }).message).toBe(
      'MCP server "fx" exited with code 3; stderr: fixture: crashing on purpose during the call to tool "crash"',
    );
    expect(await waitUntil(() => !isPidLive(first), 2000)).toBe(true);
    expect(warnings.join('\n')).toMatch(/MCP server "fx" exited with code 3.*restarted on its next use/);
    expect(m.status()[0]).toMatchObject({ state: 'idle', failures: 1 });

    expect(textOf(await call(m, 'text', { text: 'back' }))).toBe('back');
    const second = pidOf(m);
    expect(second).not.toBe(first);
    expect(m.status()[0]).toMatchObject({ state: 'connected', failures: 0 });
  });

  it('restarts are bounded: a server that keeps failing stays down until connect()', async () => {
    const m = manager({ maxRestarts: 2, servers: { fx: fixtureServer({ env: { MCP_FIXTURE_CRASH_ON_START: '1' } }) } });
    for (let i = 1; i <= 3; i++) {
      const r = await call(m, 'text');
      expect(r).toMatchObject({ ok: false, failure: 'not-connected' });
      expect((r as { message: string }).message).toMatch(
        /MCP server "fx" could not be started \(.*\): exited with code 7; stderr: refusing to start/,
      );
    }
    const r = await call(m, 'text');
    expect((r as { message: string }).message).toMatch(
      /failed 3 times in a row and is not restarted any more .*call connect\("fx"\) to retry/,
    );
    expect(m.status()[0]).toMatchObject({ state: 'failed', failures: 3 });
    // An explicit connect() tries again.
    const again = await m.connect('fx');
    expect(again[0]).toMatchObject({ ok: false });
    expect(again[0]!.error).toMatch(/exited with code 7/);
    expect(m.status()[0]).toMatchObject({ failures: 1 });
  });

  it('a hook timeout shorter than the start-up: timeout, the start goes on; close() escalates to SIGKILL', async () => {
    const m = manager({ servers: { fx: fixtureServer({ env: { MCP_FIXTURE_HANG_ON_START: '1' } }) } });
    const r = await call(m, 'text', {}, 300);
    expect(r).toEqual({ ok: false, failure: 'timeout', message: 'MCP server "fx" did not finish starting within 300 ms' });
    expect(m.status()[0]!.state).toBe('connecting');
    const pid = pidOf(m);
    expect(isPidLive(pid)).toBe(true);
    await m.close(); // the server ignores SIGTERM
    expect(await waitUntil(() => liveGroupMembers(pid).length === 0, 2000)).toBe(true);
  });

  it('connectTimeoutMs bounds the start-up; the hung server is killed', async () => {
    const m = manager({ connectTimeoutMs: 300, servers: { fx: fixtureServer({ env: { MCP_FIXTURE_HANG_ON_START: '1' } }) } });
    const p = call(m, 'text', {}, 10_000);
    await waitUntil(() => m.status()[0]!.pid !== undefined, 2000);
    const pid = pidOf(m);
    const r = await p;
    expect(r).toMatchObject({ ok: false, failure: 'not-connected' });
    expect((r as { message: string }).message).toMatch(/MCP server "fx" could not be started \(.*\): .*timed out/i);
    expect(await waitUntil(() => liveGroupMembers(pid).length === 0, 2000)).toBe(true);
    expect(m.status()[0]).toMatchObject({ state: 'idle', failures: 1 });
  });

  it('a message larger than maxMessageBytes drops the connection with a clear error', async () => {
    const m = manager({ maxMessageBytes: 100_000 });
    await call(m, 'text');
    const pid = pidOf(m);
    const r = await call(m, 'big', { bytes: 200_000 });
    expect(r).toEqual({
      ok: false,
      failure: 'crashed',
      message: 'MCP server "fx" sent a message larger than 100000 bytes; its connection was dropped during the call to tool "big"',
    });
    expect(await waitUntil(() => liveGroupMembers(pid).length === 0, 2000)).toBe(true);
    expect(textOf(await call(m, 'text', { text: 'again' }))).toBe('again');
    pidOf(m);
  });

  it('close() stops the server and everything in its process group', async () => {
    const m = manager();
    const grandchild = Number(textOf(await call(m, 'spawn')));
    const pid = pidOf(m);
    book.pids.add(grandchild);
    expect(isPidLive(grandchild)).toBe(true);
    expect(liveGroupMembers(pid).length).toBeGreaterThanOrEqual(2);
    await m.close();
    expect(await waitUntil(() => liveGroupMembers(pid).length === 0, 2000)).toBe(true);
    expect(isPidLive(grandchild)).toBe(false);
    expect(m.status()[0]!.state).toBe('closed');
    expect(await call(m, 'text')).toEqual({ ok: false, failure: 'closed', message: 'the MCP client manager is closed' });
    await m.close(); // idempotent
  });

  it('a crashed server takes the rest of its group with it', async () => {
    const m = manager();
    const grandchild = Number(textOf(await call(m, 'spawn')));
    const pid = pidOf(m);
    book.pids.add(grandchild);
    await call(m, 'crash');
    expect(await waitUntil(() => liveGroupMembers(pid).length === 0, 3000)).toBe(true);
    expect(isPidLive(grandchild)).toBe(false);
  });

  it('close() while a server is still starting leaves nothing behind', async () => {
    const m = manager();
    const p = call(m, 'text');
    await new Promise((r) => setTimeout(r, 20));
    await m.close();
    const r = await p;
    expect(r.ok).toBe(false);
    for (const s of m.status()) expect(s.pid).toBeUndefined();
  });

  it('rejects invalid server definitions with the server name and field', () => {
    expect(() => createMcpClientManager({ servers: { bad: { command: '' } } })).toThrow(McpConfigError);
    expect(() => createMcpClientManager({ servers: { bad: { command: '' } } })).toThrow(
      /MCP server "bad": command: must be a non-empty string/,
    );
    expect(() => createMcpClientManager({ servers: { bad: { command: 'x', extra: 1 } as never } })).toThrow(/MCP server "bad"/);
  });
});

describe('McpClientManager: host-managed clients', () => {
  it('calls through an already-connected SDK client and leaves it open on close()', async () => {
    const client = new Client({ name: 'host', version: '1' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'pipe' });
    await client.connect(transport);
    book.pids.add(transport.pid!);
    try {
      const m = manager({ servers: {}, clients: { host: client } });
      expect(textOf(await call(m, 'text', { text: 'via host' }, 10_000, 'host'))).toBe('via host');
      expect(m.status()).toEqual([{ server: 'host', kind: 'client', state: 'connected', failures: 0 }]);
      await m.close();
      expect(client.transport).toBeDefined();
      // The host closes its client: the manager then reports "not connected".
      const m2 = manager({ servers: {}, clients: { host: client } });
      await client.close();
      expect(await call(m2, 'text', {}, 1000, 'host')).toEqual({
        ok: false,
        failure: 'not-connected',
        message: 'MCP server "host" is not connected',
      });
    } finally {
      await client.close();
    }
  });

  it('setClient adds and removes a host client; a name cannot be both', async () => {
    const m = manager();
    const client = new Client({ name: 'host', version: '1' });
    m.setClient('late', client);
    expect(m.has('late')).toBe(true);
    expect(await call(m, 'text', {}, 1000, 'late')).toMatchObject({ ok: false, failure: 'not-connected' });
    m.setClient('late', undefined);
    expect(m.has('late')).toBe(false);
    expect(() => m.setClient('fx', client)).toThrow(/configured stdio server/);
    expect(() => createMcpClientManager({ servers: { a: fixtureServer() }, clients: { a: client } })).toThrow(/both/);
  });
});
