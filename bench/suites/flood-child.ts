/**
 * Runs in its own Node process (started by flood.ts with --expose-gc): one hook writes
 * `bytes` to stdout, through the engine or a bare spawn that reads and drops the data. The
 * engine either forks the hook itself (`direct`: the CLI, and a library host until its spawner
 * helper is up) or through its spawner helper, waited for during the warm-up (`spawner`: a
 * library host in steady state).
 * Prints one JSON line: RSS and heap before and at peak. The peak is the larger of 5 ms
 * samples and the kernel's high-water mark (VmHWM, reset just before the flood).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createHookEngine, loadConfig } from 'agent-hooks';
import { spawnerReady } from 'agent-hooks/stages';

const MiB = 1024 * 1024;

function procStatusKiB(field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

function resetHighWaterMark(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function bareDrain(bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('head', ['-c', String(bytes), '/dev/zero'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let seen = 0;
    child.stdout.on('data', (c: Buffer) => {
      seen += c.length;
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve(seen));
    child.stdin.on('error', () => {});
    child.stdin.end('{}');
  });
}

async function main(): Promise<void> {
  const [mode, bytesArg, cwd] = process.argv.slice(2);
  const bytes = Number(bytesArg);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('flood child needs --expose-gc');
  if (!cwd || !['direct', 'spawner', 'bare'].includes(mode ?? ''))
    throw new Error('flood child: usage: flood-child.js direct|spawner|bare <bytes> <cwd>');
  const engineMode = mode === 'direct' || mode === 'spawner';

  const command = (n: number) => ({ type: 'command', command: 'head', args: ['-c', String(n), '/dev/zero'], timeout: 300 });
  const config = await loadConfig({
    cwd,
    discover: false,
    settingsFiles: [
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [command(bytes)] }],
          PostToolUse: [{ matcher: 'Bash', hooks: [command(64 * 1024)] }],
        },
      }),
    ],
  });
  const engine = createHookEngine({ hooks: config.hooks, projectDir: cwd, cwd, spawner: mode === 'spawner' });
  const base = { session_id: 'flood', transcript_path: '', cwd, tool_name: 'Bash', tool_input: { command: 'yes' } };

  // Warm-up: load every code path the flood uses before the baseline is taken.
  for (let i = 0; i < 3; i++) {
    if (engineMode) await engine.run('PostToolUse', { ...base, tool_response: {} });
    else await bareDrain(64 * 1024);
  }
  if (mode === 'spawner' && !(await spawnerReady())) throw new Error('flood child: the spawner helper did not start');
  gc();
  gc();
  const hwm = resetHighWaterMark();
  const before = process.memoryUsage();
  const beforeRss = (procStatusKiB('VmRSS') ?? before.rss / 1024) * 1024;
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  let peakBuffers = before.arrayBuffers;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    if (m.arrayBuffers > peakBuffers) peakBuffers = m.arrayBuffers;
  }, 5);

  const t0 = performance.now();
  let captured = 0;
  let truncated = false;
  let outcome = 'bare';
  if (engineMode) {
    const d = await engine.run('PreToolUse', base);
    const h = d.hooks[0];
    outcome = h?.outcome ?? 'none';
    truncated = h?.stdoutTruncated ?? false;
    // What the engine kept of stdout is not on the Decision; the cap is checked via the flag.
    captured = -1;
  } else {
    captured = await bareDrain(bytes);
  }
  const ms = performance.now() - t0;
  clearInterval(sampler);
  const hwmKiB = hwm ? procStatusKiB('VmHWM') : undefined;
  if (hwmKiB !== undefined && hwmKiB * 1024 > peakRss) peakRss = hwmKiB * 1024;
  await engine.close();
  process.stdout.write(
    `${JSON.stringify({
      mode,
      bytes,
      ms,
      throughputMiBs: bytes / MiB / (ms / 1000),
      rssBeforeMiB: beforeRss / MiB,
      rssPeakMiB: peakRss / MiB,
      rssGrowthMiB: (peakRss - beforeRss) / MiB,
      heapGrowthMiB: (peakHeap - before.heapUsed) / MiB,
      arrayBuffersGrowthMiB: (peakBuffers - before.arrayBuffers) / MiB,
      highWaterMark: hwm,
      outcome,
      truncated,
      captured,
    })}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exitCode = 1;
});
