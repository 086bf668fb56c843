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
