/**
 * The policy server on loopback, in process and through the CLI: auth by hashed token, client
 * identity in the audit, limits, atomic reload, TLS, graceful shutdown, `dispatch --remote` and
 * its local failure policy.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPolicyServer, type RunningPolicyServer } from '../../src/policy-server/server.js';
import { hashToken, newToken } from '../../src/policy-server/tokens.js';
import { createRateLimiter } from '../../src/policy-server/rate-limit.js';
import type { AuditRecord } from '../../src/audit/record.js';

const BIN = join(import.meta.dirname, '../../dist/cli/bin.cjs');
let dir = '';
const servers: RunningPolicyServer[] = [];
const alice = newToken('alice');
const bob = newToken('bob');

function writeConfig(name: string, body: unknown) {
  const file = join(dir, name);
  writeFileSync(`${file}.tmp`, JSON.stringify(body));
  renameSync(`${file}.tmp`, file);
  return file;
}
const denyRm = (reason: string) => ({
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: `grep -q 'rm -rf' && { echo '${reason}' >&2; exit 2; }; exit 0` }] },
    ],
  },
});
const pre = (command: string) => ({
  session_id: 's1',
  hook_event_name: 'PreToolUse',
  cwd: '/home/dev/proj',
  transcript_path: '',
  tool_name: 'Bash',
  tool_input: { command },
});

async function start(extra: Partial<Parameters<typeof startPolicyServer>[0]> = {}) {
  const s = await startPolicyServer({
    configFiles: [join(dir, 'team.json')],
    tokensFile: join(dir, 'tokens.json'),
    workDir: dir,
    auditSinks: [{ type: 'file', path: 'audit.jsonl', flushMs: 1 }],
    settingsEnv: {},
    onWarning: () => {},
    ...extra,
  });
  servers.push(s);
  return s;
}
const post = (s: { url: string }, body: unknown, token = alice.token, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/v1/decide`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ah-ps-'));
  writeFileSync(join(dir, 'tokens.json'), JSON.stringify({ clients: [alice.entry, { ...bob.entry, ratePerSec: 1 }] }));
  writeConfig('team.json', denyRm('team policy: no rm -rf'));
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tokens and rate limits', () => {
  it('the tokens file holds only hashes', () => {
    expect(alice.entry.sha256).toBe(hashToken(alice.token));
    expect(readFileSync(join(dir, 'tokens.json'), 'utf8')).not.toContain(alice.token);
  });
  it('a token bucket refills at its rate', () => {
    let t = 0;
    const l = createRateLimiter(2, 1, () => t);
    expect([l.take('a'), l.take('a'), l.take('a')]).toEqual([true, true, false]);
    expect(l.take('b')).toBe(true);
    t += 500;
    expect([l.take('a'), l.take('a')]).toEqual([true, false]);
  });
});

describe('policy server', () => {
  it('decides with the team hooks, records the client in every audit record, answers health and readiness', async () => {
    const s = await start();
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${s.url}/readyz`)).json()).toMatchObject({ ready: true, configVersion: 1 });
    const denied = await post(s, pre('rm -rf /'), alice.token, { 'x-agent-hooks-event-id': 'evt-1' });
    expect(denied.status).toBe(200);
    const body = (await denied.json()) as { decision: { decision: string; reason: string }; client: string; eventId: string };
    expect(body).toMatchObject({ client: 'alice', eventId: 'evt-1', decision: { decision: 'deny' } });
    expect(body.decision.reason).toContain('team policy: no rm -rf');
    const ok = (await (await post(s, pre('ls'))).json()) as { decision: { decision?: string; blocked: boolean } };
    expect(ok.decision.blocked).toBe(false);
    const hook = await fetch(`${s.url}/v1/hook`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: JSON.stringify(pre('rm -rf x')),
    });
    expect(((await hook.json()) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe(
      'deny',
    );
    await s.observability.auditWriter!.flush();
    const records = readFileSync(join(dir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord);
    // The firing id is the client's, its event id, and a digest of the content (src/policy-server/app.ts).
    const first = records.filter((r) => r.firing_id.startsWith('alice:evt-1:'));
    expect(first.map((r) => r.kind).sort()).toEqual(['decision', 'hook']);
    for (const r of records) expect(r).toMatchObject({ client: 'alice', project: '/home/dev/proj', session_id: 's1' });
  });

  it('refuses unknown tokens, oversized bodies, bad payloads, and clients over their rate', async () => {
    const s = await start({ maxBodyBytes: 2048 });
    expect((await post(s, pre('ls'), 'nope')).status).toBe(401);
    expect((await fetch(`${s.url}/v1/decide`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await post(s, pre('x'.repeat(4096)))).status).toBe(413);
    expect((await post(s, '{not json')).status).toBe(400);
    expect((await post(s, { hook_event_name: 'Nope' })).status).toBe(400);
    expect((await post(s, pre('ls'), alice.token, { 'x-agent-hooks-event-id': 'bad id with spaces' })).status).toBe(400);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await post(s, pre('ls'), bob.token)).status);
    expect(codes.slice(0, 2)).toEqual([200, 200]);
    expect(codes).toContain(429);
  });

  it('reloads the config atomically on change, and keeps the old one when the new one is broken', async () => {
    const s = await start();
    writeConfig('team.json', denyRm('v2 says no'));
    await vi.waitFor(() => expect(s.config.version).toBe(2), { timeout: 10_000 });
    const d = (await (await post(s, pre('rm -rf /'))).json()) as { decision: { reason: string }; configVersion: number };
    expect(d.configVersion).toBe(2);
    expect(d.decision.reason).toContain('v2 says no');
    writeConfig('team.json', { hooks: { PreToolUse: 'not an array' } });
    await new Promise((r) => setTimeout(r, 600));
    expect(s.config.version).toBe(2);
    expect((await (await post(s, pre('rm -rf /'))).json()) as object).toMatchObject({ configVersion: 2, decision: { decision: 'deny' } });
    writeConfig('team.json', denyRm('team policy: no rm -rf'));
  });

  it('graceful shutdown answers the events already running, then refuses new ones', async () => {
    writeConfig('slow.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sleep 1; echo slow-no >&2; exit 2' }] }] },
    });
    const s = await start({ configFiles: [join(dir, 'slow.json')] });
    const running = post(s, pre('ls'));
    await vi.waitFor(() => expect(s.app.inFlight).toBe(1));
    const closing = s.close();
    expect((await fetch(`${s.url}/readyz`).catch(() => undefined))?.status ?? 503).toBe(503);
    const res = await running;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { decision: { decision: string } }).decision.decision).toBe('deny');
    await closing;
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
  });

  it('serves HTTPS when given a certificate', async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
      ],
      { stdio: 'ignore' },
    );
    const s = await start({ tls: { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') } });
    expect(s.url.startsWith('https://127.0.0.1:')).toBe(true);
    const ca = readFileSync(join(dir, 'cert.pem'));
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(`${s.url}/healthz`, { ca, servername: 'localhost', checkServerIdentity: () => undefined }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });
});

function dispatchCli(
  args: string[],
  stdin: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'dispatch', ...args], { env: { ...process.env, ...env }, cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('dispatch --remote', () => {
  it("answers in the agent's convention with the server's decision", async () => {
    const s = await start();
    const r = await dispatchCli(['--agent', 'claude', '--remote', s.url], JSON.stringify(pre('rm -rf /')), {
      AGENT_HOOKS_REMOTE_TOKEN: alice.token,
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain('team policy');
  });

  it('falls back to the local failure policy when the server is unreachable: deny by default, ignore when told', async () => {
    const s = await start();
    const url = s.url;
    await s.close();
    servers.length = 0;
    const denied = await dispatchCli(['--agent', 'claude', '--remote', url], JSON.stringify(pre('ls')), {
      AGENT_HOOKS_REMOTE_TOKEN: alice.token,
    });
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(denied.stdout + denied.stderr).toMatch(/policy server unavailable/);
    const ignored = await dispatchCli(['--agent', 'claude', '--remote', url, '--remote-failure', 'ignore'], JSON.stringify(pre('ls')), {});
    expect(ignored.code).toBe(0);
    expect(ignored.stdout.trim()).toBe('');
    expect(ignored.stderr).toMatch(/policy server unavailable.*ignore/);
  });

  it('a bad token is not retried and falls back too', async () => {
    const s = await start();
    const r = await dispatchCli(['--agent', 'claude', '--remote', s.url], JSON.stringify(pre('ls')), { AGENT_HOOKS_REMOTE_TOKEN: 'wrong' });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(r.stdout).toMatch(/HTTP 401/);
  });
});
