/**
 * Decisions dispatch makes itself, when no hook answered: none at all, or the one that stops the
 * event's guarded action. Zod-free (event facts only), so the no-hooks check can use them.
 */
import type { EventName } from '../events/facts.js';
import { eventFacts } from '../events/facts.js';
import type { Decision } from '../reduce/reduce.js';

/** No hook decided anything. */
export function noDecision(event: EventName): Decision {
  return { event, blocked: false, additionalContext: [], systemMessages: [], continue: true, eventOutput: {}, hooks: [], warnings: [] };
}

/**
 * The action does not proceed, with `reason`: deny on the permission events, block elsewhere — the
 * verdict reduce.ts `policyVerdict(spec, 'deny')` gives on an event that can block, restated from
 * the facts because reduce.ts loads the zod catalog (a test keeps the two equal).
 */
export function stoppingDecision(event: EventName, reason: string): Decision {
  const model = eventFacts(event).decision;
  const decision = model === 'permission' || model === 'permission-request' ? 'deny' : 'block';
  return { ...noDecision(event), decision, blocked: true, reason };
}
