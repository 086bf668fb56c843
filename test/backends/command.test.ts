import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/backends/command.js';
import type { CommandSpec } from '../../src/backends/command-target.js';
import { drainerCommand, useDrainer } from '../../src/backends/capture.js';
import { spawnerPid } from '../../src/backends/spawner.js';
import { buildHookEnv } from '../../src/backends/env.js';
import { substituteForShell } from '../../src/backends/shell-placeholders.js';
import { encodePayload } from '../../src/backends/payload.js';
import { HAS_PROC, ProcessTracker, fixture, isPidLive, liveGroupMembers, prepareFixtures, waitUntil, watchChildren } from './helpers.js';

const tracker = new ProcessTracker();
let work: string;

beforeAll(() => {
  prepareFixtures();
  work = mkdtempSync(join(tmpdir(), 'agent-hooks-cmd-'));
});
afterEach(async () => {
  // Every test must leave no process of its hook behind (unless it says so).
  expect(await tracker.cleanup()).toEqual([]);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function spec(overrides: Partial<CommandSpec> & { command: string }): CommandSpec {
  return {
    cwd: work,
    env: buildHookEnv(),
    stdin: '',
    timeoutMs: 10_000,
    onSpawn: tracker.onSpawn,
    ...overrides,
  };
}

/** The one group a test started. */
function onlyGroup(): number {
  expect(tracker.groups.size).toBe(1);
  return [...tracker.groups][0]!;
}

describe('runCommand: exit codes and output', () => {
  it.each([0, 1, 2])('exit %i: completed with both streams captured', async (code) => {
    const r = await runCommand(spec({ command: `sh "${fixture('exit-code.sh')}" ${code}` }));
    expect(r).toMatchObject({
      status: 'completed',
      exitCode: code,
      signal: null,
      stdout: `out ${code}\n`,
      stderr: `err ${code}\n`,
      stdoutTruncated: false,
      stderrTruncated: false,
      stdinTruncated: false,
    });
    expect(r.error).toBeUndefined();
    expect(r.durationMs).toBeGreaterThan(0);
  });

  it('shell form: a missing script is exit 127 from sh, not an error', async () => {
    const r = await runCommand(spec({ command: join(work, 'no-such-hook.sh') }));
    expect(r.status).toBe('completed');
    expect(r.exitCode).toBe(127);
    expect(r.stderr).toMatch(/not found|No such file/);
  });

  it('shell form: a non-executable script is exit 126', async () => {
    const r = await runCommand(spec({ command: fixture('not-executable.sh') }));
    expect(r.status).toBe('completed');
    expect(r.exitCode).toBe(126);
    expect(r.stdout).toBe('');
  });

  it('shell form: pipes, redirects and variables work', async () => {
    const r = await runCommand(
      spec({ command: 'echo hello | tr a-z A-Z; echo "$GREETING" >&2', env: { ...buildHookEnv(), GREETING: 'hi there' } }),
    );
    expect(r.stdout).toBe('HELLO\n');
    expect(r.stderr).toBe('hi there\n');
  });

  it('runs in the given cwd', async () => {
    const r = await runCommand(spec({ command: 'pwd -P' }));
    expect(r.stdout.trim()).toBe(realpathSync(work));
  });

  it('shell "bash" runs bash', async () => {
    const r = await runCommand(spec({ command: '[[ "$BASH_VERSION" != "" ]] && echo bash', shell: 'bash' }));
    expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'bash\n' });
  });

  it('shell "powershell" without pwsh on PATH is a clear error', async () => {
    const r = await runCommand(spec({ command: 'Write-Output hi', shell: 'powershell', env: { PATH: work } }));
    expect(r.status).toBe('error');
    expect(r.exitCode).toBeNull();
    expect(r.error).toMatch(/pwsh/);
  });

  it('a hook killed by a signal completes with exitCode null and the signal', async () => {
    const r = await runCommand(spec({ command: 'kill -KILL $$' }));
    expect(r).toMatchObject({ status: 'completed', exitCode: null, signal: 'SIGKILL' });
  });

  it('invalid UTF-8 becomes replacement characters', async () => {
    const r = await runCommand(spec({ command: fixture('invalid-utf8.sh') }));
    expect(r.status).toBe('completed');
    expect(r.stdout).toBe('ok \uFFFD\uFFFD mid \uFFFD end\n');
  });

  it('a timeout beyond setTimeout range means no timeout, not an instant one', async () => {
    const r = await runCommand(spec({ command: 'sleep 0.05; echo ok', timeoutMs: 1e12 }));
    expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'ok\n' });
  });
});

