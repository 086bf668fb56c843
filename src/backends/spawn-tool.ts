/**
 * A host's own tool run as a child process (e.g. `git worktree add` for a subagent's worktree):
 * not a hook, so it runs with the host's environment and no hook sandbox; it waits for the exit
 * and fails with the tool's stderr.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

class ToolProcessError extends Error {
  override name = 'ToolProcessError';
  constructor(
    message: string,
    /** The tool's stderr (or the spawn error's message), trimmed. */
    readonly detail: string,
  ) {
    super(message);
  }
}

/** Run `file args` in `cwd`; resolves with its output, rejects with ToolProcessError (detail: stderr). */
export async function runTool(file: string, args: readonly string[], opts: { cwd: string }): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileP(file, [...args], { cwd: opts.cwd });
  } catch (e) {
    const detail = String((e as { stderr?: string }).stderr ?? (e as Error).message).trim();
    throw new ToolProcessError(`${file} ${args.slice(0, 2).join(' ')} failed: ${detail}`, detail);
  }
}
