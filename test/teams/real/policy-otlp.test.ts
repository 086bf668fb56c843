/**
 * `agent-hooks policy-server` with AGENT_HOOKS_ENABLE_TELEMETRY=1 exports, over the default
 * OTLP protocol (http/protobuf), a span per event it evaluates and the hook and decision
 * metrics, each firing carrying the identity of the client that asked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../../src/policy-server/tokens.js';
import { httpReceiver, metricsOf, spansOf, type Receiver } from './otlp-receiver.js';

const BIN = join(import.meta.dirname, '../../../dist/cli/bin.cjs');
let dir = '';
let rx: Receiver;
let child: ChildProcess | undefined;
const alice = newToken('alice');
const bob = newToken('bob');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ah-ps-otlp-'));
  rx = await httpReceiver();
  writeFileSync(join(dir, 'tokens.json'), JSON.stringify({ clients: [alice.entry, bob.entry] }));
  writeFileSync(
    join(dir, 'team.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: "grep -q 'rm -rf' && { echo 'team: no' >&2; exit 2; }; exit 0" }] },
        ],
      },
    }),
  );
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await rx?.close();
  rmSync(dir, { recursive: true, force: true });
});

const pre = (command: string) => ({
  session_id: 'ps1',
  hook_event_name: 'PreToolUse',
  cwd: '/home/dev/proj',
  transcript_path: '',
  tool_name: 'Bash',
  tool_input: { command },
});

describe('policy server telemetry', () => {
  it('exports spans and metrics for the events it evaluates, with the client identity', async () => {
    child = spawn(
      process.execPath,
      [BIN, 'policy-server', '--config', join(dir, 'team.json'), '--tokens', join(dir, 'tokens.json'), '--json'],
      {
        cwd: dir,
        env: {
          ...process.env,
          AGENT_HOOKS_ENABLE_TELEMETRY: '1',
          OTEL_EXPORTER_OTLP_ENDPOINT: rx.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: '',
          OTEL_SERVICE_NAME: 'team-policy',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child!.stdout! }).once('line', resolve);
      child!.once('exit', (code) => reject(new Error(`policy-server exited ${code}: ${stderr}`)));
    });
    const { url } = JSON.parse(first) as { url: string };
    const decide = async (token: string, command: string) => {
      const res = await fetch(`${url}/v1/decide`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(pre(command)),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { client: string };
    };
    expect((await decide(alice.token, 'rm -rf /')).client).toBe('alice');
    expect((await decide(bob.token, 'ls')).client).toBe('bob');
    expect((await decide(bob.token, 'ls -l')).client).toBe('bob');

    // Graceful shutdown flushes the exporter.
    const exited = new Promise<number | null>((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/telemetry:/);
    expect(new Set(rx.received.map((x) => x.format))).toEqual(new Set(['application/x-protobuf']));

    const firings = spansOf(rx.received).filter((s) => s.name === 'agent_hooks.event');
    expect(firings).toHaveLength(3);
    for (const f of firings) expect(f.service).toBe('team-policy');
    const byClient = (c: string) => firings.filter((f) => f.attributes['agent_hooks.client'] === c);
    expect(byClient('alice').map((f) => f.attributes['agent_hooks.decision'])).toEqual(['deny']);
    expect(byClient('bob').map((f) => f.attributes['agent_hooks.decision'])).toEqual(['none', 'none']);
    for (const f of firings)
      expect(f.attributes).toMatchObject({
        'agent_hooks.event': 'PreToolUse',
        'agent_hooks.session_id': 'ps1',
        'agent_hooks.project': '/home/dev/proj',
      });
    // The firing id is namespaced by client, so the audit and the trace name the same event.
    expect(String(byClient('alice')[0]!.attributes['agent_hooks.firing_id'])).toMatch(/^alice:/);
    const hooks = spansOf(rx.received).filter((s) => s.name === 'agent_hooks.hook');
    expect(hooks).toHaveLength(3);
    for (const h of hooks) expect(firings.map((f) => f.spanId)).toContain(h.parentSpanId);

    const m = metricsOf(rx.received);
    const decisions = m.get('agent_hooks.decisions') ?? [];
    expect(decisions.find((p) => p['agent_hooks.decision'] === 'deny')?._value).toBe(1);
    expect(decisions.find((p) => p['agent_hooks.decision'] === 'none')?._value).toBe(2);
    const calls = m.get('agent_hooks.hook.calls') ?? [];
    expect(calls.reduce((n, p) => n + Number(p._value), 0)).toBe(3);
  });
});
