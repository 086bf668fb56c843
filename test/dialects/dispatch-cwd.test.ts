import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

describe('dispatch finds the project from the payload cwd', () => {
  it('runs a trusted project hook when the agent starts dispatch from another directory', () => {
    const project = dir.path('project');
    dir.json('project/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: "echo 'blocked from the project' >&2; exit 2" }] }] },
    });
    const env = { PATH: process.env.PATH ?? '', HOME: dir.path('home'), AGENT_HOOKS_TRUST_STORE: dir.path('store', 'trust.json') };
    const trust = spawnSync(process.execPath, [BIN, 'trust', '--cwd', project], { env, encoding: 'utf8' });
    expect(trust.status).toBe(0);

    const payload = JSON.stringify({
      session_id: 's',
      transcript_path: '',
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    const r = spawnSync(process.execPath, [BIN, 'dispatch', '--agent', 'claude'], { env, cwd: dir.root, input: payload, encoding: 'utf8' });
    // Claude's convention for a deny: JSON on stdout, exit 0.
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked from the project' },
    });
  });
});