describe('runCommand: exec form', () => {
  it('passes args verbatim, with no shell interpretation', async () => {
    const args = ["it's", '$HOME', '`id`', '$(id)', 'a b', '', '*', '"q"', 'back\\slash', 'line\nbreak', 'ünï'];
    const r = await runCommand(spec({ command: process.execPath, args: [fixture('print-args.mjs'), ...args] }));
    expect(r.status).toBe('completed');
    expect(JSON.parse(r.stdout)).toEqual(args);
  });

  it('resolves a bare command name on the hook PATH', async () => {
    const r = await runCommand(spec({ command: 'echo', args: ['$HOME', 'a  b'] }));
    expect(r.stdout).toBe('$HOME a  b\n');
  });

  it('empty args is still exec form: the command is not split by a shell', async () => {
    const r = await runCommand(spec({ command: 'echo hi', args: [] }));
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/command not found: echo hi/);
  });

  it('a nonexistent command is status error, no throw', async () => {
    const r = await runCommand(spec({ command: 'agent-hooks-no-such-binary', args: [] }));
    expect(r).toMatchObject({ status: 'error', exitCode: null, stdout: '', stderr: '' });
    expect(r.error).toMatch(/not found/);
  });

  it('a non-executable file is status error (EACCES)', async () => {
    const r = await runCommand(spec({ command: fixture('not-executable.sh'), args: [] }));
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/permission denied/);
  });

  it('a NUL byte in an argument is status error, no throw', async () => {
    const r = await runCommand(spec({ command: 'echo', args: ['a\0b'] }));
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/failed to start/);
  });
});

describe('runCommand: cwd problems', () => {
  it('a missing cwd is status error naming the directory', async () => {
    const gone = join(work, 'removed');
    mkdirSync(gone);
    rmSync(gone, { recursive: true });
    for (const form of [{ command: 'echo hi' }, { command: 'echo', args: ['hi'] }]) {
      const r = await runCommand(spec({ ...form, cwd: gone }));
      expect(r.status).toBe('error');
      expect(r.error).toContain(`working directory does not exist or is not a directory: ${gone}`);
    }
  });

  it('a hook that cannot be started is the engine’s fault; one that ran and failed is not', async () => {
    const gone = join(work, 'removed-2');
    for (const form of [{ command: 'echo hi' }, { command: 'echo', args: ['hi'] }])
      expect((await runCommand(spec({ ...form, cwd: gone }))).engineFault).toBe(true);
    expect((await runCommand(spec({ command: 'no-such-program-x', args: [] }))).engineFault).toBe(true);
    // /bin/sh started; the command it ran was not found: the hook's own exit 127.
    const own = await runCommand(spec({ command: 'no-such-program-x' }));
    expect(own).toMatchObject({ status: 'completed', exitCode: 127 });
    expect(own.engineFault).toBeUndefined();
  });
});

describe('runCommand: stdin', () => {
  it('delivers the payload and closes stdin', async () => {
    const { text } = encodePayload({ hook_event_name: 'PreToolUse', tool_input: { command: 'ls -la' } });
    const r = await runCommand(spec({ command: process.execPath, args: [fixture('echo-stdin.mjs')], stdin: text }));
    expect(r.stdout).toBe(text);
    expect(r.stderr).toBe(`read ${Buffer.byteLength(text)} bytes`);
  });

  it('accepts a Buffer', async () => {
    const r = await runCommand(spec({ command: 'cat', stdin: Buffer.from('bytes\n') }));
    expect(r.stdout).toBe('bytes\n');
  });

  it('a hook that never reads stdin, given 1 MiB, completes', async () => {
    const r = await runCommand(spec({ command: fixture('never-reads-stdin.sh'), stdin: 'x'.repeat(1024 * 1024) }));
    expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'done\n' });
  });

  it('a hook that exits at once without reading 1 MiB of stdin completes', async () => {
    const r = await runCommand(spec({ command: 'exit 0', stdin: Buffer.alloc(1024 * 1024, 0x61) }));
    expect(r).toMatchObject({ status: 'completed', exitCode: 0 });
  });

  it('a hook that closes stdin at once completes', async () => {
    const r = await runCommand(spec({ command: fixture('closes-stdin.sh'), stdin: 'y'.repeat(512 * 1024) }));
    expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'closed\n' });
  });
});

