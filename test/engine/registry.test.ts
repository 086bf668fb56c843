/**
 * The registry scales: registrations are cheap (the plan index is rebuilt once, at the next
 * run), the memo of regex outcomes is an LRU, and a combined automaton answers for many regex
 * matchers at once. These tests check the answers stay right; costs are in bench/.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHookEngine } from '../../src/engine/engine.js';
import { buildPlanIndex, planHooks } from '../../src/engine/plan.js';
import type { NormalizedHook } from '../../src/types.js';

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });
const tool = (tool_name: string) => ({ tool_name, tool_input: {} });
const ctx = { cwd: '/p', projectDir: '/p' };

function hook(i: number, matcher: string | undefined, extra: Partial<NormalizedHook> = {}): NormalizedHook {
  return {
    id: `h${i}`,
    event: 'PreToolUse',
    matcher,
    handler: { type: 'command', command: `echo ${i}` },
    source: { kind: 'cli', path: `hooks.PreToolUse[${i}]` },
    dedupKey: `\0${i}`,
    ...extra,
  };
}

describe('registry', () => {
  it('register and unregister between runs: each run sees exactly the live registrations, in order', async () => {
    const engine = createHookEngine({ cwd: '/tmp' });
    const seen: number[] = [];
    const offs = Array.from({ length: 50 }, (_, i) =>
      engine.register({ event: 'PreToolUse', matcher: i % 2 ? 'Bash' : 'Ba.h', fn: () => void seen.push(i) }),
    );
    await engine.run('PreToolUse', bash('x'));
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
    for (let i = 0; i < 50; i += 3) offs[i]!();
    offs[0]!(); // twice: no effect
    seen.length = 0;
    await engine.run('PreToolUse', bash('x'));
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 3 !== 0));
    expect(engine.list('PreToolUse')).toHaveLength(seen.length);
    engine.register({ event: 'PreToolUse', matcher: 'Bash', fn: () => void seen.push(99) });
    seen.length = 0;
    await engine.run('PreToolUse', bash('x'));
    expect(seen.at(-1)).toBe(99);
  });

  it('a refused matcher runs no hook and applies the failure policy (deny when fail-closed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ah-refused-'));
    try {
      const marker = join(dir, 'ran');
      const engine = createHookEngine({
        cwd: dir,
        hooks: [{ ...hook(0, '((a+)+)\\1$'), handler: { type: 'command', command: `touch '${marker}'`, failureBehavior: 'deny' } }],
      });
      const d = await engine.run('PreToolUse', bash('x'));
      expect(d.decision).toBe('deny');
      expect(d.hooks[0]).toMatchObject({
        outcome: 'error',
        policy: 'deny',
        error: expect.stringMatching(/cannot be matched in bounded time/),
      });
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rebuilding the plan index', () => {
  const names = (planned: readonly { hook: NormalizedHook }[]) => planned.map((p) => p.hook.id);

  it('keeps the planned entry of every hook that kept its position, and gives a moved hook its new one', () => {
    const [a, b, c, d] = [hook(0, 'Bash'), hook(1, 'Edit|Bash'), hook(2, 'Bash'), hook(3, 'Write')];
    const compiled = new Map();
    const first = planHooks(buildPlanIndex([a!, b!, c!], compiled), 'PreToolUse', bash('x'), ctx);
    expect(names(first)).toEqual(['h0', 'h1', 'h2']);
    // Appended: nothing moved, so nothing is planned anew.
    const appended = planHooks(buildPlanIndex([a!, b!, c!, d!], compiled), 'PreToolUse', bash('x'), ctx);
    expect(appended).toHaveLength(3);
    for (const [i, p] of appended.entries()) expect(p).toBe(first[i]);
    // b removed: c moves from 2 to 1 and gets an entry of its own; the old one is left as it was.
    const moved = planHooks(buildPlanIndex([a!, c!, d!], compiled), 'PreToolUse', bash('x'), ctx);
    expect(names(moved)).toEqual(['h0', 'h2']);
    expect(moved[0]).toBe(first[0]);
    expect(moved[1]).not.toBe(first[2]);
    expect([moved[1]!.seq, first[2]!.seq]).toEqual([1, 2]);
    expect(moved[1]!.matcher).toBe(first[2]!.matcher);
    // Reordered: config order decides, whatever order the entries were built in.
    expect(names(planHooks(buildPlanIndex([d!, c!, b!, a!], compiled), 'PreToolUse', bash('x'), ctx))).toEqual(['h2', 'h1', 'h0']);
  });

  it('a name with one hook and a name with several, mixed with regex matchers, plan in config order', () => {
    const hooks = [hook(0, 'Bash'), hook(1, 'B.sh'), hook(2, 'Edit|Bash'), hook(3, 'Write'), hook(4, 'Bash'), hook(5, '.*')];
    const index = buildPlanIndex(hooks);
    expect(names(planHooks(index, 'PreToolUse', bash('x'), ctx))).toEqual(['h0', 'h1', 'h2', 'h4', 'h5']);
    expect(names(planHooks(index, 'PreToolUse', tool('Edit'), ctx))).toEqual(['h2', 'h5']);
    expect(names(planHooks(index, 'PreToolUse', tool('Write'), ctx))).toEqual(['h3', 'h5']);
    expect(names(planHooks(index, 'PreToolUse', tool('Read'), ctx))).toEqual(['h5']);
  });
});

describe('matcher index over many regex matchers', () => {
  const hooks = [
    ...Array.from({ length: 1000 }, (_, i) => hook(i, `^mcp__server${i}__.*`)),
    hook(1000, '^[Ee][Dd][Ii][Tt]$'),
    hook(1001, '^(?!Read).*'), // refused (lookaround): planned for every value, outside the automaton
    hook(1002, '*'),
  ];

  it('gives the same answers as testing each matcher, for hits, misses and past the memo size', () => {
    const index = buildPlanIndex(hooks);
    // A refused matcher is planned for every value (it then fails closed: test/matching/refused.test.ts).
    const reference = hooks.map((h) => ({
      id: h.id,
      re: h.matcher === '*' || h.matcher!.includes('(?!') ? /(?:)/ : new RegExp(h.matcher!),
    }));
    const expected = (name: string) => reference.filter((r) => r.re.test(name)).map((r) => r.id);
    const names = ['Bash', 'Read', 'EDIT', 'mcp__server7__x', 'mcp__server999__y', 'mcp__server1000__z'];
    for (let i = 0; i < 5000; i++) names.push(i % 2 ? `Tool${i}` : `mcp__server${i % 1200}__t`);
    for (const name of names) {
      expect(planHooks(index, 'PreToolUse', tool(name), ctx).map((p) => p.hook.id)).toEqual(expected(name));
    }
    // Asked again (now from the memo): same answers.
    for (const name of names.slice(0, 50)) {
      expect(planHooks(index, 'PreToolUse', tool(name), ctx).map((p) => p.hook.id)).toEqual(expected(name));
    }
  });
});
