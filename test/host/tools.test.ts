import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyPatchTool,
  bashTool,
  editTool,
  globTool,
  grepTool,
  multiEditTool,
  readTool,
  ToolError,
  writeTool,
  type HostTool,
  type ToolContext,
} from '../../src/host/index.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { runTool, toolContext } from './helpers.js';

let dir: TempDir;
let ws: string;
let ctx: ToolContext;
beforeEach(() => {
  dir = tempDir('agent-hooks-tools-');
  mkdirSync(dir.path('ws'));
  ws = realpathSync(dir.path('ws'));
  ctx = toolContext(ws);
});
afterEach(() => dir.cleanup());

const run = <I extends Record<string, unknown>>(tool: HostTool<I>, input: unknown) => runTool(tool, input, ctx);

describe('file tools', () => {
  it('need absolute paths (schema) and stay inside the workspace, symlinks included', async () => {
    expect(readTool().inputSchema.safeParse({ file_path: 'rel.txt' }).success).toBe(false);
    writeFileSync(dir.path('secret.txt'), 'outside');
    await expect(run(readTool(), { file_path: dir.path('secret.txt') })).rejects.toThrow(/outside the workspace/);
    symlinkSync(dir.path('secret.txt'), `${ws}/link.txt`);
    await expect(run(readTool(), { file_path: `${ws}/link.txt` })).rejects.toThrow(/outside the workspace/);
    await expect(run(writeTool(), { file_path: `${ws}/../escape.txt`, content: 'x' })).rejects.toThrow(ToolError);
  });

  it('Write, Read (numbered lines, offset/limit), Edit, MultiEdit', async () => {
    const f = `${ws}/d/a.txt`;
    expect((await run(writeTool(), { file_path: f, content: 'one\ntwo\nthree\n' })).output).toEqual({ type: 'create', filePath: f });
    expect((await run(readTool(), { file_path: f, offset: 2, limit: 1 })).content).toBe('     2\ttwo');
    await run(editTool(), { file_path: f, old_string: 'two', new_string: 'TWO' });
    await expect(run(editTool(), { file_path: f, old_string: 'missing', new_string: 'x' })).rejects.toThrow(/not found/);
    await run(multiEditTool(), {
      file_path: f,
      edits: [
        { old_string: 'one', new_string: '1' },
        { old_string: 'three', new_string: '3' },
      ],
    });
    expect(readFileSync(f, 'utf8')).toBe('1\nTWO\n3\n');
    // All or nothing: the second edit fails, the first is not written.
    await expect(
      run(multiEditTool(), {
        file_path: f,
        edits: [
          { old_string: '1', new_string: 'one' },
          { old_string: 'nope', new_string: 'x' },
        ],
      }),
    ).rejects.toThrow(/edit 2/);
    expect(readFileSync(f, 'utf8')).toBe('1\nTWO\n3\n');
  });

  it('Edit refuses an ambiguous old_string unless replace_all', async () => {
    const f = `${ws}/b.txt`;
    writeFileSync(f, 'x x x');
    await expect(run(editTool(), { file_path: f, old_string: 'x', new_string: 'y' })).rejects.toThrow(/occurs 3 times/);
    await run(editTool(), { file_path: f, old_string: 'x', new_string: 'y', replace_all: true });
    expect(readFileSync(f, 'utf8')).toBe('y y y');
  });
});

