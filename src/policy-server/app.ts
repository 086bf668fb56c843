/**
 * The policy server's HTTP API (hono):
 *   GET  /healthz           the process is up
 *   GET  /readyz            a config is loaded and the server is not draining (503 otherwise)
 *   POST /v1/decide         canonical event payload in; `{ decision, client, eventId, configVersion }` out
 *   POST /v1/hook           the same, answered as a Claude Code HTTP hook's JSON body (for `type: "http"` hooks)
 * POSTs need `Authorization: Bearer <token>`; `X-Agent-Hooks-Event-Id` (optional) names the event
 * so a retried event keeps its audit ids. Bodies are capped, each client is rate limited, and an
 * event's whole evaluation is bounded by its catalog timeout.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { eventFacts, isEventName, type EventName } from '../events/facts.js';
import { claudeOutput } from '../agents/shared/wire.js';
import { InvalidHookInputError } from '../engine/engine.js';
import { toJson } from '../reduce/json.js';
import type { LiveConfig } from './config.js';
import { authenticate, type ClientEntry } from './tokens.js';
import type { RateLimiter } from './rate-limit.js';

export interface PolicyAppOptions {
  config: LiveConfig;
  /** Where hooks run on the server (the agent's cwd does not exist here). */
  workDir: string;
  clients: () => readonly ClientEntry[];
  limiter: RateLimiter;
  /** Request body cap (bytes, default 1 MiB). */
  maxBodyBytes?: number;
  /** Extra time on top of the event's catalog timeout before the server answers 504 (ms, default 1000). */
  graceMs?: number;
  /**
   * The audit writer: each answer waits (at most `auditWaitMs`, default 2000) until its records
   * are written, so an acknowledged event is recorded even if this instance dies right after.
   * While a sink is failing nobody waits (the answer says `audited: false`).
   */
  auditWriter?: import('../audit/sinks.js').AuditWriter;
  auditWaitMs?: number;
  onWarning?: (message: string) => void;
}

export interface PolicyApp {
  fetch: Hono['fetch'];
  readonly inFlight: number;
  /** Stop taking events (readyz turns 503); resolves when the events already running are answered. */
  drain(): Promise<void>;
}

const EVENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** How long an event may take on the server: its hooks' catalog default (else 60 s), plus grace. */
function eventDeadlineMs(event: EventName, graceMs: number): number {
  const spec = eventFacts(event);
  return (spec.defaultTimeoutSec ?? 60) * 1000 + graceMs;
}

export function createPolicyApp(o: PolicyAppOptions): PolicyApp {
  const app = new Hono();
  const st: Flight = { inFlight: 0, draining: false, idle: [] };
  const graceMs = o.graceMs ?? 1000;

  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/readyz', (c) => {
    const ready = o.config.ready && !st.draining;
    // Audit sink health for operators and load balancers' dashboards: queued, written, dropped.
    return c.json(
      { ready, configVersion: o.config.version, draining: st.draining, inFlight: st.inFlight, audit: o.auditWriter?.stats() ?? [] },
      ready ? 200 : 503,
    );
  });

  const decide = async (c: Context, shape: 'decision' | 'hook') => {
    const admitted = await admit(c, o, st);
    if ('rejected' in admitted) return admitted.rejected;
    return runEvent(c, shape, o, st, graceMs, admitted);
  };

  const limit = bodyLimit({ maxSize: o.maxBodyBytes ?? 1024 * 1024, onError: (c) => c.json({ error: 'request body too large' }, 413) });
  app.post('/v1/decide', limit, (c) => decide(c, 'decision'));
  app.post('/v1/hook', limit, (c) => decide(c, 'hook'));

  return {
    fetch: app.fetch,
    get inFlight() {
      return st.inFlight;
    },
    drain() {
      st.draining = true;
      if (st.inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => st.idle.push(resolve));
    },
  };
}

/** The app's running events: how many, whether it drains, and who waits for the last one. */
interface Flight {
  inFlight: number;
  draining: boolean;
  idle: Array<() => void>;
}

/** An event that passed the checks: who sent it, what it is, under which id. */
interface Admitted {
  client: ClientEntry;
  input: Record<string, unknown>;
  event: EventName;
  eventId: string;
}

