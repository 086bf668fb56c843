/** `agent-hooks serve` as a real process: start-up output, the token, usage errors, clean stop. */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { apiClient, CLI, serveSandbox, type ServeSandbox } from './helpers.js';

let sb: ServeSandbox;
const children: ChildProcess[] = [];

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does)');
});
beforeEach(() => {
  sb = serveSandbox('agent-hooks-serve-cli-');
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  sb.cleanup();
});

/** Start `agent-hooks serve` and resolve with its stdout once it has printed `until`. */
function start(args: string[], until: RegExp = /\n/): Promise<{ child: ChildProcess; out: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--workspace', sb.ws, '--managed-settings', sb.managed, ...args], {
    env: sb.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) resolve({ child, out });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('agent-hooks serve', () => {
  it('prints the URL and token as JSON, answers with the token, and stops cleanly on SIGTERM', async () => {
    const { child, out } = await start(['--audit', sb.audit, '--json']);
    const info = JSON.parse(out.split('\n')[0]!);
    expect(info).toMatchObject({ host: '127.0.0.1', pauseFile: sb.pauseFile, store: sb.store, auditFile: sb.audit });
    expect(info.openUrl).toBe(`${info.url}?token=${info.token}`);
    const api = apiClient(info.url, info.token);
    const res = await api.get('/api/workspaces');
    expect(res.status).toBe(200);
    expect(res.json().workspaces[0].dir).toBe(sb.ws);
    expect((await api.get('/api/workspaces', { authorization: 'Bearer wrong' })).status).toBe(401);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  it('prints the URL to open in text mode, and accepts an --allowed-host name', async () => {
    const { child, out: rest } = await start(['--allowed-host', 'panel.localhost', '--allowed-host', '::1'], /Ctrl-C/);
    const first = rest.split('\n')[0]!;
    expect(first).toMatch(/^agent-hooks serve: trust review panel on http:\/\/127\.0\.0\.1:\d+\/$/);
    const url = first.slice(first.indexOf('http'));
    const port = new URL(url).port;
    const token = /token:\s+(\S+)/.exec(rest)![1]!;
    expect(rest).toContain(`open:       ${url}?token=${token}`);
    const api = apiClient(url, token);
    expect((await api.get('/api/info', { host: `panel.localhost:${port}` })).status).toBe(200);
    expect((await api.get('/api/info', { host: `other.localhost:${port}` })).status).toBe(403);
    // A bare IPv6 address is a host on the panel's port, not host `:` with port 1.
    expect((await api.get('/api/info', { host: `[::1]:${port}` })).status).toBe(200);
    child.kill('SIGINT');
    expect(await exited(child)).toBe(0);
  });

  it('refuses bad usage with exit 1', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [CLI, 'serve', ...args], { env: sb.env, encoding: 'utf8', timeout: 20_000 });
    const port = run(['--workspace', sb.ws, '--port', 'abc']);
    expect(port.status).toBe(1);
    expect(port.stderr).toMatch(/--port must be an integer/);
    const ws = run(['--workspace', sb.dir.path('missing')]);
    expect(ws.status).toBe(1);
    expect(ws.stderr).toMatch(/not a directory/);
  });
});