describe('runCommand: output caps', () => {
  it('caps a 50 MB flood on stdout and still reads it to the end', async () => {
    const r = await runCommand(spec({ command: 'head -c 50000000 /dev/zero; echo tail >&2' }));
    expect(r.status).toBe('completed');
    expect(r.exitCode).toBe(0);
    expect(r.stdoutTruncated).toBe(true);
    expect(Buffer.byteLength(r.stdout)).toBe(1024 * 1024);
    expect(r.stderr).toBe('tail\n'); // the writer was not blocked: it got to the next command
    expect(r.stderrTruncated).toBe(false);
  });

  describe("past the cap, a forked hook's stream is read by a drainer (cat), not by us", () => {
    afterEach(() => useDrainer(undefined));
    // No drainer where setpriv or cat is missing (macOS, util-linux before 2.33): the engine reads on.
    const noDrainer = drainerCommand() === null;
    // Forced through the spawner helper (command-spawner.test.ts), the drainers are the helper's children.
    const drainerParent = () => (process.env.AGENT_HOOKS_SPAWNER === '1' ? spawnerPid() : process.pid);

    /** Run the hook while sampling our cat children; every cat seen, in order. */
    async function runWatchingCats(s: CommandSpec, during?: (cat: number) => void) {
      const cats = watchChildren(drainerParent, 'cat', during);
      try {
        const r = await runCommand(s);
        return { r, seen: cats.seen() };
      } finally {
        cats.stop();
      }
    }

    it.skipIf(noDrainer)('a flood on both streams: each handed to its own cat, capped, the writer not blocked, no cat left', async () => {
      const { r, seen } = await runWatchingCats(
        spec({ command: 'head -c 20000000 /dev/zero; head -c 20000000 /dev/zero >&2; sleep 0.3; echo done' }),
      );
      expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdoutTruncated: true, stderrTruncated: true });
      expect(Buffer.byteLength(r.stdout)).toBe(1024 * 1024);
      expect(Buffer.byteLength(r.stderr)).toBe(1024 * 1024);
      expect(seen).toHaveLength(2);
      // The run ends only when the drainers saw the end of the output.
      for (const pid of seen) expect(isPidLive(pid)).toBe(false);
    });

    it('a small overflow (under 1 MiB past the cap) is read here: no fork for it', async () => {
      const { r, seen } = await runWatchingCats(spec({ command: 'head -c 1900000 /dev/zero; sleep 0.3' }));
      expect(r).toMatchObject({ status: 'completed', stdoutTruncated: true });
      expect(seen).toEqual([]);
    });

    it('where no drainer starts, the rest is read here, and a hook gone quiet does not stall us', async () => {
      // Its exec fails after the fork, and the child made the shared pipe blocking first.
      useDrainer(['/nonexistent/agent-hooks-cat']);
      const t0 = performance.now();
      const r = await runCommand(
        spec({ command: 'head -c 2200000 /dev/zero; sleep 0.2; head -c 65536 /dev/zero; exec sleep 30', timeoutMs: 800 }),
      );
      expect(r).toMatchObject({ status: 'timeout', stdoutTruncated: true });
      expect(Buffer.byteLength(r.stdout)).toBe(1024 * 1024);
      // Loose bound: only proves a blocking read did not hold us until the hook's `sleep 30` ended.
      expect(performance.now() - t0).toBeLessThan(5000);
    });

    it.skipIf(noDrainer)('a Ctrl-C, SIGTERM or SIGHUP to our group does not end a drainer (it would end the hook by SIGPIPE)', async () => {
      const { r, seen } = await runWatchingCats(
        spec({ command: 'head -c 3000000 /dev/zero; sleep 0.4; head -c 3000000 /dev/zero && echo ok >&2' }),
        (cat) => {
          for (const signal of ['SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGHUP'] as const) process.kill(cat, signal);
        },
      );
      expect(seen.length).toBeGreaterThan(0);
      expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdoutTruncated: true, stderr: 'ok\n' });
    });

    it.skipIf(noDrainer)(
      'a drainer killed before the end does not end the output: a descendant holding the pipe is ended at the drain deadline',
      async () => {
        const { r, seen } = await runWatchingCats(
          spec({ command: 'head -c 3000000 /dev/zero; sleep 30 2>/dev/null & sleep 0.1', exitDrainMs: 200 }),
          (cat) => process.kill(cat, 'SIGKILL'),
        );
        expect(seen.length).toBeGreaterThan(0);
        expect(r).toMatchObject({ status: 'completed', exitCode: 0 });
        expect(await waitUntil(() => liveGroupMembers(onlyGroup()).length === 0)).toBe(true);
      },
    );

    it.skipIf(noDrainer).each(['exits', 'is killed'] as const)(
      'the drainers of a process that %s die with it: a hook flooding its pipe then dies of SIGPIPE, as before drainers',
      async (how) => {
        const host = join(work, 'flooding-host.mjs');
        const dist = new URL('../../dist/backends/', import.meta.url).href;
        writeFileSync(
          host,
          `import { runCommand } from '${dist}command.js';
import { buildHookEnv } from '${dist}env.js';
void runCommand({ command: 'exec yes', cwd: '/', env: buildHookEnv(), stdin: '', timeoutMs: 60000, onSpawn: (pid) => console.log(pid) });
process.on('SIGUSR2', () => process.exit(0));
`,
        );
        const child = spawn(process.execPath, [host, how], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c));
        // Once its drainer runs: the host exits mid-run, or is killed.
        const cats = watchChildren(
          () => child.pid,
          'cat',
          () => child.kill(how === 'exits' ? 'SIGUSR2' : 'SIGKILL'),
        );
        await new Promise((resolve) => child.on('close', resolve));
        cats.stop();
        const seen = cats.seen();
        const hook = Number(out.trim());
        try {
          expect(hook).toBeGreaterThan(0);
          expect(seen).toHaveLength(1);
          // A bound on liveness, not a speed figure: a loaded machine took over 1 s for the SIGPIPE.
          expect(await waitUntil(() => seen.every((pid) => !isPidLive(pid)), 5000)).toBe(true);
          expect(await waitUntil(() => !isPidLive(hook), 5000)).toBe(true);
        } finally {
          if (hook > 0 && isPidLive(hook)) process.kill(-hook, 'SIGKILL');
        }
      },
    );
  });

  it('caps stderr separately, at maxOutputBytes', async () => {
    const r = await runCommand(spec({ command: 'head -c 300000 /dev/zero >&2; echo ok', maxOutputBytes: 1000 }));
    expect(r).toMatchObject({ stdout: 'ok\n', stdoutTruncated: false, stderrTruncated: true });
    expect(r.stderr.length).toBe(1000);
  });

  it('a multi-byte character cut by the cap is dropped, not turned into U+FFFD', async () => {
    const r = await runCommand(spec({ command: "printf 'abcd\\303\\251fgh'", maxOutputBytes: 5 }));
    expect(r.stdout).toBe('abcd');
    expect(r.stdoutTruncated).toBe(true);
  });

  it('an endless writer (yes) is capped and timed out', async () => {
    const r = await runCommand(spec({ command: 'yes', timeoutMs: 500, maxOutputBytes: 64 * 1024 }));
    expect(r.status).toBe('timeout');
    expect(r.stdoutTruncated).toBe(true);
    expect(r.stdout.length).toBe(64 * 1024);
    expect(await waitUntil(() => liveGroupMembers(onlyGroup()).length === 0)).toBe(true);
  });

  it('memory stays bounded while a hook writes 500 MB', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      const r = await runCommand(spec({ command: 'head -c 500000000 /dev/zero', timeoutMs: 60_000 }));
      expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdoutTruncated: true });
      expect(r.stdout.length).toBe(1024 * 1024);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    // Loose on purpose (GC timing); holding the flood would need ~500 MB.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  }, 60_000);
});

