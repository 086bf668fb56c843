/**
 * Issue 39, class 5: matching is linear time, always. Every matcher and `if` rule either compiles
 * to a linear-time form or is refused as a config error by `check`, `doctor` and at load; no
 * fallback that backtracks. Today a regex matcher with lookaround and an ambiguous alternation,
 * and an `if` glob with extglob negations, run on a backtracking engine: seconds to minutes on a
 * 30–80 character value, with the event loop blocked.
 *
 * Each stalling matcher runs in a child process killed (by its pid) at KILL_MS; the test asserts
 * the child answered within BOUND_MS, generous for a loaded 2-core machine (a dispatch takes
 * ~0.3–2 s here), so the suite never hangs.
 *
 * Each `it.fails` states the guarantee as it should hold and fails on today's code (vitest counts
 * it as passing while the bug is there). When the fix lands it turns red: flip it to `it(...)`.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, sandbox, type Sandbox } from './helpers.js';
import { spawn } from 'node:child_process';

const BOUND_MS = 6_000;
const KILL_MS = 9_000;
/** Lookaround (so RE2 refuses it) around an ambiguous alternation (so a backtracker explodes). */
const REGEX = '^(?=mcp__)mcp__(a|a)*$';
const TOOL = `mcp__${'a'.repeat(30)}!`;
/** Extglob negations: picomatch's regex has lookaheads between lazy stars. */
const IF_RULE = 'Write(**/*!(a)*!(a)*!(a)*.md)';
const PATH_NAME = 'c'.repeat(80);

let sb: Sandbox;
let regexSettings = '';
let ifSettings = '';
beforeAll(() => {
  sb = sandbox();
  regexSettings = sb.dir.json('regex/.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: REGEX, hooks: [{ type: 'command', command: 'exit 0' }] }] },
  });
  ifSettings = sb.dir.json('glob/.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', if: IF_RULE, command: 'exit 0' }] }] },
  });
});
afterAll(() => sb.dir.cleanup());

const claude = (tool_name: string, tool_input: Record<string, unknown>) =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '',
    cwd: sb.dir.root,
    hook_event_name: 'PreToolUse',
    tool_name,
    tool_input,
    tool_use_id: 't',
  });

describe('dispatch and the library answer in bounded time (or refuse the rule at load)', () => {
  const LIB = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
  /** createHookEngine + a function hook with the rule, run in a child killed at KILL_MS. */
  function libraryRun(reg: Record<string, unknown>, input: Record<string, unknown>) {
    const code = `
      const { createHookEngine } = await import(${JSON.stringify(LIB)});
      const reg = ${JSON.stringify(reg)};
      try {
        const engine = createHookEngine({ cwd: '/', projectDir: '/' });
        engine.register({ ...reg, fn: () => ({}) });
        await engine.run('PreToolUse', ${JSON.stringify({ session_id: 's', cwd: '/', ...input })});
        await engine.close();
      } catch (err) {
        process.stdout.write('refused: ' + err.message);
      }`;
    return new Promise<{ ms: number; timedOut: boolean }>((resolve, reject) => {
      const start = Date.now();
      const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'ignore' });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, KILL_MS);
      child.on('error', reject);
      child.on('close', () => {
        clearTimeout(timer);
        resolve({ ms: Date.now() - start, timedOut });
      });
    });
  }

  it.concurrent('control: the library, a short value', async () => {
    const r = await libraryRun({ event: 'PreToolUse', matcher: REGEX }, { tool_name: 'mcp__ab', tool_input: {} });
    expect(r.timedOut).toBe(false);
  });

  it.concurrent('the regex matcher', async () => {
    const r = await libraryRun({ event: 'PreToolUse', matcher: REGEX }, { tool_name: TOOL, tool_input: {} });
    expect({ timedOut: r.timedOut, inBound: r.ms < BOUND_MS }).toEqual({ timedOut: false, inBound: true });
  });

  it.concurrent('the `if` glob', async () => {
    const r = await libraryRun(
      { event: 'PreToolUse', matcher: 'Write', if: IF_RULE },
      { tool_name: 'Write', tool_input: { file_path: `/${PATH_NAME}`, content: 'x' } },
    );
    expect({ timedOut: r.timedOut, inBound: r.ms < BOUND_MS }).toEqual({ timedOut: false, inBound: true });
  });

  it.concurrent('control: the same dispatch with a short value answers at once', async () => {
    const r = await runBin(['dispatch', '--agent', 'claude', '--settings', regexSettings], {
      env: sb.env,
      input: claude('mcp__ab', {}),
      timeoutMs: KILL_MS,
    });
    expect(r.timedOut).toBe(false);
    expect(r.ms).toBeLessThan(BOUND_MS);
  });

  it.concurrent('a regex matcher with lookaround and an ambiguous alternation, on a 36-character tool name', async () => {
    const r = await runBin(['dispatch', '--agent', 'claude', '--settings', regexSettings], {
      env: sb.env,
      input: claude(TOOL, {}),
      timeoutMs: KILL_MS,
    });
    expect({ timedOut: r.timedOut, inBound: r.ms < BOUND_MS }).toEqual({ timedOut: false, inBound: true });
  });

  it.concurrent('an `if` glob with extglob negations, on an 80-character file name', async () => {
    const input = claude('Write', { file_path: `${sb.dir.root}/${PATH_NAME}`, content: 'x' });
    const r = await runBin(['dispatch', '--agent', 'claude', '--settings', ifSettings], { env: sb.env, input, timeoutMs: KILL_MS });
    expect({ timedOut: r.timedOut, inBound: r.ms < BOUND_MS }).toEqual({ timedOut: false, inBound: true });
  });
});

describe('`check` refuses a rule it cannot match in linear time (a config error, exit 1)', () => {
  // Today the regex gets a warning (exit 0) and the glob nothing at all.
  it.concurrent('the regex matcher', async () => {
    const r = await runBin(['check', regexSettings], { env: sb.env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
  });
  it.concurrent('the `if` glob', async () => {
    const r = await runBin(['check', ifSettings], { env: sb.env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
  });
  it.concurrent('control: check exits 1 on a config error (an unknown hook type)', async () => {
    const bad = sb.dir.json('bad/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'nope', command: 'exit 0' }] }] },
    });
    expect((await runBin(['check', bad], { env: sb.env })).code).toBe(1);
  });
});
