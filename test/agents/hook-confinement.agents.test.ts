/**
 * Codex confines the model's commands (`--sandbox workspace-write`) and runs hook commands outside
 * that confinement: the fact behind doctor's warning (src/cli/doctor-confinement.ts) and the
 * check-then-use limit in docs/security.md. Judged on the real binary, offline: a hook and the
 * model's command each try to write a directory outside the workspace and /tmp.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureAgent, PINS } from './harness/cache.js';
import { codex } from './harness/codex.js';
import type { Scenario } from './harness/scenarios.js';
import { makeRunDirs, namespaceUnavailable, runInNamespace, shq } from './harness/run.js';

const skip = namespaceUnavailable();
const outside = mkdtempSync('/var/tmp/agent-hooks-confinement-');
afterAll(() => rmSync(outside, { recursive: true, force: true }));

describe.skipIf(skip !== null)(`hooks and the agent's own sandbox (codex ${PINS.codex.version})`, () => {
  it('under workspace-write the model cannot write outside the workspace; a hook can', async () => {
    const bin = ensureAgent('codex');
    const dirs = makeRunDirs('codex-confinement');
    // Only the config the adapter writes is used: the hooks file and the model script are this test's.
    const none: Scenario = {
      id: 'confinement',
      title: '',
      hooks: [],
      permissive: false,
      prompt: 'go',
      calls: () => null,
      judge: () => ({ verdict: 'na', detail: '' }),
    };
    const spec = codex.prepare(dirs, none, 'native', bin);
    const hook = { hooks: [{ type: 'command', command: `touch ${shq(join(outside, 'hook'))}`, timeout: 60 }] };
    mkdirSync(join(dirs.home, '.codex'), { recursive: true });
    writeFileSync(join(dirs.home, '.codex', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [hook] } }));
    const out = await runInNamespace(dirs, {
      ...spec,
      args: [...spec.args.slice(0, -1), '--sandbox', 'workspace-write', 'go'],
      script: {
        toolCalls: [{ name: 'exec_command', input: { cmd: `touch ${shq(join(outside, 'model'))} ${shq(join(dirs.work, 'model'))}` } }],
      },
    });
    expect(out.code, out.stderr).toBe(0);
    // The sandbox is on: the model wrote in its workspace and was refused outside it.
    expect(existsSync(join(dirs.work, 'model'))).toBe(true);
    expect(existsSync(join(outside, 'model'))).toBe(false);
    // The hook ran unconfined.
    expect(existsSync(join(outside, 'hook'))).toBe(true);
  });
});