describe('ApplyPatch', () => {
  it('adds, updates (with context and rename) and deletes files', async () => {
    writeFileSync(`${ws}/keep.txt`, 'alpha\nbeta\ngamma\n');
    writeFileSync(`${ws}/old.txt`, 'a\nb\n');
    writeFileSync(`${ws}/gone.txt`, 'bye\n');
    const patch = [
      '*** Begin Patch',
      '*** Add File: new/hello.txt',
      '+hello',
      '+world',
      '*** Update File: keep.txt',
      '@@ alpha',
      '-beta',
      '+BETA',
      ' gamma',
      '*** Update File: old.txt',
      '*** Move to: renamed.txt',
      '@@',
      ' a',
      '-b',
      '+c',
      '*** Delete File: gone.txt',
      '*** End Patch',
    ].join('\n');
    const r = await run(applyPatchTool(), { patch });
    expect(r.content).toContain('A ');
    expect(readFileSync(`${ws}/new/hello.txt`, 'utf8')).toBe('hello\nworld\n');
    expect(readFileSync(`${ws}/keep.txt`, 'utf8')).toBe('alpha\nBETA\ngamma\n');
    expect(readFileSync(`${ws}/renamed.txt`, 'utf8')).toBe('a\nc\n');
    expect(() => readFileSync(`${ws}/old.txt`)).toThrow();
    expect(() => readFileSync(`${ws}/gone.txt`)).toThrow();
  });

  it('is all or nothing, and every path (rename targets too) stays in the workspace', async () => {
    writeFileSync(`${ws}/a.txt`, 'a\n');
    const bad = ['*** Begin Patch', '*** Add File: b.txt', '+b', '*** Update File: a.txt', '@@', '-zzz', '+y', '*** End Patch'].join('\n');
    await expect(run(applyPatchTool(), { patch: bad })).rejects.toThrow(/does not apply/);
    expect(() => readFileSync(`${ws}/b.txt`)).toThrow();
    const outside = ['*** Begin Patch', '*** Update File: a.txt', '*** Move to: ../../x.txt', '@@', '-a', '+b', '*** End Patch'].join('\n');
    await expect(run(applyPatchTool(), { patch: outside })).rejects.toThrow(/outside the workspace/);
    await expect(run(applyPatchTool(), { patch: 'garbage' })).rejects.toThrow(/Begin Patch/);
  });
});

describe('search tools', () => {
  beforeEach(() => {
    dir.write('ws/src/a.ts', 'const TODO = 1;\n// todo: fix\n');
    dir.write('ws/src/deep/b.ts', 'nothing\n');
    dir.write('ws/README.md', 'TODO write docs\n');
    dir.write('ws/.git/config', 'TODO in git\n');
  });

  it('Glob matches with picomatch, skipping .git', async () => {
    const r = await run(globTool(), { pattern: '**/*.ts' });
    expect((r.output as { filenames: string[] }).filenames.sort()).toEqual([`${ws}/src/a.ts`, `${ws}/src/deep/b.ts`]);
    expect((await run(globTool(), { pattern: '**/config' })).content).toBe('No files found');
  });

  it('Grep: modes, -i, glob filter, head_limit', async () => {
    expect((await run(grepTool(), { pattern: 'TODO' })).output).toMatchObject({ filenames: [`${ws}/README.md`, `${ws}/src/a.ts`] });
    expect((await run(grepTool(), { pattern: 'todo', '-i': true, output_mode: 'count', glob: '*.ts' })).content).toBe(`${ws}/src/a.ts:2`);
    expect((await run(grepTool(), { pattern: 'fix', output_mode: 'content' })).content).toBe(`${ws}/src/a.ts:2:// todo: fix`);
    expect((await run(grepTool(), { pattern: 'TODO', head_limit: 1 })).output).toMatchObject({ numFiles: 1 });
    await expect(run(grepTool(), { pattern: '(' })).rejects.toThrow(/invalid regular expression/);
  });
});

describe('Bash', () => {
  it('runs in the workspace with the session env; a non-zero exit is an error with the exit code', async () => {
    ctx = { ...ctx, env: { GREETING: 'hi' } };
    expect((await run(bashTool(), { command: 'echo "$GREETING from $(pwd)"' })).content).toBe(`hi from ${ws}\n`);
    await expect(run(bashTool(), { command: 'echo out; exit 4' })).rejects.toThrow(/^Exit code 4\nout/);
    await expect(run(bashTool(), { command: 'sleep 5', timeout: 200 })).rejects.toThrow(/timed out after 200 ms/);
  });

  it('does not leak the host environment', async () => {
    process.env.AGENT_HOOKS_TEST_SECRET = 'leak';
    try {
      expect((await run(bashTool(), { command: 'echo "[${AGENT_HOOKS_TEST_SECRET:-}]"' })).content).toBe('[]\n');
    } finally {
      delete process.env.AGENT_HOOKS_TEST_SECRET;
    }
  });
});
