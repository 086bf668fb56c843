/**
 * Host confinement at the moment of writing: a symlink inside the workspace that points
 * outside (dangling or not) is never written through — by Write, Edit, MultiEdit, ApplyPatch,
 * or a hook's rewrite — and nothing appears outside. A link pointing inside still works.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyPatchTool,
  editTool,
  multiEditTool,
  scriptedModel,
  writeTool,
  type HostTool,
  type ToolContext,
} from '../../src/host/index.js';
import { isolationProblem } from '../../src/host/tools/index.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { hook, runTool, toolContext, useHostSandbox } from './helpers.js';

let dir: TempDir;
let ws: string;
let ctx: ToolContext;
beforeEach(() => {
  dir = tempDir('agent-hooks-confine-');
  mkdirSync(dir.path('ws'));
  mkdirSync(dir.path('outside'));
  ws = realpathSync(dir.path('ws'));
  ctx = toolContext(ws);
});
afterEach(() => dir.cleanup());

const run = <I extends Record<string, unknown>>(tool: HostTool<I>, input: unknown) => runTool(tool, input, ctx);

describe('dangling symlink out of the workspace', () => {
  it('Write, Edit (empty old_string), MultiEdit and ApplyPatch refuse it and create nothing outside', async () => {
    const target = dir.path('outside', 'created.txt');
    symlinkSync(target, `${ws}/link.txt`);
    await expect(run(writeTool(), { file_path: `${ws}/link.txt`, content: 'pwned' })).rejects.toThrow(/outside the workspace/);
    await expect(run(editTool(), { file_path: `${ws}/link.txt`, old_string: '', new_string: 'pwned' })).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(run(multiEditTool(), { file_path: `${ws}/link.txt`, edits: [{ old_string: '', new_string: 'pwned' }] })).rejects.toThrow(
      /outside the workspace/,
    );
    const patch = ['*** Begin Patch', `*** Add File: ${ws}/link.txt`, '+pwned', '*** End Patch'].join('\n');
    await expect(run(applyPatchTool(), { patch })).rejects.toThrow(/outside the workspace/);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(`${ws}/link.txt`).isSymbolicLink()).toBe(true);
  });

  it('a chain of dangling links, and a link in a directory component, are followed to where a write would land', async () => {
    symlinkSync(dir.path('outside', 'end.txt'), `${ws}/b`);
    symlinkSync(`${ws}/b`, `${ws}/a`);
    symlinkSync(dir.path('outside'), `${ws}/sub`);
    await expect(run(writeTool(), { file_path: `${ws}/a`, content: 'x' })).rejects.toThrow(/outside the workspace/);
    await expect(run(writeTool(), { file_path: `${ws}/sub/new/file.txt`, content: 'x' })).rejects.toThrow(/outside the workspace/);
    expect(existsSync(dir.path('outside', 'end.txt'))).toBe(false);
    expect(existsSync(dir.path('outside', 'new'))).toBe(false);
  });

  it('the isolation check of a rewritten input sees through a dangling link', () => {
    symlinkSync(dir.path('outside', 'x.txt'), `${ws}/rw.txt`);
    expect(isolationProblem('Write', { file_path: `${ws}/rw.txt`, content: 'x' }, ws, ws)).toMatch(/outside the workspace/);
    expect(isolationProblem('Write', { file_path: `${ws}/plain.txt`, content: 'x' }, ws, ws)).toBeUndefined();
  });

  it('a folder of the workspace whose name begins with two dots is inside it; its parent is not', async () => {
    mkdirSync(`${ws}/..data`);
    expect(isolationProblem('Write', { file_path: `${ws}/..data/f.txt`, content: 'x' }, ws, ws)).toBeUndefined();
    expect(isolationProblem('Write', { file_path: `${ws}/../f.txt`, content: 'x' }, ws, ws)).toMatch(/outside the workspace/);
    await run(writeTool(), { file_path: `${ws}/..data/f.txt`, content: 'kept' });
    expect(readFileSync(`${ws}/..data/f.txt`, 'utf8')).toBe('kept');
  });

  it('a link that points inside the workspace is written through to its target', async () => {
    mkdirSync(`${ws}/docs`);
    writeFileSync(`${ws}/docs/real.md`, 'old');
    symlinkSync(`${ws}/docs/real.md`, `${ws}/README.md`);
    symlinkSync(`${ws}/docs/new.md`, `${ws}/NEW.md`); // dangling, inside
    await run(writeTool(), { file_path: `${ws}/README.md`, content: 'new' });
    await run(writeTool(), { file_path: `${ws}/NEW.md`, content: 'created' });
    expect(readFileSync(`${ws}/docs/real.md`, 'utf8')).toBe('new');
    expect(readFileSync(`${ws}/docs/new.md`, 'utf8')).toBe('created');
    expect(lstatSync(`${ws}/README.md`).isSymbolicLink()).toBe(true);
  });
});

describe('a hook rewrite to a dangling link out of the workspace', () => {
  const sb = useHostSandbox();

  it('is rejected and writes nothing outside', async () => {
    const outside = sb.dir.path('outside-target.txt');
    symlinkSync(outside, `${sb.ws}/innocent.txt`);
    const pre = `json:${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { file_path: `${sb.ws}/innocent.txt`, content: 'pwned' } } })}`;
    sb.settings({ PreToolUse: [{ matcher: 'Write', hooks: [hook(sb.log, pre)] }] });
    const s = await sb.session({
      model: scriptedModel([
        { toolCalls: [{ id: 't1', name: 'Write', input: { file_path: `${sb.ws}/in.txt`, content: 'x' } }] },
        { text: 'done' },
      ]),
      prompter: { confirmTool: async () => ({ behavior: 'allow' as const }) },
    });
    await s.submit('go');
    expect(existsSync(outside)).toBe(false);
    expect(s.messages.find((m) => m.role === 'tool')!.content).toMatch(/outside the workspace/);
  });
});
