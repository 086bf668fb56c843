/** Bash: runs a command with bash in the call's working directory, process group killed on timeout or abort. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { buildHookEnv, runCommand } from '../../backends/index.js';
import { ToolError, type HostTool } from '../types.js';

const MAX_TIMEOUT_MS = 600_000;
const DEFAULT_TIMEOUT_MS = 120_000;

const input = z.strictObject({
  command: z.string().min(1),
  description: z.string().optional(),
  /** Milliseconds; values above the maximum are reduced to it (as the reference says). */
  timeout: z.number().positive().optional(),
  run_in_background: z.boolean().optional(),
});
export type BashInput = z.infer<typeof input>;

export function bashTool(): HostTool<BashInput> {
  return {
    name: 'Bash',
    description: 'Run a shell command (bash) in the workspace.',
    inputSchema: input,
    async run(args, ctx) {
      if (args.run_in_background) throw new ToolError('run_in_background is not supported by this runtime');
      const timeoutMs = Math.min(args.timeout ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
      // The session's frozen environment on top of the minimal host environment: no credentials leak in.
      const env = buildHookEnv({ sessionEnv: { ...ctx.env }, projectDir: ctx.workspace });
      // cd tracking: an EXIT trap writes the shell's final directory to a marker file (it also
      // runs after `exit N`); the runtime then moves the session cwd there (CwdChanged).
      const markerDir = ctx.onCwd ? mkdtempSync(path.join(tmpdir(), 'agent-hooks-cwd-')) : undefined;
      const marker = markerDir ? path.join(markerDir, 'cwd') : undefined;
      const command = marker ? `trap 'pwd -P > "${marker}" 2>/dev/null' EXIT\n${args.command}` : args.command;
      let r: Awaited<ReturnType<typeof runCommand>>;
      let note: string | undefined;
      try {
        r = await runCommand({ command, shell: 'bash', cwd: ctx.cwd, env, stdin: '', timeoutMs, signal: ctx.signal });
        let after: string | undefined;
        try {
          after = marker ? readFileSync(marker, 'utf8').trim() : undefined;
        } catch {
          after = undefined;
        }
        if (after && after !== ctx.cwd && ctx.onCwd && r.status !== 'aborted' && r.status !== 'timeout') note = await ctx.onCwd(after);
      } finally {
        if (markerDir) rmSync(markerDir, { recursive: true, force: true });
      }
      const combined = [r.stdout, r.stderr].filter((s) => s !== '').join(r.stdout.endsWith('\n') || r.stdout === '' ? '' : '\n');
      const output = {
        stdout: r.stdout,
        stderr: r.stderr,
        exitCode: r.exitCode,
        interrupted: r.status === 'aborted' || r.status === 'timeout',
      };
      if (r.status === 'timeout') throw new ToolError(`Command timed out after ${timeoutMs} ms\n${combined}`.trimEnd(), output);
      if (r.status === 'aborted') throw new ToolError(`Command was interrupted\n${combined}`.trimEnd(), output);
      if (r.status === 'error') throw new ToolError(r.error ?? 'could not start bash', output);
      if (r.exitCode !== 0) throw new ToolError(`Exit code ${r.exitCode ?? r.signal}\n${combined}`.trimEnd(), output);
      const text = combined === '' ? '(no output)' : combined;
      return { output, content: note ? `${text.endsWith('\n') ? text : `${text}\n`}${note}` : text };
    },
  };
}
