import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPlanIndex, planHooks } from '../../src/engine/plan.js';
import '../../src/matching/if-rule.js';
import type { NormalizedHook } from '../../src/types.js';

const guard: NormalizedHook = {
  id: 'env',
  event: 'PreToolUse',
  matcher: 'Edit',
  handler: { type: 'command', command: 'true', if: 'Edit(.env)' },
  source: { kind: 'cli', path: 'hooks.env' },
  dedupKey: '\0env',
};

describe('`if` path rules in the plan stage', () => {
  it('compare names ignoring case on every platform, as Claude Code 2.1.328 does on Linux too', () => {
    const index = buildPlanIndex([guard]);
    expect(index.unloadedRules).toBeFalsy();
    const ctx = { cwd: '/p', projectDir: '/p' };
    const input = { tool_name: 'Edit', tool_input: { file_path: '/p/.ENV' } };
    expect(planHooks(index, 'PreToolUse', input, { ...ctx, foldCase: true }).map((p) => p.hook.id)).toEqual(['env']);
    expect(planHooks(index, 'PreToolUse', input, ctx).map((p) => p.hook.id)).toEqual(['env']);
    expect(planHooks(index, 'PreToolUse', { ...input, tool_input: { file_path: '/p/.env' } }, ctx).map((p) => p.hook.id)).toEqual(['env']);
    expect(planHooks(index, 'PreToolUse', { ...input, tool_input: { file_path: '/p/.envx' } }, ctx)).toEqual([]);
  });
  it('match a Write of a symbolic link to the guarded file (Write follows it)', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'ah-plan-links-')));
    try {
      writeFileSync(join(root, '.env'), 'SECRET=1\n');
      symlinkSync('.env', join(root, 'notes.txt')); // `ln -s .env notes.txt`
      const index = buildPlanIndex([{ ...guard, matcher: 'Write', handler: { ...guard.handler, if: 'Write(.env)' } }]);
      const write = (file_path: string) =>
        planHooks(index, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path } }, { cwd: root, projectDir: root }).map(
          (p) => p.hook.id,
        );
      expect(write(join(root, '.env'))).toEqual(['env']);
      expect(write(join(root, 'notes.txt'))).toEqual(['env']);
      expect(write(join(root, 'other.txt'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
