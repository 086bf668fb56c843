/**
 * `dispatch --remote URL`: the decision comes from the team's policy server instead of local
 * hooks. The agent's payload is decoded as usual, posted to URL/v1/decide with the client token
 * (AGENT_HOOKS_REMOTE_TOKEN), and the answer encoded in the agent's convention. One event id is
 * kept across retries, so the server audits a retried event once. When the server cannot be
 * reached (or answers 5xx/429 on every try), the local failure policy decides: `deny` (default:
 * never fail open), `ask`, or `ignore`, always with a note on stderr.
 */
import { randomUUID } from '../util/uuid.js';
import { eventFacts, type EventName } from '../events/facts.js';
import { emptyDecision, unjudgedDecision, type Decision } from '../reduce/reduce.js';
import type { DispatchInput, DispatchOutput, WireAdapter } from '../agents/types.js';

type RemoteFailure = 'deny' | 'ask' | 'ignore';

export interface RemoteOptions {
  url: string;
  token?: string;
  onFailure?: RemoteFailure;
  /** Tries in all (default 3), with a short backoff: a load balancer sends a retry to another instance. */
  attempts?: number;
  /** The event's id (default: a new UUID), sent on every try. */
  eventId?: string;
}

/** The decision of the local failure policy when the policy server gave none (reduce.ts `unjudgedDecision`). */
function failureDecision(event: EventName, policy: RemoteFailure, why: string): Decision {
  return unjudgedDecision(event, `policy server unavailable (${why}); local failure policy: ${policy}`, policy);
}

export async function remoteDecision(event: EventName, payload: Record<string, unknown>, o: RemoteOptions): Promise<Decision> {
  const eventId = o.eventId ?? randomUUID();
  const spec = eventFacts(event);
  const deadline = (spec.defaultTimeoutSec ?? 60) * 1000 + 2000;
  const attempts = Math.max(1, o.attempts ?? 3);
  let why = '';
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** i));
    try {
      const res = await fetch(new URL('v1/decide', o.url.endsWith('/') ? o.url : `${o.url}/`), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-agent-hooks-event-id': eventId,
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(deadline),
      });
      const body = (await res.json().catch(() => ({}))) as { decision?: Decision; error?: string };
      if (res.ok && body.decision && typeof body.decision === 'object') {
        const d = { ...emptyDecision(event), ...body.decision, event };
        return d;
      }
      why = `HTTP ${res.status}${body.error ? `: ${body.error}` : ''}`;
      // A client error will not change on retry (bad token, bad payload).
      if (res.status < 500 && res.status !== 429) break;
    } catch (err) {
      why = (err as Error)?.cause instanceof Error ? ((err as Error).cause as Error).message : ((err as Error)?.message ?? String(err));
    }
  }
  return failureDecision(event, o.onFailure ?? 'deny', why);
}

export async function remoteDispatch(wire: WireAdapter, input: DispatchInput, o: RemoteOptions): Promise<DispatchOutput> {
  const decision = await remoteDecision(input.event, input.payload, o);
  const out = wire.encodeDecision(decision, input);
  const notes = decision.warnings.map((w) => `agent-hooks dispatch: ${w}\n`).join('');
  return out.exitCode === 2 ? out : { ...out, stderr: out.stderr + notes };
}