/** Authentication, draining, the rate limit, then the payload and its event id: the first failure answers. */
async function admit(c: Context, o: PolicyAppOptions, st: Flight): Promise<Admitted | { rejected: Response }> {
  const client = authenticate(o.clients(), c.req.header('authorization'));
  if (!client) return { rejected: c.json({ error: 'missing or unknown bearer token' }, 401) };
  if (st.draining)
    return { rejected: c.json({ error: 'server is shutting down; retry on another instance' }, 503, { 'retry-after': '1' }) };
  if (!o.limiter.take(client.id, client.ratePerSec))
    return { rejected: c.json({ error: `rate limit for client ${client.id}` }, 429, { 'retry-after': '1' }) };
  let payload: unknown;
  try {
    payload = await c.req.json();
  } catch {
    return { rejected: c.json({ error: 'body is not JSON' }, 400) };
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    return { rejected: c.json({ error: 'body must be a JSON object (the event payload)' }, 400) };
  const input = payload as Record<string, unknown>;
  const event = input.hook_event_name;
  if (typeof event !== 'string' || !isEventName(event))
    return { rejected: c.json({ error: `unknown or missing hook_event_name ${JSON.stringify(event)}` }, 400) };
  const headerId = c.req.header('x-agent-hooks-event-id');
  if (headerId !== undefined && !EVENT_ID.test(headerId))
    return { rejected: c.json({ error: 'X-Agent-Hooks-Event-Id must be 1–128 of A-Z a-z 0-9 . _ : -' }, 400) };
  return { client, input, event, eventId: headerId ?? randomUUID() };
}

/** 96 bits of the payload's SHA-256: a different event under a reused id never shares its audit records. */
function contentDigest(input: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 24);
}

/** Run one admitted event under its deadline on a config lease; 504 when the deadline passes first. */
async function runEvent(
  c: Context,
  shape: 'decision' | 'hook',
  o: PolicyAppOptions,
  st: Flight,
  graceMs: number,
  a: Admitted,
): Promise<Response> {
  const { client, input, event, eventId } = a;
  const lease = o.config.acquire();
  if (!lease) return c.json({ error: 'no config loaded' }, 503);
  st.inFlight++;
  const signal = AbortSignal.timeout(eventDeadlineMs(event, graceMs));
  try {
    const run = lease.engine.run(event, input, {
      signal,
      client: client.id,
      // Namespaced by client: one client's ids can never collide with another's in the audit; and
      // by content: a retry of the same event keeps its audit ids (written once), while an id
      // reused for another event gets its own records instead of hiding behind the first's.
      firingId: `${client.id}:${eventId}:${contentDigest(input)}`,
      ...(typeof input.cwd === 'string' && input.cwd ? { project: input.cwd } : {}),
      // Hooks run in the server's directory, not the agent's (which does not exist here).
      cwd: o.workDir,
    });
    const timedOut = new Promise<'timeout'>((resolve) => signal.addEventListener('abort', () => resolve('timeout'), { once: true }));
    const decision = await Promise.race([run, timedOut]);
    if (decision === 'timeout') {
      void run.catch(() => {});
      return c.json({ error: `${event} took longer than its ${eventDeadlineMs(event, 0) / 1000} s timeout`, eventId }, 504);
    }
    const audited = o.auditWriter ? await o.auditWriter.settled(o.auditWaitMs ?? 2000) : false;
    if (shape === 'hook')
      return c.json(claudeOutput(decision, { toolName: typeof input.tool_name === 'string' ? input.tool_name : undefined }) ?? {});
    return c.json({ decision: toJson(decision), client: client.id, eventId, configVersion: lease.version, audited });
  } catch (err) {
    if (err instanceof InvalidHookInputError) return c.json({ error: err.message }, 400);
    o.onWarning?.(`event ${eventId}: ${(err as Error)?.message ?? String(err)}`);
    return c.json({ error: 'internal error', eventId }, 500);
  } finally {
    lease.release();
    st.inFlight--;
    if (st.inFlight === 0) {
      const w = st.idle;
      st.idle = [];
      for (const f of w) f();
    }
  }
}
