/**
 * CLAUDE_ENV_FILE support: SessionStart/Setup/CwdChanged/FileChanged command hooks may append
 * shell lines (`export NAME=value`) to a file; the engine reads back what they export.
 *
 * The file is shell, so a shell evaluates it: `/bin/sh` sources it in the hooks' own minimal
 * environment and prints the resulting environment, and the names whose value is new or changed
 * are the exports. So `export PATH="$PATH:/opt/x/bin"`, `export A=1 B=2`, quoting and trailing
 * comments mean what they mean to a shell. Bounded: files over MAX_ENV_FILE_BYTES are not
 * evaluated, and the evaluation runs under the command backend's timeout and output caps.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../util/os-dirs.js';
import { runCommand } from '../backends/command.js';

export function createEnvFile(): { path: string; dispose: () => void } {
  const dir = mkdtempSync(join(tempDir(), 'agent-hooks-env-'));
  const path = join(dir, 'env.sh');
  writeFileSync(path, '', { mode: 0o600 });
  return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export const MAX_ENV_FILE_BYTES = 256 * 1024;
const ENV_FILE_TIMEOUT_MS = 5_000;

/** Names a shell sets by itself, and the file's own location: never reported as exports. */
// AGENT_HOOKS_RUN: the run's mark (src/backends/process-tree.ts), set by the engine, not by the file.
const SHELL_OWN = new Set(['PWD', 'OLDPWD', 'SHLVL', '_', 'CLAUDE_ENV_FILE', 'AGENT_HOOKS_ENV_NODE', 'AGENT_HOOKS_RUN']);

// Node prints the environment as JSON: portable where `env -0` is not, and unambiguous for any value.
const PRINT_ENV = 'process.stdout.write(JSON.stringify(process.env))';

export interface EnvFileResult {
  env: Record<string, string>;
  warning?: string;
}

/**
 * Evaluate the env file as `/bin/sh` would in `baseEnv` (the hooks' environment, CLAUDE_ENV_FILE
 * included) and return the variables it set or changed. Never throws.
 */
export async function evaluateEnvFile(path: string, baseEnv: Record<string, string>, cwd: string): Promise<EnvFileResult> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return { env: {} };
  }
  if (size === 0) return { env: {} };
  if (size > MAX_ENV_FILE_BYTES)
    return { env: {}, warning: `CLAUDE_ENV_FILE is ${size} bytes (limit ${MAX_ENV_FILE_BYTES}); not evaluated` };
  const result = await runCommand({
    command: `. "$CLAUDE_ENV_FILE" >/dev/null 2>&1 </dev/null; exec "$AGENT_HOOKS_ENV_NODE" -e '${PRINT_ENV}'`,
    shell: 'sh',
    cwd,
    env: { ...baseEnv, CLAUDE_ENV_FILE: path, AGENT_HOOKS_ENV_NODE: process.execPath },
    stdin: '',
    timeoutMs: ENV_FILE_TIMEOUT_MS,
    maxOutputBytes: 4 * 1024 * 1024,
  });
  if (result.status !== 'completed' || result.exitCode !== 0 || result.stdoutTruncated) {
    const why =
      result.status !== 'completed'
        ? (result.error ?? result.status)
        : result.stdoutTruncated
          ? 'its environment is too large'
          : `exit ${result.exitCode}`;
    return { env: {}, warning: `CLAUDE_ENV_FILE could not be evaluated (${why}); its exports are ignored` };
  }
  let after: Record<string, unknown>;
  try {
    after = JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    return {
      env: {},
      warning: 'CLAUDE_ENV_FILE could not be evaluated (the shell did not reach the end of the file); its exports are ignored',
    };
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(after)) {
    if (SHELL_OWN.has(name) || typeof value !== 'string' || baseEnv[name] === value) continue;
    env[name] = value;
  }
  return { env };
}
