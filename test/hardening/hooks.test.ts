/**
 * Adversarial hooks through the public engine API, with real processes: each one ends in a
 * precise record and the verdict its policy asks for, and leaves no process of its tree alive.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decision } from '../../src/index.js';
import type { FailureBehavior } from '../../src/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { bash, engineFor, expectNoLeak, newTag, prepareFixtures } from './helpers.js';
import { hostileHookNames, hostileHooks, type HostileHook } from './hostile-hooks.js';

let dir: TempDir;
let cases: HostileHook[];
beforeAll(() => {
  prepareFixtures();
  dir = tempDir('agent-hooks-hardening-');
  cases = hostileHooks(dir.root);
});
afterAll(() => dir?.cleanup());

const POLICIES: FailureBehavior[] = ['ignore', 'ask', 'deny'];

/** Runs one hostile hook on PreToolUse under `policy`; the other policy kind is set to its opposite. */
async function runCase(c: HostileHook, policy: FailureBehavior): Promise<Decision> {
  const tag = newTag();
  const other: FailureBehavior = policy === 'deny' ? 'ignore' : 'deny';
  const engine = await engineFor(dir, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', ...c.handler }] }] }, tag, {
    failureBehavior: c.policy === 'timeout' ? other : policy,
    timeoutBehavior: c.policy === 'timeout' ? policy : other,
  });
  let cwd: string | undefined;
  if (c.cwd) {
    cwd = dir.path(`cwd-${tag}`);
    mkdirSync(cwd);
    if (c.cwd === 'removed') rmSync(cwd, { recursive: true });
  }
  const input = bash(c.payloadBytes ? 'x'.repeat(c.payloadBytes) : 'ls');
  try {
    return await engine.run('PreToolUse', input, { cwd });
  } finally {
    await engine.close();
    await expectNoLeak(tag);
  }
}

function expectVerdict(d: Decision, c: HostileHook, policy: FailureBehavior): void {
  const kind = c.policy;
  if (kind === 'blocking') {
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    // The 10 MB stderr is the reason: capped to a preview plus the path of the full text.
    expect(d.reason!.length).toBeLessThan(12_000);
    return;
  }
  if (kind === 'engine') {
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.hooks[0]!.policy).toBe('deny');
    return;
  }
  if (kind === 'none' || policy === 'ignore') {
    expect(d.decision).toBeUndefined();
    expect(d.blocked).toBe(false);
    if (kind !== 'none') expect(d.warnings.join('\n')).toContain(d.hooks[0]!.id);
    return;
  }
  const field = kind === 'timeout' ? 'timeoutBehavior' : 'failureBehavior';
  expect(d).toMatchObject({ decision: policy, blocked: policy === 'deny' });
  expect(d.reason).toContain(`${field}: ${policy}`);
  expect(d.hooks[0]!.policy).toBe(policy);
}

describe('adversarial hooks through the engine (PreToolUse, each failure policy)', () => {
  const names = hostileHookNames();
  for (const [i, name] of names.entries()) {
    for (const policy of POLICIES) {
      it(`${name} — ${policy}`, async () => {
        const c = cases[i]!;
        const d = await runCase(c, policy);
        expect(d.hooks).toHaveLength(1);
        const record = d.hooks[0]!;
        const { error, ...fields } = c.record;
        expect(record).toMatchObject(fields);
        if (c.record.stdoutTruncated === undefined) expect(typeof record.stdoutTruncated).toBe('boolean');
        if (error) expect(record.error).toMatch(error);
        expect(record.stdinTruncated).toBe(false);
        expectVerdict(d, c, policy);
      });
    }
  }
});
