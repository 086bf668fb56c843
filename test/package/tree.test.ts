/**
 * The production install's size, counted from package-lock.json by scripts/count-prod-tree.mjs
 * (what `npm ci --omit=dev` installs, optional peers left out), printed so CI shows the figure.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without declarations
import { countProdTree } from '../../scripts/count-prod-tree.mjs';

type Tree = { count: number; packages: string[]; missing: string[] };
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));

describe('production dependency tree', () => {
  it('resolves every production dependency in the lock and stays under its ceiling', () => {
    const tree = countProdTree(lock) as Tree;
    console.log(`production tree: ${tree.count} packages (npm ci --omit=dev, without optional peers)`);
    expect(tree.missing).toEqual([]);
    // The ceiling is today's figure: lower it when the tree shrinks, never raise it silently.
    expect(tree.count).toBeLessThanOrEqual(25);
  });

  it('leaves out optional peers and counts nested copies', () => {
    const tiny = {
      packages: {
        '': { dependencies: { a: '1' }, peerDependencies: { p: '1' }, peerDependenciesMeta: { p: { optional: true } } },
        'node_modules/a': { dependencies: { b: '1' } },
        'node_modules/a/node_modules/b': {},
        'node_modules/b': {},
        'node_modules/p': { dependencies: { b: '1' } },
      },
    };
    const tree = countProdTree(tiny) as Tree;
    expect(tree.packages).toEqual(['node_modules/a', 'node_modules/a/node_modules/b']);
  });
});
