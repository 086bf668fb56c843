/** Firing an event in a session: the switches that pass everything through, then the session's engine. */
import { emptyDecision, InvalidHookInputError, type RunContext } from '../engine/engine.js';
import { isEventName, type EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import { live, type ManagerState, type SessionState } from './state.js';

export async function runEvent(
  m: ManagerState,
  s: SessionState,
  event: EventName,
  input: Record<string, unknown>,
  ctx: RunContext = {},
): Promise<Decision> {
  live(s);
  if (!isEventName(event)) throw new InvalidHookInputError(String(event), 'unknown event');
  if (!m.processEnabled || s.snapshot.config.disabled.all || s.paused) return emptyDecision(event);
  // `once` hooks, the Stop-block cap and a patch's per-file views are the engine's (src/engine/firing.ts).
  return s.engine.run(event, input, { sessionId: s.id, session: s.resources, ...ctx });
}
