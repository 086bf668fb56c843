/**
 * In-process function hooks: the timeout stops waiting and aborts the signal; the handler must honour it.
 * Per event this is the hot path of dispatch, so a handler that returns synchronously gets no
 * timer, and the AbortController is only made when the handler reads `signal`.
 */
import { nowMs } from '../util/clock.js';
import type { ExecutionResult, FunctionHandler } from '../types.js';
import type { Backend } from './types.js';

const TIMED_OUT = Symbol('timed out');

export const functionBackend: Backend = async (hook, payload, ctx) => {
  const handler = hook.handler as FunctionHandler;
  const start = nowMs();
  let controller: AbortController | undefined;
  let abortReason: { reason: unknown } | undefined;
  const abort = (reason: unknown) => {
    if (abortReason) return;
    abortReason = { reason };
    controller?.abort(reason);
  };
  const hookCtx = {
    get signal(): AbortSignal {
      if (!controller) {
        controller = new AbortController();
        if (abortReason) controller.abort(abortReason.reason);
      }
      return controller.signal;
    },
  };
  const onAbort = () => abort(ctx.signal?.reason);
  // A literal, not `{ ...base, status }`: keys added to a spread copy are slow (engine/input.ts, completeInput).
  const result = (status: ExecutionResult['status'], error?: string): ExecutionResult => {
    const r: ExecutionResult = {
      status,
      exitCode: status === 'completed' ? 0 : null,
      stdout: '',
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
      stdinTruncated: false,
      durationMs: nowMs() - start,
    };
    if (error !== undefined) r.error = error;
    return r;
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    if (ctx.signal?.aborted) abort(ctx.signal.reason);
    let value: unknown = handler.fn(payload, hookCtx);
    if (isThenable(value)) {
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), ctx.timeoutMs);
      });
      value = await Promise.race([value, timeout]);
      if (value === TIMED_OUT) {
        abort(new Error('hook timed out'));
        return result('timeout', `function hook timed out after ${ctx.timeoutMs} ms`);
      }
    }
    const done = result('completed');
    done.value = value ?? undefined;
    return done;
  } catch (err) {
    return result('error', `function hook threw: ${(err as Error)?.message ?? String(err)}`);
  } finally {
    if (timer) clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onAbort);
  }
};

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