describe('runCommand: timeout, abort and the process tree', () => {
  it('kills a SIGTERM-ignoring hook and its grandchild holding stdout, without waiting for the grandchild', async () => {
    const timeoutMs = 1000;
    const t0 = performance.now();
    const r = await runCommand(spec({ command: fixture('grandchild-holds-stdout.sh'), timeoutMs, killGraceMs: 250 }));
    const elapsed = performance.now() - t0;
    expect(r.status).toBe('timeout');
    expect(r.exitCode).toBeNull();
    expect(r.stdout).toMatch(/^grandchild \d+\n$/);
    expect(r.error).toMatch(/timed out/);
    // Loose bound: only proves we did not wait for the grandchild (it never exits).
    expect(elapsed).toBeLessThan(timeoutMs + 3000);
    const pgid = onlyGroup();
    expect(await waitUntil(() => liveGroupMembers(pgid).length === 0)).toBe(true);
    const grandchild = Number(r.stdout.split(' ')[1]);
    expect(isPidLive(grandchild)).toBe(false);
  });

  it('a hook that honours SIGTERM is reported as timeout and its group is gone', async () => {
    const r = await runCommand(spec({ command: 'sleep 30 & sleep 30', timeoutMs: 300 }));
    expect(r).toMatchObject({ status: 'timeout', exitCode: null });
    expect(await waitUntil(() => liveGroupMembers(onlyGroup()).length === 0)).toBe(true);
  });

  it.skipIf(!HAS_PROC)('also kills a descendant that escaped the group with setsid', async () => {
    const pidFile = join(work, 'escaped.pid');
    const r = await runCommand(spec({ command: `${fixture('escape-setsid.sh')} "${pidFile}"`, timeoutMs: 500 }));
    expect(r.status).toBe('timeout');
    const escaped = Number(readFileSync(pidFile, 'utf8'));
    tracker.pids.add(escaped);
    expect(escaped).toBeGreaterThan(0);
    expect(await waitUntil(() => !isPidLive(escaped))).toBe(true);
    expect(await waitUntil(() => liveGroupMembers(onlyGroup()).length === 0)).toBe(true);
  });

  it.skipIf(!HAS_PROC)('also kills a double-forked setsid grandchild whose parent already exited (found by its run mark)', async () => {
    const pidFile = join(work, 'orphan.pid');
    // The subshell exits at once: the grandchild is re-parented to init, so no parent link leads to it.
    const command = `(setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 30' &) ; sleep 30`;
    const r = await runCommand(spec({ command, timeoutMs: 500 }));
    expect(r.status).toBe('timeout');
    const orphan = Number(readFileSync(pidFile, 'utf8'));
    tracker.pids.add(orphan);
    expect(await waitUntil(() => !isPidLive(orphan))).toBe(true);
  });

  it.skipIf(!HAS_PROC)('a grandchild that clears its environment as well escapes (the stated limit, docs/security.md)', async () => {
    const pidFile = join(work, 'cleared.pid');
    const command = `(setsid env -i sh -c 'echo $$ > "${pidFile}"; exec sleep 30' &) ; sleep 30`;
    const r = await runCommand(spec({ command, timeoutMs: 300 }));
    expect(r.status).toBe('timeout');
    const cleared = Number(readFileSync(pidFile, 'utf8'));
    tracker.pids.add(cleared);
    expect(isPidLive(cleared)).toBe(true);
    process.kill(cleared, 'SIGKILL');
  });

  it('a leader that exits while a background child holds stdout does not stall us', async () => {
    const t0 = performance.now();
    const r = await runCommand(spec({ command: 'sleep 30 & echo hi', timeoutMs: 20_000 }));
    expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'hi\n' });
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(await waitUntil(() => liveGroupMembers(onlyGroup()).length === 0)).toBe(true);
  });

  it('a background child that does not hold the pipes is left running (hooks may start daemons)', async () => {
    const r = await runCommand(spec({ command: 'sleep 30 >/dev/null 2>&1 & echo $!' }));
    expect(r).toMatchObject({ status: 'completed', exitCode: 0 });
    const daemon = Number(r.stdout.trim());
    expect(isPidLive(daemon)).toBe(true);
    tracker.allowLeftovers = true; // afterEach kills it via its group
  });

  it.each([
    ['cmd & with redirected output', 'sleep 30 >/dev/null 2>&1 & echo $!'],
    ['nohup with redirected output', 'nohup sleep 30 >/dev/null 2>&1 & echo $!'],
    ['setsid, out of the group', 'setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $!'],
  ])('a backgrounded child that does not hold the pipes outlives a hook that exits (%s), as in Claude Code', async (_form, command) => {
    const r = await runCommand(spec({ command }));
    expect(r).toMatchObject({ status: 'completed', exitCode: 0 });
    const child = Number(r.stdout.trim());
    expect(isPidLive(child)).toBe(true);
    process.kill(child, 'SIGKILL'); // setsid's child is out of the group afterEach cleans
    tracker.allowLeftovers = true;
  });

  it('abort signal: kills the tree and reports aborted', async () => {
    const controller = new AbortController();
    const pending = runCommand(
      spec({
        command: fixture('grandchild-holds-stdout.sh'),
        signal: controller.signal,
        onSpawn: (pid) => {
          tracker.onSpawn(pid);
          setTimeout(() => controller.abort(), 100);
        },
      }),
    );
    const r = await pending;
    expect(r).toMatchObject({ status: 'aborted', exitCode: null });
    expect(await waitUntil(() => liveGroupMembers(onlyGroup()).length === 0)).toBe(true);
  });

  it('an already-aborted signal does not start the hook', async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = join(work, 'should-not-exist');
    const r = await runCommand(spec({ command: `touch "${marker}"`, signal: controller.signal }));
    expect(r.status).toBe('aborted');
    expect(tracker.groups.size).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('killGraceMs 0 goes straight to SIGKILL', async () => {
    const r = await runCommand(spec({ command: fixture('grandchild-holds-stdout.sh'), timeoutMs: 200, killGraceMs: 0 }));
    expect(r).toMatchObject({ status: 'timeout', signal: 'SIGKILL' });
    expect(await waitUntil(() => liveGroupMembers(onlyGroup()).length === 0)).toBe(true);
  });
});

