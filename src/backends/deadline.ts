/**
 * One AbortSignal for a backend call that ends at the hook's timeout or when the caller
 * aborts, whichever comes first; `timedOut` tells the two apart. Call `dispose()` when done.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  dispose(): void;
}

export function startDeadline(timeoutMs: number, callerSignal?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  const onAbort = () => controller.abort(new Error('cancelled'));
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}
