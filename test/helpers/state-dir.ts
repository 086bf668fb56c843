/**
 * The per-session state of `dispatch` (the Stop-block count, `once` hooks: a file per session
 * under $XDG_STATE_HOME/agent-hooks/sessions, src/engine/session-file-store.ts) persists across
 * processes by design, so across test runs too: a test's fixed session id would count the blocks
 * of every earlier run. Each vitest run gets its own state directory (the configs pass it to the
 * workers as XDG_STATE_HOME, and the CLI processes they start inherit it); this global set-up
 * removes it at the end.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** This run's state directory (the main vitest process's pid names it). */
export const TEST_STATE_HOME = join(tmpdir(), `agent-hooks-test-state-${process.pid}`);

export default function setup(): () => void {
  return () => rmSync(TEST_STATE_HOME, { recursive: true, force: true });
}
