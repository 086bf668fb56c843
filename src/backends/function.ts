/**
 * In-process function hooks: the timeout stops waiting and aborts the signal; the handler must honour it.
 * Per event this is the hot path of dispatch, so a handler that returns synchronously gets no
 * timer and no abort listener, and the AbortController is only made when the handler reads `signal`.
 */
import { nowMs } from '../util/clock.js';
import type { ExecutionResult, FunctionHandler } from '../types.js';
import type { Backend } from './types.js';

const TIMED_OUT = Symbol('timed out');

/**
 * What the handler is given as its second argument: `signal` alone. A class, not an object
 * literal with a getter, which V8 builds slowly on every call; the state is private.
 */
class HookContext {
  #controller: AbortController | undefined;
  #aborted: { reason: unknown } | undefined;

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#aborted.reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the signal (made now or when first read); the first reason stays. */
  static abort(ctx: HookContext, reason: unknown): void {
    if (ctx.#aborted) return;
    ctx.#aborted = { reason };
    ctx.#controller?.abort(reason);
  }
}

export const functionBackend: Backend = async (hook, payload, ctx) => {
  const handler = hook.handler as FunctionHandler;
  const start = nowMs();
  const hookCtx = new HookContext();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    if (ctx.signal?.aborted) HookContext.abort(hookCtx, ctx.signal.reason);
    let value: unknown = handler.fn(payload, hookCtx);
    if (isThenable(value)) {
      onAbort = () => HookContext.abort(hookCtx, ctx.signal?.reason);
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), ctx.timeoutMs);
      });
      value = await Promise.race([value, timeout]);
      if (value === TIMED_OUT) {
        HookContext.abort(hookCtx, new Error('hook timed out'));
        return result('timeout', start, `function hook timed out after ${ctx.timeoutMs} ms`);
      }
    }
    const done = result('completed', start);
    done.value = value ?? undefined;
    return done;
  } catch (err) {
    return result('error', start, `function hook threw: ${(err as Error)?.message ?? String(err)}`);
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) ctx.signal?.removeEventListener('abort', onAbort);
  }
};

/** A literal, not `{ ...base, status }`: keys added to a spread copy are slow (engine/input.ts, completeInput). */
function result(status: ExecutionResult['status'], start: number, error?: string): ExecutionResult {
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
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
