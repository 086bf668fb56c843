import { describe, it, expect } from 'vitest';
import { extractToolPaths, extractPatchPaths } from '../../src/matching/index.js';
import { parsePatchFiles } from '../../src/matching/paths.js';
import { parsePatch } from '../../src/host/tools/apply-patch.js';

describe('extractToolPaths', () => {
  it.each([['Edit'], ['Write'], ['MultiEdit'], ['Read']])('%s: file_path', (tool) => {
    expect(extractToolPaths(tool, { file_path: '/repo/a.ts', content: 'x' })).toEqual(['/repo/a.ts']);
  });

  it('NotebookEdit: notebook_path', () => {
    expect(extractToolPaths('NotebookEdit', { notebook_path: '/repo/n.ipynb', new_source: '' })).toEqual(['/repo/n.ipynb']);
    expect(extractToolPaths('NotebookEdit', { file_path: '/repo/n.ipynb' })).toEqual([]);
  });

  it('Glob and Grep: path when present', () => {
    expect(extractToolPaths('Glob', { pattern: '**/*.ts', path: '/repo/src' })).toEqual(['/repo/src']);
    expect(extractToolPaths('Grep', { pattern: 'TODO', path: '/repo' })).toEqual(['/repo']);
    expect(extractToolPaths('Glob', { pattern: '**/*.ts' })).toEqual([]);
  });

  it('other tools have no paths', () => {
    expect(extractToolPaths('Bash', { command: 'cat /etc/passwd', file_path: '/x' })).toEqual([]);
    expect(extractToolPaths('mcp__fs__read', { file_path: '/x' })).toEqual([]);
  });

  it('never throws on odd input', () => {
    for (const input of [undefined, null, 42, 'str', [], { file_path: 42 }, { file_path: '' }, { file_path: ['/a'] }]) {
      expect(extractToolPaths('Edit', input)).toEqual([]);
      expect(extractToolPaths('ApplyPatch', input)).toEqual([]);
    }
    expect(extractToolPaths(undefined as unknown as string, { file_path: '/a' })).toEqual([]);
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom');
        },
      },
    );
    expect(extractToolPaths('Edit', hostile)).toEqual([]);
  });
});

describe('extractToolPaths: ApplyPatch', () => {
  const body = [
    '*** Begin Patch',
    '*** Update File: src/app.ts',
    '@@ function main()',
    '-  old()',
    '+  new()',
    '*** Add File: docs/notes.md',
    '+# Notes',
    '+*** Delete File: not/a/header',
    '*** Delete File: secrets/.env',
    '*** Update File: lib/old.ts',
    '*** Move to: lib/new.ts',
    '*** End Patch',
  ].join('\n');
  const expected = ['src/app.ts', 'docs/notes.md', 'secrets/.env', 'lib/old.ts', 'lib/new.ts'];

  it('extracts every Add/Delete/Update/Move to path, in order', () => {
    expect(extractToolPaths('ApplyPatch', { patch: body })).toEqual(expected);
  });

  it.each([
    ['ApplyPatch', 'patch'],
    ['apply_patch', 'input'],
    ['apply_patch', 'command'],
    ['ApplyPatch', 'input'],
  ])('%s reads the %s field', (tool, field) => {
    expect(extractToolPaths(tool, { [field]: body })).toEqual(expected);
  });

  it('reads a Codex argv array and a heredoc-wrapped command', () => {
    expect(extractToolPaths('apply_patch', { command: ['apply_patch', body] })).toEqual(expected);
    expect(extractToolPaths('apply_patch', { command: `apply_patch <<'EOF'\n${body}\nEOF` })).toEqual(expected);
  });

  it('handles CRLF, trailing spaces and duplicates', () => {
    const crlf = '*** Begin Patch\r\n*** Update File: a.ts  \r\n*** Update File: a.ts\r\n*** Add File: b.ts\r\n*** End Patch\r\n';
    expect(extractPatchPaths(crlf)).toEqual(['a.ts', 'b.ts']);
  });

  it('keeps spaces inside paths', () => {
    expect(extractPatchPaths('*** Add File: My Docs/a b.txt\n+x')).toEqual(['My Docs/a b.txt']);
  });

  it('reads a path that ends in a line or paragraph separator, NEL or NBSP as the patch tools write it', () => {
    // `.` stops at U+2028/U+2029 and JavaScript's trim does not remove U+0085 (Rust's does):
    // each of these once hid `.env` from a guard while a patch tool wrote `.env`.
    for (const end of ['\u2028', '\u2029', '\u0085', '\u00a0', '\u2028 \u0085']) {
      const patch = `*** Begin Patch\n*** Add File: .env${end}\n+KEY=x\n*** End Patch\n`;
      expect(extractPatchPaths(patch), JSON.stringify(end)).toEqual(['.env']);
      expect(extractToolPaths('ApplyPatch', { patch }), JSON.stringify(end)).toEqual(['.env']);
      expect(
        parsePatchFiles(patch).map((f) => f.path),
        JSON.stringify(end),
      ).toEqual(['.env']);
      // What the reference runtime's patch tool would write, where it reads the path at all.
      if (!end.includes('\u0085')) expect(parsePatch(patch).map((op) => op.path)).toEqual(['.env']);
    }
    expect(extractPatchPaths('*** Update File: a.ts\n*** Move to: \u2029.env\u2029\n')).toEqual(['a.ts', '.env']);
  });

  it('ignores body lines and empty headers', () => {
    expect(extractPatchPaths('+*** Add File: x\n-*** Delete File: y\n *** Update File: \n')).toEqual([]);
    expect(extractPatchPaths(42 as unknown as string)).toEqual([]);
  });
});
