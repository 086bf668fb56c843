/**
 * For teams: what telemetry costs an in-process engine, and the policy server's throughput and
 * per-event latency at 1 and 2 instances (real CLI processes behind a loopback round-robin
 * balancer, 50 concurrent clients, a rotating JSONL audit file per instance).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHookEngine } from 'agent-hooks';
import { batchUs, calibrateBatch, interleave, pairedRow, round, type BenchOptions, type Row } from '../harness.js';
import { preToolUseInput, scratch } from '../fixtures.js';
import { quantile } from '../stats.js';

// bench/dist/suites → the package root's dist/cli/bin.cjs.
const BIN = join(import.meta.dirname, '..', '..', '..', 'dist', 'cli', 'bin.cjs');

function noop(): undefined {
  return undefined;
}

async function telemetryRows(opts: BenchOptions): Promise<Row[]> {
  const cwd = process.cwd();
  const input = preToolUseInput(cwd);
  const rounds = { warmup: 2, runs: opts.quick ? 15 : 50 };
  const targetMs = opts.quick ? 10 : 25;
  const off = createHookEngine({ projectDir: cwd, cwd, telemetry: false });
  const on = createHookEngine({ projectDir: cwd, cwd, telemetry: true });
  for (const e of [off, on]) e.register({ event: 'PreToolUse', matcher: 'Bash', name: 'one', fn: noop });
  await on.run('PreToolUse', input);
  const a = () => off.run('PreToolUse', input);
  const b = () => on.run('PreToolUse', input);
  const sides = await interleave(batchUs(a, await calibrateBatch(a, targetMs)), batchUs(b, await calibrateBatch(b, targetMs)), rounds);
  const row = pairedRow(
    {
      suite: 'teams',
      name: '1 matching function hook, telemetry off',
      unit: 'µs',
      baselineName: 'telemetry on, API without SDK',
      ratioNote: 'of on',
    },
    sides,
  );
  row.notes = ['off: run() is not wrapped at all (src/telemetry/observe.ts); the ratio is what switching on costs without an SDK'];
  return [row];
}

interface Instance {
  url: string;
  child: ChildProcess;
}

function startInstance(dir: string): Promise<Instance> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, 'policy-server', '--json', '--config', join(dir, 'team.json'), '--tokens', join(dir, 'tokens.json'), '--rate', '0'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ url: (JSON.parse(out.split('\n')[0]!) as { url: string }).url, child });
    });
    child.once('exit', (code) => reject(new Error(`policy-server exited ${code}`)));
  });
}

async function balancer(urls: string[]): Promise<{ url: string; server: Server }> {
  let next = 0;
  const server = createServer((req, res) => {
    const up = request(new URL(req.url ?? '/', urls[next++ % urls.length]), { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

async function serviceRows(opts: BenchOptions): Promise<Row[]> {
  const s = scratch('teams');
  const rows: Row[] = [];
  try {
    const token = { token: randomBytes(24).toString('base64url') };
    s.json('tokens.json', { clients: [{ id: 'bench', sha256: createHash('sha256').update(token.token).digest('hex') }] });
    // Every 20th event runs a command hook; the others match none (decision audited either way).
    s.json('team.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 0' }] }] },
      agentHooks: { auditSinks: [{ type: 'file', path: 'audit.jsonl' }] },
    });
    const events = opts.quick ? 1000 : 4000;
    const clients = 50;
    for (const n of [1, 2]) {
      const instances: Instance[] = [];
      for (let i = 0; i < n; i++) instances.push(await startInstance(s.root));
      const lb = await balancer(instances.map((i) => i.url));
      const latencies: number[] = [];
      let failed = 0;
      let next = 0;
      const fire = async (i: number) => {
        const body = JSON.stringify({
          session_id: 'b',
          hook_event_name: 'PreToolUse',
          cwd: s.root,
          transcript_path: '',
          tool_name: i % 20 === 0 ? 'Bash' : 'Read',
          tool_input: i % 20 === 0 ? { command: 'ls' } : { file_path: '/x' },
        });
        const t0 = performance.now();
        const res = await fetch(`${lb.url}/v1/decide`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
          body,
        });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
        latencies.push(performance.now() - t0);
      };
      for (let i = 0; i < 100; i++) await fire(i); // warm-up
      latencies.length = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < events) await fire(next++);
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      lb.server.close();
      lb.server.closeAllConnections();
      for (const i of instances) {
        i.child.kill('SIGTERM');
        await new Promise((r) => i.child.once('exit', r));
      }
      if (failed > 0) throw new Error(`teams: ${failed} of ${events} events failed at ${n} instance(s)`);
      const p50 = quantile(latencies, 0.5);
      const p99 = quantile(latencies, 0.99);
      rows.push({
        suite: 'teams',
        name: `policy server, ${n} instance${n > 1 ? 's' : ''}: throughput (${clients} clients, ${events} events)`,
        unit: 'events/s',
        value: round(events / seconds, 0),
        notes: [`p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms per event`],
        extra: { p50Ms: round(p50, 2), p99Ms: round(p99, 2), seconds: round(seconds, 2) },
      });
      rows.push({
        suite: 'teams',
        name: `policy server, ${n} instance${n > 1 ? 's' : ''}: p50 per event`,
        unit: 'ms',
        value: round(p50, 2),
      });
      rows.push({
        suite: 'teams',
        name: `policy server, ${n} instance${n > 1 ? 's' : ''}: p99 per event`,
        unit: 'ms',
        value: round(p99, 2),
      });
    }
  } finally {
    s.cleanup();
  }
  return rows;
}

export async function teamsSuite(opts: BenchOptions): Promise<Row[]> {
  return [...(await telemetryRows(opts)), ...(await serviceRows(opts))];
}
