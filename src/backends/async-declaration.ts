/**
 * A command hook that declares itself async on its first stdout line (`{"async":true,…}`, Claude
 * Code 2.1). Observed in Claude Code 2.1.328 (test/agents/claude-diff case `async-first-line`): it
 * stops waiting as soon as the first line holds a `}` and parses as such an object (no newline
 * needed), and the hook runs on; neither `asyncTimeout` nor the hook's `timeout` ended it sooner.
 * The engine does the same: the run's result is the declaration, with the hook's own result to
 * come in `background`; the hook keeps the timeout it was started with (its `timeout`), so a
 * background hook is still bounded.
 */
import { nowMs } from '../util/clock.js';
import type { ExecutionResult } from '../types.js';
import { runCommand } from './command.js';
import type { CommandSpec } from './command-target.js';

/** A first line longer than this without a `}` is not a declaration: stop looking. */
const MAX_FIRST_LINE = 64 * 1024;

export function runDeclarable(spec: CommandSpec): Promise<ExecutionResult> {
  // The firing's abort reaches the hook only until it declares itself: after that it outlives the firing.
  const own = new AbortController();
  const outer = spec.signal;
  const forward = (): void => own.abort();
  if (outer?.aborted) own.abort();
  else outer?.addEventListener('abort', forward, { once: true });
  const started = nowMs();
  const decoder = new TextDecoder();
  let seen = '';
  let looking = true;
  let declare: (result: ExecutionResult) => void = () => {};
  const declared = new Promise<ExecutionResult>((resolve) => (declare = resolve));
  const onStdout = (chunk: Buffer): void => {
    if (!looking) return;
    seen += decoder.decode(chunk, { stream: true });
    const nl = seen.indexOf('\n');
    const first = (nl < 0 ? seen : seen.slice(0, nl)).trim();
    if (!first.includes('}')) {
      looking = nl < 0 && seen.length <= MAX_FIRST_LINE;
      return;
    }
    looking = false;
    if (!isDeclaration(first)) return;
    outer?.removeEventListener('abort', forward);
    declare({
      status: 'completed',
      exitCode: 0,
      signal: null,
      stdout: `${first}\n`,
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
      stdinTruncated: false,
      durationMs: nowMs() - started,
      background: full,
    });
  };
  const full = runCommand({ ...spec, signal: own.signal, onStdout });
  void full.finally(() => outer?.removeEventListener('abort', forward));
  return Promise.race([full, declared]);
}

function isDeclaration(line: string): boolean {
  try {
    const v = JSON.parse(line) as unknown;
    return typeof v === 'object' && v !== null && (v as { async?: unknown }).async === true;
  } catch {
    return false;
  }
}
