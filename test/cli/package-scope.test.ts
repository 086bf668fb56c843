/**
 * The package scopes of the files dispatch and `run` load: Node reads the nearest package.json at
 * a process's first require() from a folder, and the package's own took ~1 M instructions to parse
 * (docs/performance.md, item 22). The build puts a one-key file above dist/cli and dist/validators.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const read = (file: string) => JSON.parse(readFileSync(new URL(file, ROOT), 'utf8')) as Record<string, unknown>;

test("dist/cli and dist/validators are scopes of their own that keep the package's module type", () => {
  expect(read('dist/cli/package.json')).toEqual({ type: read('package.json').type });
  // Only .cjs files there: the type is the one they have anyway.
  expect(read('dist/validators/package.json')).toEqual({ type: 'commonjs' });
});
