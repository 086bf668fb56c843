/** The plan stage remembers which scanned (regex / match-all) matchers pass per matcher value. */
import { describe, expect, it } from 'vitest';
import { buildPlanIndex, ensureIfRules, planHooks } from '../../src/engine/plan.js';
import type { EventName } from '../../src/events/catalog.js';
import type { NormalizedHook } from '../../src/types.js';

function hook(i: number, event: EventName, matcher: string | undefined, extra: Partial<NormalizedHook> = {}): NormalizedHook {
  return {
    id: `h${i}`,
    event,
    matcher,
    handler: { type: 'command', command: `echo ${i}` },
    source: { kind: 'cli', path: `hooks.${event}[${i}]` },
    dedupKey: `\0${i}`,
    ...extra,
  };
}

const ctx = { cwd: '/p', projectDir: '/p' };
const ids = (list: readonly { hook: NormalizedHook }[]) => list.map((p) => p.hook.id);
const tool = (tool_name: string) => ({ tool_name, tool_input: {} });

describe('plan memo of scanned matchers', () => {
  const hooks = [
    hook(0, 'PreToolUse', '^mcp__github__.*'),
    hook(1, 'PreToolUse', 'Bash'),
    hook(2, 'PreToolUse', '*'),
    hook(3, 'PreToolUse', 'Edit|Write'),
    hook(4, 'PreToolUse', 'Ba.h'),
    hook(5, 'PreToolUse', '(invalid'),
  ];

  it('gives the same answer on repeated and interleaved values, in config order', () => {
    const index = buildPlanIndex(hooks);
    for (let round = 0; round < 3; round++) {
      expect(ids(planHooks(index, 'PreToolUse', tool('Bash'), ctx))).toEqual(['h1', 'h2', 'h4']);
      expect(ids(planHooks(index, 'PreToolUse', tool('mcp__github__pr'), ctx))).toEqual(['h0', 'h2']);
      expect(ids(planHooks(index, 'PreToolUse', tool('Write'), ctx))).toEqual(['h2', 'h3']);
      expect(ids(planHooks(index, 'PreToolUse', tool('Read'), ctx))).toEqual(['h2']);
    }
  });

  it('stays right past the memo bound and for long values', () => {
    const index = buildPlanIndex(hooks);
    for (let i = 0; i < 600; i++) {
      expect(ids(planHooks(index, 'PreToolUse', tool(`mcp__github__t${i}`), ctx))).toEqual(['h0', 'h2']);
      expect(ids(planHooks(index, 'PreToolUse', tool(`Other${i}`), ctx))).toEqual(['h2']);
    }
    const long = `mcp__github__${'x'.repeat(5000)}`;
    expect(ids(planHooks(index, 'PreToolUse', tool(long), ctx))).toEqual(['h0', 'h2']);
  });

  it('does not cache the per-input checks that follow the matcher (if rules, project)', async () => {
    // The engine loads the `if`-rule module before planning (engine/hooks.ts readyIndex); a bare index needs it loaded.
    expect(await ensureIfRules()).toBeUndefined();
    const index = buildPlanIndex([
      hook(0, 'PreToolUse', 'Ba.*', { handler: { type: 'command', command: 'x', if: 'Bash(git commit:*)' } }),
      hook(1, 'PreToolUse', '.*', { projectDir: '/other' }),
    ]);
    const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });
    expect(ids(planHooks(index, 'PreToolUse', bash('git commit -m x'), ctx))).toEqual(['h0']);
    expect(ids(planHooks(index, 'PreToolUse', bash('ls'), ctx))).toEqual([]);
    expect(ids(planHooks(index, 'PreToolUse', bash('git commit -m y'), { cwd: '/other', projectDir: '/other' }))).toEqual(['h0', 'h1']);
  });

  it('events without a matcher value use the memo too', () => {
    const index = buildPlanIndex([hook(0, 'Stop', undefined), hook(1, 'Stop', 'ignored-for-stop')]);
    for (let i = 0; i < 3; i++) expect(ids(planHooks(index, 'Stop', { stop_hook_active: false }, ctx))).toEqual(['h0', 'h1']);
  });
});
