/** Temp directories and inputs shared by the suites. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { RunInput } from 'agent-hooks';

export interface Scratch {
  root: string;
  path(...parts: string[]): string;
  json(rel: string, value: unknown): string;
  cleanup(): void;
}

export function scratch(prefix: string): Scratch {
  const root = mkdtempSync(join(tmpdir(), `agent-hooks-bench-${prefix}-`));
  return {
    root,
    path: (...parts) => join(root, ...parts),
    json(rel, value) {
      const file = join(root, rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(value, null, 2));
      return file;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A typical PreToolUse input (what an agent fires before running `Bash`). */
export function preToolUseInput(cwd: string): RunInput<'PreToolUse'> {
  return {
    session_id: 'bench-session-0001',
    transcript_path: '',
    cwd,
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: 'npm test -- --reporter=dot', description: 'Run the test suite' },
    tool_use_id: 'toolu_bench_0001',
  };
}
