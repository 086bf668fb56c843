/**
 * The dispatch wire format of a dialect: decoding the payload an agent sends to
 * `agent-hooks dispatch` and encoding the engine's decision in that agent's convention.
 * Lean like the dialect facts (no zod, no engine): dispatch's no-hooks path answers with `noop`.
 */
import type { EventName } from '../../events/catalog.js';
import type { Decision } from '../../reduce/reduce.js';
import type { DialectName } from '../../dialects/types.js';

/** A payload the agent sent, in canonical form. */
export interface DispatchInput {
  event: EventName;
  nativeEvent: string;
  /** Claude-shaped payload (tool names and tool_input fields canonical). */
  payload: Record<string, unknown>;
  /** The payload as the agent sent it. */
  raw: Record<string, unknown>;
}

/** What `agent-hooks dispatch` prints and exits with. */
export interface DispatchOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** How `agent-hooks dispatch` talks to one agent. */
export interface WireAdapter {
  name: DialectName;
  /** The agent's payload → canonical event and payload; `skip` when the event has no equivalent. */
  decodePayload(raw: Record<string, unknown>, nativeEvent?: string): DispatchInput | { skip: string; nativeEvent?: string };
  /** The engine's decision → what the agent reads (stdout, stderr, exit code). */
  encodeDecision(decision: Decision, input: DispatchInput): DispatchOutput;
  /** What to answer when no hook ran (or the event has no equivalent). */
  noop(nativeEvent?: string): DispatchOutput;
  /**
   * The agent parses stderr as the hook's output when stdout is empty (Gemini CLI and Qwen Code
   * read `stdout.trim() || stderr.trim()`; plain text becomes an allow with a system message).
   * Dispatch then answers `{}` on stdout whenever it prints a note, so a note is never a verdict.
   */
  stderrReadAsOutput?: boolean;
}
