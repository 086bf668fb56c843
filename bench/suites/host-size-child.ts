/**
 * Runs in its own Node process (started by host-size.ts): holds `MiB` of touched memory, then
 * times `runs` PreToolUse events with one command hook (`true`), the hook forked directly or
 * by the spawner helper. Prints one JSON line: the samples in ms and the host's RSS.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createHookEngine } from 'agent-hooks';
import { spawnerPid, spawnerReady, type NormalizedHook } from 'agent-hooks/stages';

const [mibArg, mode, runsArg, cwd] = process.argv.slice(2);
const MiB = 1024 * 1024;
// Touched, so the pages are resident and fork() must copy their page tables.
const ballast: Buffer[] = [];
for (let i = 0; i < Number(mibArg); i += 64) ballast.push(Buffer.alloc(64 * MiB, 1));

const spawner = mode === 'spawner';
const hook = (command: string): NormalizedHook => ({
  id: 'bench:host-size',
  event: 'PreToolUse',
  matcher: 'Bash',
  handler: { type: 'command', command },
  source: { kind: 'sdk', path: 'bench' },
  dedupKey: command,
});
const input = { session_id: 's', transcript_path: '', cwd, tool_name: 'Bash', tool_input: { command: 'ls' } };

if (spawner && !(await spawnerReady())) throw new Error('the spawner did not start');
// The hook's parent proves which way it was forked.
const probe = createHookEngine({ hooks: [hook('echo $PPID >&2; exit 2')], projectDir: cwd, cwd, spawner });
const who = await probe.run('PreToolUse', input);
const parent = Number(who.reason?.trim());
if (parent !== (spawner ? spawnerPid() : process.pid)) throw new Error(`hook parent ${parent}: not forked as "${mode}"`);

const engine = createHookEngine({ hooks: [hook('true')], projectDir: cwd, cwd, spawner });
const samples: number[] = [];
for (let i = 0; i < 3 + Number(runsArg); i++) {
  const t0 = performance.now();
  await engine.run('PreToolUse', input);
  if (i >= 3) samples.push(performance.now() - t0);
}
const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
process.stdout.write(`${JSON.stringify({ samples, rssMiB: Math.round(rss), held: ballast.length * 64 })}\n`);
