/**
 * A regex matcher that cannot be run in bounded time is refused (matcher.ts). On an event whose
 * decision model can block, the engine then fails closed — whatever the failure policy — with a
 * reason naming the matcher and why; elsewhere the failure policy applies. Real engine, real
 * command hooks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createHookEngine } from '../../src/engine/engine.js';
import type { EventName } from '../../src/events/catalog.js';
import type { FailureBehavior, NormalizedHook } from '../../src/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const REFUSED = '((a+)+)\\1$';

let dir: TempDir | undefined;
afterEach(() => {
  dir?.cleanup();
  dir = undefined;
});

function hookOn(event: EventName, command: string, failureBehavior?: FailureBehavior): NormalizedHook {
  return {
    id: `h-${event}`,
    event,
    matcher: REFUSED,
    handler: { type: 'command', command, ...(failureBehavior ? { failureBehavior } : {}) },
    source: { kind: 'cli', path: `hooks.${event}[0]` },
    dedupKey: `k-${event}`,
  };
}

const toolCall = (cwd: string) => ({ session_id: 's', transcript_path: '', cwd, tool_name: 'Bash', tool_input: { command: 'ls' } });

async function fire(event: EventName, payload: Record<string, unknown>, failureBehavior?: FailureBehavior) {
  dir = tempDir('agent-hooks-refused-');
  // The hook would leave a mark if it ran: a refused matcher must never run it.
  const mark = join(dir.root, 'ran');
  const engine = createHookEngine({
    hooks: [hookOn(event, `touch ${JSON.stringify(mark)}`, failureBehavior)],
    projectDir: dir.root,
    cwd: dir.root,
  });
  try {
    const decision = await engine.run(event, { ...payload, cwd: dir.root });
    return { decision, ran: existsSync(mark) };
  } finally {
    await engine.close();
  }
}

describe('a refused matcher on a hook that could deny fails closed', () => {
  for (const failureBehavior of [undefined, 'ignore', 'ask'] as const) {
    it(`PreToolUse denies with failureBehavior ${failureBehavior ?? '(default ignore)'}, naming the matcher and why`, async () => {
      const { decision, ran } = await fire('PreToolUse', toolCall('/'), failureBehavior);
      expect(ran).toBe(false);
      expect(decision.decision).toBe('deny');
      expect(decision.blocked).toBe(true);
      expect(decision.reason).toContain(JSON.stringify(REFUSED));
      expect(decision.reason).toMatch(/cannot be matched in bounded time/);
      expect(decision.reason).toMatch(/failureBehavior: deny/);
    });
  }

  it('PermissionRequest denies', async () => {
    const { decision, ran } = await fire('PermissionRequest', { ...toolCall('/'), permission_suggestions: [] });
    expect(ran).toBe(false);
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toMatch(/cannot be matched in bounded time/);
  });

  it('PostToolUse, which cannot block, keeps the failure policy: not blocked, the error is reported', async () => {
    const { decision, ran } = await fire('PostToolUse', { ...toolCall('/'), tool_response: {} });
    expect(ran).toBe(false);
    expect(decision.blocked).toBe(false);
    expect(decision.hooks).toEqual([
      expect.objectContaining({ outcome: 'error', policy: 'ignore', error: expect.stringMatching(/cannot be matched in bounded time/) }),
    ]);
  });
});
