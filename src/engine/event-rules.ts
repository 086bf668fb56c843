/**
 * The per-event rules the engine applies around a firing: the pass-through default, the
 * Stop/SubagentStop block cap (which events are capped, and the plan-mode skip, are facts in
 * src/events/facts.ts).
 */
import type { EventName } from '../events/catalog.js';
import { DEFAULT_CONTINUATION_CAP, eventFacts } from '../events/facts.js';
import type { Decision } from '../reduce/reduce.js';

// The reducer owns the Decision shape; the engine's pass-through default is its empty Decision.
export { emptyDecision } from '../reduce/reduce.js';

/** Consecutive Stop/SubagentStop blocks per event and session, and the cap that lets the agent stop. */
export interface StopCapState {
  readonly cap: number;
  readonly blocks: Map<string, number>;
}

export function createStopCap(cap = DEFAULT_CONTINUATION_CAP): StopCapState {
  return { cap, blocks: new Map() };
}

export function applyStopCap(state: StopCapState, event: EventName, decision: Decision, sessionId: string) {
  if (!eventFacts(event).continuationCap) return;
  const { cap: stopCap, blocks: stopBlocks } = state;
  const key = `${event}\0${sessionId}`;
  if (!decision.blocked) {
    stopBlocks.delete(key);
    return;
  }
  const count = (stopBlocks.get(key) ?? 0) + 1;
  if (count > stopCap) {
    stopBlocks.delete(key);
    decision.blocked = false;
    decision.warnings.push(
      `${event} hooks blocked ${count} consecutive times (cap ${stopCap}); letting the agent stop. Last reason: ${decision.reason ?? '(none)'}`,
    );
    delete decision.decision;
    return;
  }
  stopBlocks.set(key, count);
  if (stopBlocks.size > 10_000) stopBlocks.delete(stopBlocks.keys().next().value as string);
}
