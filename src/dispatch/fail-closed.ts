/**
 * Decisions dispatch makes itself, when no hook answered: none at all, or the one that stops the
 * event's guarded action. Zod-free (event facts and the reducer's failure policy), so the no-hooks
 * check can use them.
 */
import type { EventName } from '../events/facts.js';
import { eventFacts } from '../events/facts.js';
import { policyVerdict, type Decision } from '../reduce/reduce.js';

/** No hook decided anything. */
export function noDecision(event: EventName): Decision {
  return { event, blocked: false, additionalContext: [], systemMessages: [], continue: true, eventOutput: {}, hooks: [], warnings: [] };
}

/**
 * The action does not proceed, with `reason`: the verdict of the deny failure policy
 * (reduce.ts `policyVerdict`), deny on the permission events and block elsewhere. Meant for
 * events that can block; on another the policy gives no verdict and this still says block.
 */
export function stoppingDecision(event: EventName, reason: string): Decision {
  const decision = policyVerdict(eventFacts(event), 'deny') === 'deny' ? 'deny' : 'block';
  return { ...noDecision(event), decision, blocked: true, reason };
}
