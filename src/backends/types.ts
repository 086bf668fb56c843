/** What every backend is: the contract between the engine and the code that runs one hook. */
import type { ExecutionResult, NormalizedHook, ServedPin, SessionSnapshot } from '../types.js';

/** A backend runs one hook and normalizes what happened. */
export type Backend = (hook: NormalizedHook, payload: Record<string, unknown>, ctx: BackendContext) => Promise<ExecutionResult>;

export interface BackendContext {
  timeoutMs: number;
  signal?: AbortSignal;
  cwd: string;
  projectDir: string;
  sessionEnv: Record<string, string>;
  envFile?: string;
  stdinLimitBytes: number;
  outputLimitBytes: number;
  /**
   * The bytes the engine verified of a reviewed hook's pinned files, by path (src/trust/verify.ts),
   * when the sandbox serves them (sandbox-view.ts): what runs is what was checked.
   */
  served?: ReadonlyMap<string, ServedPin>;
  /** The session's frozen snapshot, when the host runs sessions (prompt hooks read their model from it). */
  session?: SessionSnapshot;
}
