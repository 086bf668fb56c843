/** Spawning the built CLI with a minimal environment (test helper). */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CLI = join(resolve(__dirname, '../..'), 'dist/cli/main.js');

export function runCli(
  args: string[],
  stdin: string,
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd,
      // A state directory per call: dispatch keeps per-session counters (the Stop-block count) in
      // files, and these single-event calls share session ids across agents and cases.
      env: opts.env ?? {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        XDG_STATE_HOME: join(process.env.XDG_STATE_HOME ?? tmpdir(), randomUUID()),
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', rej);
    child.on('close', (code) => res({ stdout, stderr, code }));
    child.stdin.end(stdin);
  });
}
