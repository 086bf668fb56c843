/**
 * Hooks of one dialect run by dispatch for another agent: the script gets its own agent's
 * payload and is read by its own agent's rules (NormalizedHook.bridge).
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { runCli } from './cli.js';

const NATIVE = resolve(__dirname, '../fixtures/dialects/hooks/native.mjs');
const run = (c: string) => `node ${JSON.stringify(NATIVE)} ${c}`;
let dir: TempDir;
beforeAll(() => {
  dir = tempDir('agent-hooks-bridge-');
});
afterAll(() => dir.cleanup());

const claudePayload = (tool: string, input: Record<string, unknown>) =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '',
    cwd: dir.root,
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
  });

test.concurrent('a Gemini hook guards Claude Code: BeforeTool payload in, top-level deny read', async () => {
  const settings = dir.json('.gemini/settings.json', {
    hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: run('gemini-deny') }] }] },
  });
  const r = await runCli(['dispatch', '--agent', 'claude', '--settings', settings], claudePayload('Bash', { command: 'rm -rf /' }));
  expect(r.stdout).toBe(
    `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'gemini says no' } })}\n`,
  );
  expect(r.code).toBe(0);
  // Its matcher sees Gemini's tool names: a Read does not match run_shell_command.
  const other = await runCli(['dispatch', '--agent', 'claude', '--settings', settings], claudePayload('Read', { file_path: '/x' }));
  expect(other.stdout).toBe('');
});

test.concurrent('a Kimi hook guards Gemini CLI: exit 2 blocks with stderr', async () => {
  const settings = dir.write(
    'kimi-a/.kimi-code/config.toml',
    `[[hooks]]\nevent = "PreToolUse"\nmatcher = "Bash"\ncommand = ${JSON.stringify(run('kimi-block'))}\n`,
  );
  const payload = {
    session_id: 's',
    transcript_path: '',
    cwd: dir.root,
    hook_event_name: 'BeforeTool',
    timestamp: 't',
    tool_name: 'run_shell_command',
    tool_input: { command: 'rm -rf /' },
  };
  const r = await runCli(['dispatch', '--agent', 'gemini', '--settings', settings], JSON.stringify(payload));
  expect(r.stdout).toBe(`${JSON.stringify({ decision: 'deny', reason: 'kimi says no' })}\n`);
});

test.concurrent('a Kimi hook cannot allow: Kimi does not read allow, so neither does the engine', async () => {
  const settings = dir.write(
    'kimi-b/.kimi-code/config.toml',
    `[[hooks]]\nevent = "PreToolUse"\ncommand = ${JSON.stringify(run('kimi-allow'))}\n`,
  );
  const r = await runCli(['dispatch', '--agent', 'claude', '--settings', settings], claudePayload('Bash', { command: 'ls' }));
  expect(r.stdout).toBe('');
  expect(r.code).toBe(0);
});

test.concurrent("a Copilot hook rewrites a Claude Write: camelCase payload in, modifiedArgs read back in Claude's field names", async () => {
  const settings = dir.json('.github/hooks/guard.json', {
    version: 1,
    hooks: { preToolUse: [{ type: 'command', bash: run('copilot-rewrite') }] },
  });
  const r = await runCli(
    ['dispatch', '--agent', 'claude', '--settings', settings],
    claudePayload('Write', { file_path: '/etc/passwd', content: 'x' }),
  );
  expect(JSON.parse(r.stdout)).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { file_path: '/tmp/safe.txt', content: 'x' },
    },
  });
});
