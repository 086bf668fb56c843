import { afterEach, beforeEach } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temp directory removed by `cleanup()`; `write` creates files (and parents) inside it. */
export function tempDir(prefix = 'agent-hooks-test-') {
  const root = mkdtempSync(join(tmpdir(), prefix));
  return {
    root,
    path: (...parts: string[]) => join(root, ...parts),
    write(rel: string, content: string, mode?: number) {
      const file = join(root, rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
      if (mode !== undefined) chmodSync(file, mode);
      return file;
    },
    json(rel: string, value: unknown) {
      return this.write(rel, JSON.stringify(value, null, 2));
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
export type TempDir = ReturnType<typeof tempDir>;

/**
 * A fresh `tempDir` for each test of the file (made before it, removed after it), registered at
 * the top of a test file. The object returned stands for the current test's directory.
 */
export function useTempDir(prefix?: string): TempDir {
  let current: TempDir | undefined;
  beforeEach(() => {
    current = tempDir(prefix);
  });
  afterEach(() => {
    current?.cleanup();
    current = undefined;
  });
  return perTest(() => current, 'useTempDir');
}

/** An object that forwards every property to what `get()` returns now (throws outside a test). */
export function perTest<T extends object>(get: () => T | undefined, what: string): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = get();
      if (target === undefined) throw new Error(`${what}: used outside a test (before beforeEach or after afterEach)`);
      return Reflect.get(target, key, target);
    },
  });
}
