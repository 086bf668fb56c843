/**
 * The real exporters of every OTLP protocol (http/protobuf, http/json, grpc) from the CLI against
 * loopback receivers that decode what arrives: spans, metrics, and the OTLP logs audit sink's
 * records with their attributes; an unknown protocol falls back to http/protobuf with a warning;
 * the dropped-records metric reaches the collector with the count of records a dead sink lost.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcReceiver, httpReceiver, logsOf, metricsOf, spansOf, type Receiver } from './otlp-receiver.js';

const BIN = join(import.meta.dirname, '../../../dist/cli/bin.cjs');

let dir = '';
let http: Receiver;
let grpc: Receiver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ah-otlp-proto-'));
  [http, grpc] = await Promise.all([httpReceiver(), grpcReceiver()]);
});
afterAll(async () => {
  await Promise.all([http?.close(), grpc?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

function settingsWith(name: string, auditSinks: unknown[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      agentHooks: { auditSinks },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no" >&2; exit 2' }] }] },
    }),
  );
  return file;
}

const CASES = [
  { protocol: 'http/protobuf', receiver: () => http, format: 'application/x-protobuf' },
  { protocol: 'http/json', receiver: () => http, format: 'application/json' },
  { protocol: 'grpc', receiver: () => grpc, format: 'grpc' },
] as const;

describe.each(CASES)('OTLP over $protocol', ({ protocol, receiver, format }) => {
  it('spans, metrics and the logs audit sink arrive decoded, with their attributes', async () => {
    const rx = receiver();
    rx.received.length = 0;
    const settings = settingsWith(`s-${protocol.replace('/', '-')}`, [{ type: 'otlp', flushMs: 1 }]);
    const r = await run(
      ['run', 'PreToolUse', '--settings', settings, '--tool', 'Bash', '--session-id', 'sess-1', '--input', '{"command":"rm -rf /"}'],
      {
        AGENT_HOOKS_ENABLE_TELEMETRY: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: rx.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_SERVICE_NAME: `svc-${protocol}`,
      },
    );
    expect(r.stderr).not.toMatch(/telemetry:|audit sink/);
    expect(r.code).toBe(2);
    // Every request came in the protocol asked for, and all three signals came.
    expect(new Set(rx.received.map((x) => x.format))).toEqual(new Set([format]));
    expect(new Set(rx.received.map((x) => x.signal))).toEqual(new Set(['traces', 'metrics', 'logs']));

    const spans = spansOf(rx.received);
    const firing = spans.find((s) => s.name === 'agent_hooks.event');
    const hook = spans.find((s) => s.name === 'agent_hooks.hook');
    expect(firing?.service).toBe(`svc-${protocol}`);
    expect(hook?.parentSpanId).toBe(firing?.spanId);
    expect(hook?.traceId).toBe(firing?.traceId);
    expect(firing?.attributes).toMatchObject({
      'agent_hooks.event': 'PreToolUse',
      'agent_hooks.decision': 'deny',
      'agent_hooks.tool_name': 'Bash',
    });
    expect(hook?.attributes).toMatchObject({
      'agent_hooks.matcher': 'Bash',
      'agent_hooks.hook.type': 'command',
      'agent_hooks.outcome': 'blocking',
      'agent_hooks.exit_code': 2,
    });

    const m = metricsOf(rx.received);
    expect(m.get('agent_hooks.hook.calls')).toEqual([expect.objectContaining({ 'agent_hooks.outcome': 'blocking', _value: 1 })]);
    expect(m.get('agent_hooks.decisions')).toEqual([expect.objectContaining({ 'agent_hooks.decision': 'deny', _value: 1 })]);

    const logs = logsOf(rx.received);
    expect(logs).toHaveLength(2);
    const hookLog = logs.find((l) => l.attributes['agent_hooks.kind'] === 'hook');
    const decisionLog = logs.find((l) => l.attributes['agent_hooks.kind'] === 'decision');
    expect(hookLog?.service).toBe(`svc-${protocol}`);
    expect(hookLog?.attributes).toMatchObject({
      'agent_hooks.project': dir,
      'agent_hooks.session_id': 'sess-1',
      'agent_hooks.client': 'local',
      'agent_hooks.event': 'PreToolUse',
      'agent_hooks.tool_name': 'Bash',
      'agent_hooks.hook.type': 'command',
      'agent_hooks.hook.source': 'cli',
      'agent_hooks.hook.file': settings,
      'agent_hooks.matcher': 'Bash',
      'agent_hooks.outcome': 'blocking',
      'agent_hooks.exit_code': 2,
      'agent_hooks.decision': 'deny',
    });
    expect(typeof hookLog?.attributes['agent_hooks.duration_ms']).toBe('number');
    expect(hookLog?.severityNumber).toBe(13);
    expect(decisionLog?.attributes).toMatchObject({
      'agent_hooks.event': 'PreToolUse',
      'agent_hooks.session_id': 'sess-1',
      'agent_hooks.decision': 'deny',
      'agent_hooks.outcome': 'blocked',
    });
    expect(decisionLog?.attributes['agent_hooks.firing_id']).toBe(hookLog?.attributes['agent_hooks.firing_id']);
    expect(decisionLog?.body).toBe('PreToolUse decision deny');
  });
});

describe('OTLP protocol fallbacks and failures', () => {
  it('an unknown OTEL_EXPORTER_OTLP_PROTOCOL: a warning, and http/protobuf is sent', async () => {
    http.received.length = 0;
    const settings = settingsWith('unknown-proto', []);
    const r = await run(['run', 'PreToolUse', '--settings', settings, '--tool', 'Bash', '--input', '{"command":"ls"}'], {
      AGENT_HOOKS_ENABLE_TELEMETRY: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: http.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/xml',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /OTEL_EXPORTER_OTLP_PROTOCOL=http\/xml is not one of http\/protobuf, http\/json, grpc; sending http\/protobuf/,
    );
    expect(http.received.length).toBeGreaterThan(0);
    expect(new Set(http.received.map((x) => x.format))).toEqual(new Set(['application/x-protobuf']));
    expect(spansOf(http.received).some((s) => s.name === 'agent_hooks.event')).toBe(true);
  });

  it('a dead audit sink: its dropped records are counted in agent_hooks.audit.dropped at the collector', async () => {
    http.received.length = 0;
    // Nothing listens on port 9 of the loopback: every batch fails; a buffer of 1 drops the rest.
    const deadSink = { type: 'otlp', endpoint: 'http://127.0.0.1:9', protocol: 'http/json', buffer: 1, flushMs: 1, timeoutMs: 500 };
    const settings = settingsWith('dead-sink', [deadSink]);
    const runs = 3;
    let stderr = '';
    for (let i = 0; i < runs; i++) {
      const r = await run(['run', 'PreToolUse', '--settings', settings, '--tool', 'Bash', '--input', '{"command":"ls"}'], {
        AGENT_HOOKS_ENABLE_TELEMETRY: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: http.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
      // The decision is never held by the dead sink.
      expect(r.code).toBe(2);
      stderr += r.stderr;
    }
    expect(stderr).toMatch(/audit sink otlp http:\/\/127\.0\.0\.1:9: \d+ record\(s\) dropped/);
    const dropped = metricsOf(http.received).get('agent_hooks.audit.dropped') ?? [];
    // One process per run: each exported its own cumulative count, with the sink named.
    expect(dropped).toHaveLength(runs);
    for (const p of dropped) expect(p).toMatchObject({ 'agent_hooks.sink': 'otlp http://127.0.0.1:9' });
    // Each run wrote two records (the hook and the decision), and the sink took none of them.
    expect(dropped.map((p) => p._value)).toEqual(Array(runs).fill(2));
  });
});
