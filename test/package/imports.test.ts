/**
 * What the built package imports is what a production install provides: every bare specifier
 * in dist/ (static imports, dynamic `import()` and `require()` with a literal name) is a Node
 * built-in, a dependency, or an optional peer. A devDependency reached from shipped code would
 * work here and fail for every user (`npm ci --omit=dev`); the `hooks` manager's prompt library,
 * which the build inlines (scripts/bundle-tui.mjs), is the case in point.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The names an AMD `define([...])` lists for its own module object (jsonc-parser's UMD wrapper has one). */
const AMD_PSEUDO = new Set(['require', 'exports', 'module']);

function bareImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map((f) => f.fileName).filter((s) => !s.startsWith('.') && !s.startsWith('/') && !AMD_PSEUDO.has(s));
}

const provided = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
const builtins = new Set(builtinModules);
const isBuiltin = (s: string) => s.startsWith('node:') || builtins.has(s) || builtins.has(s.split('/')[0]!);

describe('imports of the built package', () => {
  const files = jsFiles(join(ROOT, 'dist'));

  it('reach only built-ins, dependencies and optional peers', () => {
    expect(files.length).toBeGreaterThan(100);
    const stray: string[] = [];
    for (const file of files)
      for (const s of bareImports(file)) if (!isBuiltin(s) && !provided.has(packageOf(s))) stray.push(`${relative(ROOT, file)}: ${s}`);
    expect(stray).toEqual([]);
  });

  it('inline the hooks manager’s prompt library, which is a devDependency, with its licences', () => {
    expect(pkg.devDependencies['@clack/prompts']).toBeDefined();
    const tui = join(ROOT, 'dist/cli/tui/hooks-tui.js');
    expect(bareImports(tui).filter((s) => s.startsWith('@clack/') || s === 'sisteransi')).toEqual([]);
    // The inlined prompts, not a shell importing them from elsewhere: tsc's output alone is ~6 KB.
    expect(readFileSync(tui, 'utf8').length).toBeGreaterThan(30_000);
    const licences = readFileSync(join(ROOT, 'dist/cli/tui/third-party-licenses.txt'), 'utf8');
    for (const name of ['@clack/prompts@', '@clack/core@', 'sisteransi@']) expect(licences).toContain(name);
    expect(licences).toMatch(/MIT License|Permission is hereby granted/);
  });

  it('would catch a devDependency reached from shipped code', () => {
    const probe = ts.preProcessFile("const a = await import('vitest'); import b from 'zod'; require('@clack/core/x');", true, true);
    const names = probe.importedFiles.map((f) => packageOf(f.fileName));
    expect(names.filter((n) => !provided.has(n))).toEqual(['vitest', '@clack/core']);
  });
});
