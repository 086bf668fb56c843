/**
 * The runtime's ApplyPatch tool and Claude file-tool hooks (src/host/patch-views.ts): a hook
 * whose matcher selects Edit/Write but not ApplyPatch runs once per file the patch touches, on
 * that file's Claude-shaped view; a hook that names ApplyPatch runs once, on the patch.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../../src/host/index.js';
import { hook, useHostSandbox, allowAll } from '../helpers.js';

const GUARD = fileURLToPath(new URL('../fixtures/env-guard.mjs', import.meta.url));

const sb = useHostSandbox();

const envGuard = (log: string) => ({ type: 'command', command: process.execPath, args: [GUARD, log] });
const patchCall = (patch: string) => ({ toolCalls: [{ id: 't1', name: 'ApplyPatch', input: { patch } }] });
const patchOf = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

async function applyPatch(patch: string) {
  const s = await sb.session({ model: scriptedModel([patchCall(patch), { text: 'done' }]), prompter: allowAll });
  const r = await s.submit('go');
  expect(r.status).toBe('completed');
  return s.messages.find((m) => m.role === 'tool')!;
}

describe('ApplyPatch and Edit/Write-only guards', () => {
  it('an Edit|Write .env guard denies a patch that writes .env; no file of the patch is written', async () => {
    sb.settings({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [envGuard(sb.log)] }] });
    writeFileSync(`${sb.ws}/.env`, 'SECRET=1\n');
    const tool = await applyPatch(patchOf('*** Add File: notes.txt', '+hello', '*** Update File: .env', '@@', '-SECRET=1', '+SECRET=2'));
    expect(tool.content).toContain(`writing ${sb.ws}/.env is not allowed`);
    expect(readFileSync(`${sb.ws}/.env`, 'utf8')).toBe('SECRET=1\n');
    expect(existsSync(`${sb.ws}/notes.txt`)).toBe(false);
    // The guard saw each file as Claude would have sent it.
    const seen = sb.entries().map((e) => [e.tool_name, (e.tool_input as Record<string, unknown>).file_path]);
    expect(seen).toEqual([
      ['Write', `${sb.ws}/notes.txt`],
      ['Edit', `${sb.ws}/.env`],
    ]);
    expect(sb.entries()[1]!.tool_input).toEqual({ file_path: `${sb.ws}/.env`, old_string: 'SECRET=1', new_string: 'SECRET=2' });
  });

  it('a patch touching only other files passes the guard and is applied', async () => {
    sb.settings({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [envGuard(sb.log)] }] });
    await applyPatch(patchOf('*** Add File: a.txt', '+a', '*** Add File: b.txt', '+b'));
    expect(readFileSync(`${sb.ws}/a.txt`, 'utf8')).toBe('a\n');
    expect(readFileSync(`${sb.ws}/b.txt`, 'utf8')).toBe('b\n');
    expect(sb.entries().map((e) => (e.tool_input as Record<string, unknown>).file_path)).toEqual([`${sb.ws}/a.txt`, `${sb.ws}/b.txt`]);
  });

  it('a Write|ApplyPatch hook runs once, on the patch, while the Edit|Write guard runs per file', async () => {
    sb.settings({
      PreToolUse: [
        { matcher: 'Write|ApplyPatch', hooks: [hook(sb.log)] },
        { matcher: 'Edit|Write', hooks: [envGuard(sb.log)] },
      ],
    });
    await applyPatch(patchOf('*** Add File: a.txt', '+a', '*** Add File: b.txt', '+b'));
    expect(sb.entries().map((e) => e.tool_name)).toEqual(['ApplyPatch', 'Write', 'Write']);
    expect(existsSync(`${sb.ws}/a.txt`) && existsSync(`${sb.ws}/b.txt`)).toBe(true);
  });

  it('a Write|ApplyPatch rewrite of the patch stands next to an Edit|Write guard that allows', async () => {
    const rewritten = patchOf('*** Add File: rewritten.txt', '+r');
    const rewrite = `json:${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { patch: rewritten } } })}`;
    sb.settings({
      PreToolUse: [
        { matcher: 'Write|ApplyPatch', hooks: [hook(sb.log, rewrite)] },
        { matcher: 'Edit|Write', hooks: [envGuard(sb.log)] },
      ],
    });
    await applyPatch(patchOf('*** Add File: a.txt', '+a'));
    expect(existsSync(`${sb.ws}/rewritten.txt`)).toBe(true);
    expect(existsSync(`${sb.ws}/a.txt`)).toBe(false);
    expect(sb.entries().map((e) => e.tool_name)).toEqual(['ApplyPatch', 'Write']);
  });

  it('a patch from which no file can be read is denied, with a reason, when an Edit|Write guard exists', async () => {
    sb.settings({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [envGuard(sb.log)] }] });
    const tool = await applyPatch('not a patch at all');
    expect(tool.content).toMatch(/no file could be read from this patch.*Edit\/Write hook\(s\).*the patch is denied/);
    expect(sb.entries()).toEqual([]);
  });

  it('PostToolUse Edit|Write hooks see each file of an applied patch', async () => {
    sb.settings({ PostToolUse: [{ matcher: 'Edit|Write', hooks: [hook(sb.log)] }] });
    await applyPatch(patchOf('*** Add File: a.txt', '+a', '*** Add File: b.txt', '+b'));
    // The views of a PostToolUse run side by side, as its hooks do: the log's order is theirs to pick.
    expect(
      sb
        .entries()
        .map((e) => [e.hook_event_name, e.tool_name, (e.tool_input as Record<string, unknown>).file_path])
        .sort(),
    ).toEqual([
      ['PostToolUse', 'Write', `${sb.ws}/a.txt`],
      ['PostToolUse', 'Write', `${sb.ws}/b.txt`],
    ]);
  });
});
