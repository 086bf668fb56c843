/**
 * Dialect mismatches found by the real-agents suite (test/agents), pinned at unit level so
 * `npm test` keeps them fixed without the agents: each payload is one the agent really sent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { runCli } from './cli.js';

let dir: TempDir;
beforeAll(() => {
  dir = tempDir('agent-hooks-findings-');
});
afterAll(() => dir.cleanup());

/** An engine config whose one hook on `event` prints `output` as JSON. */
function engine(name: string, event: string, output: unknown): string {
  const script = dir.write(`${name}.mjs`, `process.stdin.resume(); process.stdin.on('end', () => process.stdout.write(${JSON.stringify(JSON.stringify(output))}));`);
  return dir.json(`${name}.json`, { hooks: { [event]: [{ hooks: [{ type: 'command', command: `node ${JSON.stringify(script)}` }] }] } });
}

describe('Codex PostToolUse output replacement (Codex 0.169)', () => {
  const payload = (tool_name: string) => ({
    session_id: '01a232f2-ce38-7da0-a408-f20479a172db',
    transcript_path: null,
    cwd: '/tmp',
    hook_event_name: 'PostToolUse',
    turn_id: '01a232f2-ce57-7e80-b2c8-4bcabc94e960',
    model: 'gpt-5.5',
    permission_mode: 'bypassPermissions',
    tool_name,
    tool_input: { command: 'cat .env' },
    tool_response: 'secret-value-42\n',
    tool_use_id: 'call_fake_0',
  });
  const replacement = { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: 'REDACTED', stderr: '', interrupted: false, isImage: false } } };

  test('a built-in tool output replacement becomes decision:block, whose reason the model sees instead', async () => {
    const r = await runCli(['dispatch', '--agent', 'codex', '--settings', engine('replace', 'PostToolUse', replacement)], JSON.stringify(payload('Bash')));
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('REDACTED');
    expect(r.stdout).not.toContain('secret-value-42');
  });

  test('an MCP tool output is still replaced in place', async () => {
    const mcp = { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'REDACTED' } };
    const r = await runCli(['dispatch', '--agent', 'codex', '--settings', engine('replace-mcp', 'PostToolUse', mcp)], JSON.stringify(payload('mcp__fs__read')));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'REDACTED' } });
  });
});
