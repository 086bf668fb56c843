/**
 * Comments, tests and docs cite only what ships in the repository: no references to the source
 * documents the project was planned from (they are not here for a reader to follow), and no
 * sentences quoted from them; facts from them are stated in the project's own words.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIRS = ['src', 'test', 'docs', 'scripts', 'bench', 'examples'];
const FILES = ['README.md', 'CHANGELOG.md'];
const TEXT = /\.(ts|mts|mjs|js|md|sh|json)$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) return [];
    const p = join(dir, e.name);
    return e.isDirectory() ? files(p) : TEXT.test(e.name) ? [p] : [];
  });
}

/** A reference to a planning document that does not ship: "seed 000", "seeds/…", "PRODUCT.md". */
const OUTSIDE = /\bseeds?\s*(?:#\s*)?0\d\d\b|\bseeds\/|\bPRODUCT\.md\b/i;
/** CJK text: the planning documents are in Chinese; a quoted sentence from them is copied prose. */
const CJK = /[\u4e00-\u9fff]/;
/** Where CJK is data, not prose: terminal-output tests feed wide characters on purpose. */
const CJK_AS_DATA = new Set(['test/cli/terminal-output.test.ts', 'test/architecture/citations.test.ts']);

it('cites nothing outside the repository and quotes none of the planning documents', () => {
  const found: string[] = [];
  for (const file of [...DIRS.flatMap((d) => files(join(ROOT, d))), ...FILES.map((f) => join(ROOT, f))]) {
    const rel = relative(ROOT, file);
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (OUTSIDE.test(line) && rel !== 'test/architecture/citations.test.ts') found.push(`${rel}:${i + 1}: ${line.trim()}`);
        if (CJK.test(line) && !CJK_AS_DATA.has(rel)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
});

it('recognises the references it forbids', () => {
  for (const s of ['Seed 000: a rule', 'see seeds/000_x.txt', 'per PRODUCT.md', 'seed 004 says']) expect(OUTSIDE.test(s)).toBe(true);
  for (const s of ['a random seed of 42', 'fast-check seed 1234567', 'seeded LRU']) expect(OUTSIDE.test(s)).toBe(false);
  expect(CJK.test('插件')).toBe(true);
});
