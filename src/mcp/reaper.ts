/**
 * Safety net for hosts that exit without close(): no server outlives us. The transports of
 * live servers are tracked; a process 'exit' handler (installed only while one is live)
 * SIGKILLs their process groups synchronously.
 */
import type { ProcessGroupStdioTransport } from '../backends/stdio-transport.js';

export interface Reaper {
  readonly live: Set<ProcessGroupStdioTransport>;
  track(t: ProcessGroupStdioTransport): void;
  untrack(t: ProcessGroupStdioTransport): void;
}

export function createReaper(): Reaper {
  const live = new Set<ProcessGroupStdioTransport>();
  let hooked = false;
  const killAllSync = () => {
    for (const t of live) {
      if (t.pid === undefined || t.exit) continue;
      try {
        process.kill(process.platform === 'win32' ? t.pid : -t.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  };
  return {
    live,
    track(t) {
      live.add(t);
      if (!hooked) {
        process.on('exit', killAllSync);
        hooked = true;
      }
    },
    untrack(t) {
      live.delete(t);
      if (live.size === 0 && hooked) {
        process.off('exit', killAllSync);
        hooked = false;
      }
    },
  };
}
