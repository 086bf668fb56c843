/** Word-level diffs of changed lines (src/serve/diff.ts). */
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../src/serve/diff.js';

describe('lineDiff word level', () => {
  it('pairs a changed line with its replacement and marks only the changed words', () => {
    const long = (w: string) => `  "command": "node ./hooks/guard.mjs --mode ${w} --log /tmp/guard.log --max 10"`;
    const d = lineDiff(`{\n${long('strict')}\n}\n`, `{\n${long('lenient')}\n}\n`)!;
    const h = d.hunks[0]!;
    const del = h.lines.findIndex((l) => l.startsWith('-'));
    const add = h.lines.findIndex((l) => l.startsWith('+'));
    expect(h.words![del]!.filter((s) => s.changed).map((s) => s.text)).toEqual(['strict']);
    expect(h.words![add]!.filter((s) => s.changed).map((s) => s.text)).toEqual(['lenient']);
    // The segments rebuild each line exactly.
    expect(h.words![del]!.map((s) => s.text).join('')).toBe(h.lines[del]!.slice(1));
    expect(h.words![add]!.map((s) => s.text).join('')).toBe(h.lines[add]!.slice(1));
  });

  it('leaves unpaired runs (2 lines removed, 1 added) as whole lines', () => {
    const d = lineDiff('a\nb\nc\n', 'x\nc\n')!;
    expect(d.hunks[0]!.words).toBeUndefined();
  });
});
