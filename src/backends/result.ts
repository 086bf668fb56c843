import { nowMs } from '../util/clock.js';
import type { ExecutionResult } from '../types.js';

/**
 * An ExecutionResult with the empty defaults filled in (no exit code, no output, nothing
 * truncated). With `start` (a nowMs() reading) the duration is measured up to now.
 */
export function makeResult(partial: Partial<ExecutionResult> & Pick<ExecutionResult, 'status'>, start?: number): ExecutionResult {
  const result: ExecutionResult = {
    exitCode: null,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    stdinTruncated: false,
    durationMs: 0,
    ...partial,
  };
  if (start !== undefined) result.durationMs = nowMs() - start;
  return result;
}
