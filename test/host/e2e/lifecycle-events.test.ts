/**
 * End-to-end tests of the events the runtime fires around the conversation rather than inside a
 * tool call: Setup, CwdChanged, FileChanged, DirectoryAdded, UserPromptExpansion, the task list
 * (TaskCreated, TaskStarted, TaskCompleted), worktrees (WorktreeCreate, WorktreeRemove) and
 * ConfigChange. Real hook processes configured in the workspace's .claude/settings.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptedModel } from '../../../src/host/index.js';
import { hook, hostSandbox, type HostSandbox } from '../helpers.js';

let sb: HostSandbox;
beforeEach(() => {
  sb = hostSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

const json = (o: unknown) => `json:${JSON.stringify(o)}`;
const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const allowAll = { confirmTool: async () => ({ behavior: 'allow' as const }) };
const ctxOf = (o: { hookSpecificOutput: Record<string, unknown> }) => json(o);

describe('Setup', () => {
  it('fires before SessionStart with the trigger; context joins the conversation first; env exports apply', async () => {
    sb.settings({
      Setup: [
        { matcher: 'init', hooks: [hook(sb.log, ctxOf({ hookSpecificOutput: { hookEventName: 'Setup', additionalContext: 'deps installed' } })), { type: 'command', command: `echo 'export FROM_START=setup' >> "$CLAUDE_ENV_FILE"` }] },
        { matcher: 'maintenance', hooks: [hook(sb.log, 'text:never')] },
      ],
      SessionStart: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([{ toolCalls: [{ id: 't1', name: 'Bash', input: { command: 'echo "env=$FROM_START"' } }] }, { text: 'done' }]);
    const s = await sb.session({ model, prompter: allowAll, setup: 'init' });
    expect(sb.events()).toEqual(['Setup', 'SessionStart']);
    expect(sb.entries()[0]).toMatchObject({ trigger: 'init', session_id: s.id });
    // SessionStart hooks already see Setup's exports.
    expect(sb.entries()[1]!.__env).toEqual({ FROM_START: 'setup' });
    expect(s.env).toEqual({ FROM_START: 'setup' });
    await s.submit('go');
    expect(model.requests[0]!.messages[0]!.content).toContain('<hook-context source="Setup">deps installed</hook-context>');
    expect(s.messages.find((m) => m.role === 'tool')!.content).toBe('env=setup\n');
  });

  it('does not fire without setup; maintenance matches its own matcher; an invalid trigger is an error', async () => {
    sb.settings({ Setup: [{ matcher: 'maintenance', hooks: [hook(sb.log)] }], SessionStart: [{ hooks: [hook(sb.log)] }] });
    await sb.session({ model: scriptedModel([]) });
    expect(sb.events()).toEqual(['SessionStart']);
    await sb.session({ model: scriptedModel([]), setup: 'maintenance' });
    expect(sb.events()).toEqual(['SessionStart', 'Setup', 'SessionStart']);
    await expect(sb.start({ model: scriptedModel([]), setup: 'weekly' as 'init' })).rejects.toThrow(/setup must be/);
  });
});
