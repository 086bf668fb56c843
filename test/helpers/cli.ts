import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll } from 'vitest';

/** The built CLI: these tests drive dist/, as a user would, so `npm run build` comes first. */
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/** The `bin` entry of package.json, the file an installed `agent-hooks` runs. */
export const CLI_BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Fails the file's tests up front, with the fix, when dist/ has not been built. */
export function requireBuiltCli(entry = CLI) {
  beforeAll(() => {
    if (!existsSync(entry)) throw new Error(`${relative(ROOT, entry)} is missing: run \`npm run build\` first (npm test does)`);
  });
}

export interface CliRun {
  cwd?: string;
  /** stdin; '' (closed at once) when not given. */
  input?: string;
  /** The child's whole environment; this process's when not given. */
  env?: NodeJS.ProcessEnv;
  timeout?: number;
  /** The file node runs; `CLI` when not given. */
  entry?: string;
}

/** Runs the built CLI to its end and returns its exit code and output. */
export function runCli(args: string[], opts: CliRun = {}) {
  const r = spawnSync(process.execPath, [opts.entry ?? CLI, ...args], {
    cwd: opts.cwd,
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeout ?? 60_000,
    env: opts.env,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
