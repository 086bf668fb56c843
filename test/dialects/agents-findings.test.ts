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
  const script = dir.write(
    `${name}.mjs`,
    `process.stdin.resume(); process.stdin.on('end', () => process.stdout.write(${JSON.stringify(JSON.stringify(output))}));`,
  );
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
  const replacement = {
    hookSpecificOutput: {
      hookEventName: 'PostToolUse',
      updatedToolOutput: { stdout: 'REDACTED', stderr: '', interrupted: false, isImage: false },
    },
  };

  test('a built-in tool output replacement becomes decision:block, whose reason the model sees instead', async () => {
    const r = await runCli(
      ['dispatch', '--agent', 'codex', '--settings', engine('replace', 'PostToolUse', replacement)],
      JSON.stringify(payload('Bash')),
    );
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('REDACTED');
    expect(r.stdout).not.toContain('secret-value-42');
  });

  test('an MCP tool output is still replaced in place', async () => {
    const mcp = { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'REDACTED' } };
    const r = await runCli(
      ['dispatch', '--agent', 'codex', '--settings', engine('replace-mcp', 'PostToolUse', mcp)],
      JSON.stringify(payload('mcp__fs__read')),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'REDACTED' } });
  });
});

describe('Qwen Code PostToolUse output replacement (Qwen Code 0.24.4)', () => {
  // The payload Qwen sent for run_shell_command; a block alone left the original output in the
  // tool result the model got, continue:false puts the stop reason in its place.
  const payload = {
    session_id: 'e464caa9-9ad6-47ed-ada5-1f062384edca',
    transcript_path: '/tmp/q/chats/e464caa9.jsonl',
    cwd: '/tmp',
    hook_event_name: 'PostToolUse',
    timestamp: '2026-12-01T19:07:38.972Z',
    permission_mode: 'yolo',
    prompt_id: 'e464caa9-9ad6-47ed-ada5-1f062384edca########0',
    tool_name: 'run_shell_command',
    tool_input: { command: 'cat .env', is_background: false },
    tool_response: { llmContent: 'Command: cat .env\nOutput: secret-value-42\nExit Code: 0', returnDisplay: 'secret-value-42' },
    tool_use_id: 'call_fake_0',
  };

  test('is withheld with decision:block and continue:false, the replacement in the reasons', async () => {
    const replacement = {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        updatedToolOutput: { stdout: 'REDACTED', stderr: '', interrupted: false, isImage: false },
      },
    };
    const r = await runCli(
      ['dispatch', '--agent', 'qwen', '--settings', engine('qwen-replace', 'PostToolUse', replacement)],
      JSON.stringify(payload),
    );
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer).toMatchObject({ decision: 'block', continue: false });
    expect(answer.stopReason).toContain('REDACTED');
    expect(answer.reason).toContain('REDACTED');
    expect(r.stdout).not.toContain('secret-value-42');
  });
});

describe('Copilot CLI userPromptSubmitted and sessionStart (Copilot CLI 1.0.102)', () => {
  const prompt = { sessionId: 'c8a3f38a-f454-421d-981c-f40a66d3d5df', timestamp: 1796152542389, cwd: '/tmp', prompt: 'deploy it' };

  test('a prompt block is passed on as decision:block with the reason (it used to be dropped, so the prompt reached the model)', async () => {
    const r = await runCli(
      [
        'dispatch',
        '--agent',
        'copilot',
        '--event',
        'userPromptSubmitted',
        '--settings',
        engine('cp-block', 'UserPromptSubmit', { decision: 'block', reason: 'no deploys on Friday' }),
      ],
      JSON.stringify(prompt),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ decision: 'block', reason: 'no deploys on Friday' });
  });

  test('prompt and session-start context are passed on as additionalContext', async () => {
    const ctx = (event: string) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: 'branch: main' } });
    const p = await runCli(
      [
        'dispatch',
        '--agent',
        'copilot',
        '--event',
        'userPromptSubmitted',
        '--settings',
        engine('cp-pctx', 'UserPromptSubmit', ctx('UserPromptSubmit')),
      ],
      JSON.stringify(prompt),
    );
    expect(JSON.parse(p.stdout), p.stderr).toEqual({ additionalContext: 'branch: main' });
    const s = await runCli(
      ['dispatch', '--agent', 'copilot', '--event', 'sessionStart', '--settings', engine('cp-sctx', 'SessionStart', ctx('SessionStart'))],
      JSON.stringify({ sessionId: 's', timestamp: 1, cwd: '/tmp', source: 'new' }),
    );
    expect(JSON.parse(s.stdout), s.stderr).toEqual({ additionalContext: 'branch: main' });
  });
});

describe('Factory Droid (droid exec 0.225.2)', () => {
  const pre = {
    session_id: 'fb037c3f-c135-49bb-9c2f-8ddc1428b392',
    transcript_path: '/tmp/t.jsonl',
    cwd: '/tmp',
    permission_mode: 'auto-high',
    hook_event_name: 'PreToolUse',
    tool_name: 'Execute',
    tool_input: { command: 'touch ran-marker', summary: 'run it', riskLevel: 'low', riskLevelReason: 'temp folder' },
  };

  test('an ask fails closed: Droid would run the call unasked', async () => {
    const ask = {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'confirm first' },
    };
    const r = await runCli(['dispatch', '--agent', 'droid', '--settings', engine('droid-ask', 'PreToolUse', ask)], JSON.stringify(pre));
    expect(r.code, r.stderr).toBe(0);
    const hso = JSON.parse(r.stdout).hookSpecificOutput;
    expect(hso.permissionDecision).toBe('deny');
    expect(hso.permissionDecisionReason).toMatch(/Factory Droid hooks cannot ask the user.*confirm first/);
    expect(r.stderr).toMatch(/runs the call when a hook asks/);
  });

  test('an output replacement withholds the output with continue:false', async () => {
    const replacement = { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'REDACTED' } };
    const post = { ...pre, hook_event_name: 'PostToolUse', tool_response: 'secret-value-42' };
    const r = await runCli(
      ['dispatch', '--agent', 'droid', '--settings', engine('droid-replace', 'PostToolUse', replacement)],
      JSON.stringify(post),
    );
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.continue).toBe(false);
    expect(answer.stopReason).toMatch(/withheld.*REDACTED/);
    expect(answer.hookSpecificOutput?.updatedToolOutput).toBeUndefined();
    expect(r.stdout).not.toContain('secret-value-42');
  });
});
