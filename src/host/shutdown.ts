/** The session's heartbeat (SessionHeartbeat), its signal handlers, and end(): the graceful shutdown. */
import { DEFAULT_SESSION_END_BUDGET_MS } from './hook-listeners.js';
import type { RuntimeState } from './session-state.js';

/** SessionHeartbeat every `heartbeatMs` (default 60 000; 0 turns it off); never two ticks at once. */
export function startHeartbeat(st: RuntimeState): void {
  const startedAt = Date.now();
  const heartbeatMs = st.options.heartbeatMs ?? 60_000;
  if (heartbeatMs <= 0) return;
  let beating = false;
  st.heartbeat = setInterval(() => {
    if (beating || st.ended) return;
    beating = true;
    void st.slots.sessionHeartbeat
      .fire({ uptimeMs: Date.now() - startedAt, intervalMs: heartbeatMs, mode: st.permissions.mode, cwd: st.cwd })
      .catch((e) => st.warn(`SessionHeartbeat: ${(e as Error).message}`))
      .finally(() => (beating = false));
  }, heartbeatMs);
  st.heartbeat.unref();
}

/** Graceful shutdown: SessionEnd hooks get their own short budget, then are aborted. */
async function fireSessionEnd(st: RuntimeState, reason: string): Promise<void> {
  const budgetMs = st.options.sessionEndBudgetMs ?? DEFAULT_SESSION_END_BUDGET_MS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    st.slots.sessionEnd.fire({ reason, mode: st.permissions.mode, cwd: st.cwd, signal: controller.signal }),
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error(`SessionEnd budget of ${budgetMs} ms spent`));
        st.warn(`SessionEnd hooks did not finish within ${budgetMs} ms`);
        resolve();
      }, budgetMs);
    }),
  ]).finally(() => clearTimeout(timer));
}

function removeSignalHandlers(st: RuntimeState): void {
  for (const [sig, h] of st.signalHandlers.splice(0)) process.removeListener(sig, h);
}

/** Interrupt the running turn, SessionEnd under its own budget, close MCP, dispose. Idempotent. */
export function endSession(st: RuntimeState, reason = 'other'): Promise<void> {
  st.ending ??= (async () => {
    if (st.heartbeat) clearInterval(st.heartbeat);
    removeSignalHandlers(st);
    st.fileWatcher?.close();
    st.configWatcher?.close();
    if (st.running) {
      st.running.controller.abort('session ending');
      await st.running.done.catch(() => {});
    }
    await fireSessionEnd(st, reason);
    st.ended = true;
    await Promise.allSettled([...st.pendingEvents]);
    await st.mcp?.close().catch((e) => st.warn(`MCP close: ${(e as Error).message}`));
    await st.manager.dispose(st.sessionId);
    if (st.owned) await st.manager.close();
    st.trace({ kind: 'session', text: `session ${st.sessionId} ended (${reason})` });
  })();
  return st.ending;
}

/** End the session on SIGINT/SIGTERM (SessionEnd runs), then exit with 128+signal. */
export function installSignalHandlers(st: RuntimeState): void {
  for (const [sig, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    const h = () => {
      st.trace({ kind: 'session', text: `${sig} received: ending the session` });
      void endSession(st, 'other').finally(() => process.exit(code));
    };
    st.signalHandlers.push([sig, h]);
    process.once(sig, h);
  }
}