describe('runCommand: environment', () => {
  it('the hook sees only the minimal environment plus what was given', async () => {
    process.env.AGENT_HOOKS_TEST_SECRET = 'hunter2';
    try {
      const env = buildHookEnv({ projectDir: work, sessionEnv: { SESSION_VAR: 's' }, hookEnv: { HOOK_VAR: 'h' } });
      const r = await runCommand(spec({ command: process.execPath, args: [fixture('print-env.mjs')], env }));
      const seen = JSON.parse(r.stdout) as Record<string, string>;
      expect(seen.AGENT_HOOKS_TEST_SECRET).toBeUndefined();
      expect(JSON.stringify(seen)).not.toContain('hunter2');
      expect(seen.CLAUDE_PROJECT_DIR).toBe(work);
      expect(seen.SESSION_VAR).toBe('s');
      expect(seen.HOOK_VAR).toBe('h');
      expect(seen.PATH).toBe(process.env.PATH);
      const allowed = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR']);
      const extra = Object.keys(seen).filter((k) => !allowed.has(k) && !['CLAUDE_PROJECT_DIR', 'SESSION_VAR', 'HOOK_VAR'].includes(k));
      // Plus, on Linux, the run's mark (process-tree.ts): an id, never a value of the host's environment.
      expect(extra).toEqual(HAS_PROC ? ['AGENT_HOOKS_RUN'] : []);
      if (HAS_PROC) expect(seen.AGENT_HOOKS_RUN).toMatch(/^\d+\.\d+\.[a-z0-9]+$/);
    } finally {
      delete process.env.AGENT_HOOKS_TEST_SECRET;
    }
  });

  it('shell form: a hostile project dir is expanded by the shell, never parsed as code', async () => {
    const hostile = join(work, 'p$(touch pwned)`touch pwned2`');
    mkdirSync(hostile);
    writeFileSync(join(hostile, 'hook.sh'), 'echo ran\n');
    const vars = { CLAUDE_PROJECT_DIR: hostile };
    const command = substituteForShell('sh "${CLAUDE_PROJECT_DIR}/hook.sh"', vars, 'sh');
    expect(command).toBe('sh "${CLAUDE_PROJECT_DIR}/hook.sh"');
    const r = await runCommand(spec({ command, env: buildHookEnv({ projectDir: hostile }) }));
    expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'ran\n' });
    expect(existsSync(join(work, 'pwned'))).toBe(false);
    expect(existsSync(join(work, 'pwned2'))).toBe(false);
  });
});
