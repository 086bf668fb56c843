/**
 * dispatch and `run` read their settings files in place (LoadConfigOptions.readFilesSync): a
 * one-shot process then starts no libuv thread pool for them (four threads, and a round trip per
 * system call; docs/performance.md item 14). Seen from the hook itself: it counts the threads of
 * the process that spawned it, against a minimal Node process spawning the same command.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { useTempDir } from '../helpers/tmp.js';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
const dir = useTempDir('ah-threads-');

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error('dist/cli/bin.cjs is missing: run `npm run build` first (npm test does)');
});

/** The hook: how many threads its parent (the process that spawned it) has, written to `out` (hooks get no caller env). */
const countParentThreads = (out: string) => `ls /proc/$PPID/task | wc -l > '${out}'`;
const withHook = (out: string) => ({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: countParentThreads(out) }] }] },
});

function threadsSeenBy(args: string[], input: string, out: string): number {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir.path('home'), AGENT_HOOKS_TRUST_STORE: dir.path('trust.json') };
  const r = spawnSync(process.execPath, args, { cwd: dir.path('work'), env, input, encoding: 'utf8', timeout: 30_000 });
  expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return Number(readFileSync(out, 'utf8').trim());
}

describe.skipIf(!existsSync('/proc/self/task'))('no thread pool for the settings of a one-shot command', () => {
  test('dispatch and run with one command hook: the hook sees as many threads in its parent as a bare Node spawn', () => {
    dir.json('home/.claude/settings.json', withHook(dir.path('dispatch')));
    const settings = dir.json('run-settings.json', withHook(dir.path('run')));
    dir.write('work/.keep', '');
    const payload = JSON.stringify({
      session_id: 's',
      transcript_path: dir.path('t.jsonl'),
      cwd: dir.path('work'),
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });

    // The floor: Node's own threads (V8's platform workers and the rest), and a spawn, nothing else.
    const bare = threadsSeenBy(
      [
        '-e',
        `require('node:child_process').spawn('sh', ['-c', process.argv[1]], { stdio: 'ignore', detached: true })`,
        countParentThreads(dir.path('bare')),
      ],
      '',
      dir.path('bare'),
    );
    expect(bare).toBeGreaterThan(0);
    expect(threadsSeenBy([BIN, 'dispatch', '--agent', 'claude'], payload, dir.path('dispatch'))).toBe(bare);
    const run = [BIN, 'run', 'PreToolUse', '--settings', settings, '--tool', 'Bash', '--input', '{"command":"ls"}'];
    expect(threadsSeenBy(run, '', dir.path('run'))).toBe(bare);
  });
});
