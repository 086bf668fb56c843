/**
 * 1,000 events fired at once: live hook processes never exceed maxConcurrentHooks, and every
 * decision carries exactly its own event's results (each event has a unique id the hooks echo).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../src/index.js';
import type { HookEngine } from '../../src/engine/engine.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { CI_SUBSET, HAS_PROC, engineFor, expectNoLeak, newTag } from './helpers.js';

let dir: TempDir;
let tag: string;
beforeEach(() => {
  dir = tempDir('agent-hooks-hardening-');
  tag = newTag();
});
afterEach(async () => {
  await expectNoLeak(tag);
  dir.cleanup();
});

const SAMPLER = fileURLToPath(new URL('./fixtures/proc-sampler.mjs', import.meta.url));

/**
 * Runs `work` while a separate process samples the process table for live hook process groups
 * (each hook execution is its own group), and this process samples engine.concurrency.
 */
async function sampled<T>(engine: HookEngine, work: () => Promise<T>) {
  const sampler = spawn(process.execPath, [SAMPLER, tag], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  sampler.stdout.on('data', (c: Buffer) => (out += c));
  const exited = new Promise((r) => sampler.on('close', r));
  await new Promise((r) => setTimeout(r, 100)); // let it start
  let peakActive = 0;
  let sawWaiting = false;
  const timer = setInterval(() => {
    peakActive = Math.max(peakActive, engine.concurrency.active);
    if (engine.concurrency.waiting > 0) sawWaiting = true;
  }, 1);
  try {
    const result = await work();
    return { result, peakActive, sawWaiting, ...(await stop()) };
  } finally {
    clearInterval(timer);
    if (sampler.exitCode === null) sampler.kill('SIGKILL');
  }
  async function stop() {
    sampler.stdin.end();
    await exited;
    return JSON.parse(out) as { peak: number; samples: number };
  }
}

/** The figure; the CI subset fires fewer (each hook process costs ~12 ms of fork time here). */
const EVENTS = CI_SUBSET ? 250 : 1000;
const LIMIT = 4;

describe(`${EVENTS} events fired at once`, () => {
  it(`parallel command hooks (UserPromptSubmit, 2 each): at most ${LIMIT} live hook process groups, every result in its own decision`, async () => {
    // Plain stdout is context on UserPromptSubmit: each hook prints its name, then its whole payload.
    const hook = (n: number) => ({ type: 'command', command: `printf 'h${n} '; exec cat` });
    const engine = await engineFor(dir, { UserPromptSubmit: [{ hooks: [hook(1), hook(2)] }] }, tag, { maxConcurrentHooks: LIMIT });
    const ids = Array.from({ length: EVENTS }, (_, i) => `event-${i}-${Math.random().toString(36).slice(2)}`);
    const { result, peak, samples, peakActive, sawWaiting } = await sampled(engine, () =>
      Promise.all(ids.map((id) => engine.run('UserPromptSubmit', { prompt: id, session_id: `s-${id}` }))),
    );
    // The process table first: it is the evidence; engine.concurrency is the engine's own count.
    if (HAS_PROC) {
      expect(samples).toBeGreaterThan(20);
      expect(peak).toBeGreaterThan(0); // the sampler does see hooks
      expect(peak).toBeLessThanOrEqual(LIMIT);
    }
    expect(sawWaiting).toBe(true);
    expect(peakActive).toBe(LIMIT);

    const executionIds = new Set<string>();
    result.forEach((d: Decision, i) => {
      expect(d.hooks.map((h) => [h.outcome, h.exitCode])).toEqual([
        ['success', 0],
        ['success', 0],
      ]);
      // Merged in config order, whatever order the processes finished in.
      expect(d.additionalContext.map((c) => c.slice(0, 3))).toEqual(['h1 ', 'h2 ']);
      for (const c of d.additionalContext) {
        const payload = JSON.parse(c.slice(3));
        expect(payload.prompt).toBe(ids[i]);
        expect(payload.session_id).toBe(`s-${ids[i]}`);
        executionIds.add(payload.hook_execution_id);
      }
    });
    expect(executionIds.size).toBe(EVENTS * 2);
  });

  it(`serial command hooks (PreToolUse, a rewrite then a verdict): at most ${LIMIT} live, each event accumulates only its own input`, async () => {
    const extract = `c=$(sed -n 's/.*"command":"\\([^"]*\\)".*/\\1/p')`;
    const rewrite = `${extract}; printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"%s+h1"}}}' "$c"`;
    const verdict = `${extract}; printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"%s+h2"}}' "$c"`;
    const engine = await engineFor(
      dir,
      {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: rewrite }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: verdict }] },
        ],
      },
      tag,
      { maxConcurrentHooks: LIMIT },
    );
    const ids = Array.from({ length: Math.floor(EVENTS / 4) }, (_, i) => `cmd-${i}-${Math.random().toString(36).slice(2)}`);
    const { result, peak, peakActive } = await sampled(engine, () =>
      Promise.all(ids.map((id) => engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: id } }))),
    );
    if (HAS_PROC) expect(peak).toBeLessThanOrEqual(LIMIT);
    expect(peakActive).toBe(LIMIT);
    result.forEach((d, i) => {
      expect(d).toMatchObject({ decision: 'ask', reason: `${ids[i]}+h1+h2`, updatedInput: { command: `${ids[i]}+h1` } });
      expect(d.hooks).toHaveLength(2);
    });
  });

  it('1,000 events with 3 parallel function hooks each: same bound, nothing lost or mixed', async () => {
    const engine = await engineFor(dir, {}, tag, { maxConcurrentHooks: LIMIT });
    let live = 0;
    let peak = 0;
    for (const name of ['f1', 'f2', 'f3']) {
      engine.register({
        event: 'UserPromptSubmit',
        name,
        fn: async (input) => {
          live++;
          peak = Math.max(peak, live);
          // Finish in an order unrelated to the start order.
          await new Promise((r) => setTimeout(r, Math.random() * 3));
          live--;
          return `${name}:${String(input.prompt)}`;
        },
      });
    }
    const ids = Array.from({ length: 1000 }, (_, i) => `p${i}`);
    const result = await Promise.all(ids.map((id) => engine.run('UserPromptSubmit', { prompt: id })));
    expect(peak).toBe(LIMIT);
    expect(engine.concurrency).toMatchObject({ active: 0, waiting: 0 });
    for (const [i, d] of result.entries()) expect(d.additionalContext).toEqual([`f1:${ids[i]}`, `f2:${ids[i]}`, `f3:${ids[i]}`]);
  });
});
