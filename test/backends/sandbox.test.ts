/**
 * The optional hook sandbox (`agentHooks.sandbox: "bwrap"`, src/backends/sandbox.ts), run for real
 * where bubblewrap is installed and can make its namespaces (skipped elsewhere): the hook writes
 * only the project, reaches no network, and dies with its run; a sandbox that cannot start is the
 * engine's failure (deny), and no settings file turns off a sandbox another one asked for.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxFault } from '../../src/backends/sandbox.js';
import { createHookEngine } from '../../src/engine/engine.js';
import type { NormalizedHook } from '../../src/types.js';
import { makeFixture } from '../config/helpers.js';
import { tempDir } from '../helpers/tmp.js';

const BWRAP = spawnSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', 'true']).status === 0;
const project = tempDir('ah-sandbox-');
const outside = tempDir('ah-sandbox-outside-');
let server: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  project.cleanup();
  outside.cleanup();
});

function guard(command: string, timeout?: number): NormalizedHook {
  return {
    id: 'h',
    event: 'PreToolUse',
    handler: { type: 'command', command, ...(timeout ? { timeout } : {}) },
    source: { kind: 'cli', path: 'hooks.h' },
    dedupKey: '\0h',
  };
}
async function fire(command: string, timeout?: number) {
  const engine = createHookEngine({ hooks: [guard(command, timeout)], projectDir: project.root, sandbox: 'bwrap', spawner: false });
  try {
    return await engine.run('PreToolUse', {
      session_id: 's',
      transcript_path: '',
      cwd: project.root,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
  } finally {
    await engine.close();
  }
}

describe.skipIf(!BWRAP)('command hooks under bwrap', () => {
  it('write the project, not outside it', async () => {
    const inside = project.path('inside');
    const out = outside.path('escaped');
    const d = await fire(`touch ${inside}; touch ${out} 2>/dev/null; exit 0`);
    expect(d.blocked, d.reason).toBe(false);
    expect(existsSync(inside)).toBe(true);
    expect(existsSync(out)).toBe(false);
  });

  it('reach no network, not even the host loopback', async () => {
    const answer = project.path('net');
    const d = await fire(
      `if bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' 2>/dev/null; then echo open > ${answer}; else echo closed > ${answer}; fi`,
    );
    expect(d.blocked, d.reason).toBe(false);
    expect(readFileSync(answer, 'utf8').trim()).toBe('closed');
    expect(connections).toBe(0);
  });

  it('still deny by exit 2, and are killed with their descendants at the timeout', async () => {
    expect((await fire('echo no >&2; exit 2')).decision).toBe('deny');
    // A distinctive duration names the orphan; /proc is only read.
    // A timeout under the sandbox is the engine's failure (its set-up counts toward it): denied.
    const d = await fire('sleep 3217 & sleep 3217', 1);
    expect({ decision: d.decision, reason: d.reason }).toEqual({
      decision: 'deny',
      reason: 'hook h failed: the hook timed out under the sandbox "bwrap", whose set-up counts toward its timeout (failureBehavior: deny)',
    });
    const left = readdirSync('/proc').filter((p) => {
      try {
        return /^\d+$/.test(p) && readFileSync(`/proc/${p}/cmdline`, 'utf8') === 'sleep\u00003217\u0000';
      } catch {
        return false;
      }
    });
    expect(left).toEqual([]);
  });
});

describe('a sandbox that cannot start is the engine failure, never the hook’s', () => {
  it('bwrap’s own set-up error (exit 1, "bwrap: …") becomes an engine fault', () => {
    const base = { status: 'completed' as const, signal: null, stdout: '', stdoutTruncated: false, stderrTruncated: false };
    const setup = sandboxFault(
      {
        ...base,
        exitCode: 1,
        stderr: 'bwrap: No permissions to creating new namespace\n',
        stdinTruncated: false,
        durationMs: 1,
      },
      'bwrap',
    );
    expect(setup).toMatchObject({ status: 'error', engineFault: true });
    expect(setup.error).toContain('the hook sandbox could not start: bwrap: No permissions');
  });

  it('so is any other exit but 0 and 2: what the sandbox took may be why (never read as "proceed")', () => {
    const base = { status: 'completed' as const, signal: null, stdout: '', stdoutTruncated: false, stderrTruncated: false };
    const refused = {
      ...base,
      exitCode: 1,
      stderr: "touch: cannot touch 'x.log': Read-only file system\n",
      stdinTruncated: false,
      durationMs: 1,
    };
    expect(sandboxFault(refused, 'view')).toMatchObject({
      status: 'error',
      engineFault: true,
      error: `the hook exited 1 under the sandbox "view" (its pinned files read-only, the directories on the way to them private copies), which may be why; its answer is unknown: touch: cannot touch 'x.log': Read-only file system`,
    });
    for (const exitCode of [0, 2]) {
      const own = { ...base, exitCode, stderr: 'no\n', stdinTruncated: false, durationMs: 1 };
      expect(sandboxFault(own, 'bwrap')).toBe(own);
    }
  });
});

describe.skipIf(!BWRAP)('a guard the sandbox makes fail: denied, never let through', () => {
  it('a `set -e` guard whose log file cannot be made under bwrap (exit 1) denies where the event can block', async () => {
    // Outside the project: refused under bwrap. Without the sandbox the same hook denies by exit 2.
    const d = await fire(`set -e; touch ${outside.path('guard.log')}; echo 'no ls' >&2; exit 2`);
    expect(d.decision).toBe('deny');
    expect(d.reason).toMatch(/^hook h failed: the hook exited 1 under the sandbox "bwrap" .*: touch: cannot touch/);
  });
});

describe('no settings file turns off a sandbox another asked for', () => {
  it('the user asks for bwrap, the project says none: bwrap', async () => {
    const fx = await makeFixture();
    try {
      await fx.write(fx.userFile, { agentHooks: { sandbox: 'bwrap' } });
      await fx.write(fx.projectFile, { agentHooks: { sandbox: 'none' } });
      expect((await fx.load()).options.sandbox).toBe('bwrap');
      // The project's "none" alone is ignored too (only the user's and the admin's files keep the
      // default view off: test/config/confinement.test.ts).
      await fx.write(fx.userFile, {});
      expect((await fx.load()).options.sandbox).toBeUndefined();
    } finally {
      await fx.cleanup();
    }
  });
});
