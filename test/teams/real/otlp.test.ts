/**
 * The real OTLP exporter (CLI `run` and `dispatch`, AGENT_HOOKS_ENABLE_TELEMETRY=1) against a
 * loopback receiver that decodes the http/json it sends: a span per firing with a child per
 * hook execution, and the hook-call, latency and decision metrics, with their attributes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '../../../dist/cli/bin.cjs');

interface OtlpAttr {
  key: string;
  value: Record<string, unknown>;
}
const attrs = (list: OtlpAttr[] = []) => Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));

let server: Server;
let endpoint = '';
const bodies: Array<{ path: string; body: Record<string, unknown> }> = [];
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ah-otlp-'));
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      expect(req.headers['content-type']).toMatch(/json/);
      bodies.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string>, stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

function spans() {
  const out: Array<{
    name: string;
    traceId: string;
    spanId: string;
    parentSpanId?: string;
    attributes: Record<string, unknown>;
    service?: unknown;
  }> = [];
  for (const { path, body } of bodies) {
    if (path !== '/v1/traces') continue;
    for (const rs of body.resourceSpans as Array<{
      resource: { attributes: OtlpAttr[] };
      scopeSpans: Array<{ spans: Array<Record<string, unknown>> }>;
    }>) {
      for (const ss of rs.scopeSpans)
        for (const s of ss.spans)
          out.push({
            name: s.name as string,
            traceId: s.traceId as string,
            spanId: s.spanId as string,
            parentSpanId: (s.parentSpanId as string) || undefined,
            attributes: attrs(s.attributes as OtlpAttr[]),
            service: attrs(rs.resource.attributes)['service.name'],
          });
    }
  }
  return out;
}

function metricNames() {
  const out = new Map<string, Array<Record<string, unknown>>>();
  for (const { path, body } of bodies) {
    if (path !== '/v1/metrics') continue;
    for (const rm of body.resourceMetrics as Array<{ scopeMetrics: Array<{ metrics: Array<Record<string, unknown>> }> }>) {
      for (const sm of rm.scopeMetrics) {
        for (const m of sm.metrics) {
          const data = (m.sum ?? m.histogram) as { dataPoints: Array<{ attributes: OtlpAttr[] } & Record<string, unknown>> };
          out.set(m.name as string, [
            ...(out.get(m.name as string) ?? []),
            ...data.dataPoints.map((p) => ({ ...attrs(p.attributes), _value: p.asInt ?? p.asDouble ?? p.count })),
          ]);
        }
      }
    }
  }
  return out;
}

describe('OTLP export (http/json) from the CLI', () => {
  it('run: spans per firing and per hook with attributes, and the metrics', async () => {
    bodies.length = 0;
    const settings = join(dir, 'settings.json');
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no" >&2; exit 2' }] }] } }),
    );
    const r = await run(['run', 'PreToolUse', '--settings', settings, '--tool', 'Bash', '--input', '{"command":"rm -rf /"}'], {
      AGENT_HOOKS_ENABLE_TELEMETRY: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'hooks-under-test',
    });
    expect(r.stderr).not.toMatch(/telemetry:/);
    expect(r.code).toBe(2);
    const all = spans();
    const firing = all.find((s) => s.name === 'agent_hooks.event');
    const hook = all.find((s) => s.name === 'agent_hooks.hook');
    expect(firing).toBeDefined();
    expect(hook).toBeDefined();
    expect(firing!.service).toBe('hooks-under-test');
    expect(hook!.traceId).toBe(firing!.traceId);
    expect(hook!.parentSpanId).toBe(firing!.spanId);
    expect(firing!.attributes).toMatchObject({
      'agent_hooks.event': 'PreToolUse',
      'agent_hooks.decision': 'deny',
      'agent_hooks.outcome': 'blocked',
      'agent_hooks.tool_name': 'Bash',
    });
    expect(hook!.attributes).toMatchObject({
      'agent_hooks.event': 'PreToolUse',
      'agent_hooks.matcher': 'Bash',
      'agent_hooks.hook.type': 'command',
      'agent_hooks.hook.source': 'cli',
      'agent_hooks.outcome': 'blocking',
      'agent_hooks.exit_code': 2,
      'agent_hooks.decision': 'deny',
    });
    expect(hook!.attributes['agent_hooks.hook.file']).toBe(settings);
    expect(typeof hook!.attributes['agent_hooks.duration_ms']).toBe('number');
    const m = metricNames();
    expect(m.get('agent_hooks.hook.calls')).toEqual([
      expect.objectContaining({ 'agent_hooks.outcome': 'blocking', 'agent_hooks.hook.type': 'command', _value: 1 }),
    ]);
    expect(m.get('agent_hooks.decisions')).toEqual([expect.objectContaining({ 'agent_hooks.decision': 'deny', _value: 1 })]);
    expect(m.get('agent_hooks.hook.duration')?.[0]).toMatchObject({ 'agent_hooks.hook.type': 'command', _value: 1 });
  });

  it('dispatch: switched on by the same keys in the settings file `env`', async () => {
    bodies.length = 0;
    const settings = join(dir, 'gemini.json');
    writeFileSync(
      settings,
      JSON.stringify({
        env: { AGENT_HOOKS_ENABLE_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
        hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'exit 0' }] }] },
      }),
    );
    const payload = JSON.stringify({
      session_id: 'd1',
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: '/x' },
      cwd: dir,
      transcript_path: '',
    });
    const r = await run(['dispatch', '--agent', 'claude', '--settings', settings], {}, payload);
    expect(r.code).toBe(0);
    const all = spans();
    expect(all.filter((s) => s.name === 'agent_hooks.event')).toHaveLength(1);
    expect(all.find((s) => s.name === 'agent_hooks.hook')?.attributes).toMatchObject({
      'agent_hooks.outcome': 'success',
      'agent_hooks.exit_code': 0,
    });
    expect(all[0]!.service).toBe('agent-hooks');
    expect(metricNames().get('agent_hooks.decisions')).toEqual([
      expect.objectContaining({ 'agent_hooks.decision': 'none', 'agent_hooks.event': 'PreToolUse' }),
    ]);
  });

  it('off by default: nothing is sent', async () => {
    bodies.length = 0;
    const settings = join(dir, 'off.json');
    writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'exit 0' }] }] } }));
    const r = await run(['run', 'PreToolUse', '--settings', settings, '--tool', 'Read'], {
      AGENT_HOOKS_ENABLE_TELEMETRY: '',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    });
    expect(r.code).toBe(0);
    expect(bodies).toEqual([]);
  });
});
