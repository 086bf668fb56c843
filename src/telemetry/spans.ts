/**
 * OpenTelemetry through @opentelemetry/api only: an embedding agent's own SDK (its global tracer
 * and meter providers) receives these; the CLI, dispatch and the policy server register an OTLP
 * SDK of their own when asked (src/telemetry/exporter.ts). Loaded only when telemetry is on.
 *
 * Names: span `agent_hooks.event` per firing, child `agent_hooks.hook` per hook execution;
 * metrics `agent_hooks.hook.calls` (by outcome), `agent_hooks.hook.duration` (ms histogram),
 * `agent_hooks.decisions` (by kind), `agent_hooks.audit.dropped` (records, by sink).
 */
import { context, metrics, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { decisionKind, decisionOutcome, type FiringContext } from '../audit/record.js';
import type { Decision, HookRecord } from '../reduce/reduce.js';

const SCOPE = 'agent-hooks';

let instruments: ReturnType<typeof makeInstruments> | undefined;
function makeInstruments() {
  const meter = metrics.getMeter(SCOPE);
  return {
    hookCalls: meter.createCounter('agent_hooks.hook.calls', { description: 'Hook executions, by outcome' }),
    hookDuration: meter.createHistogram('agent_hooks.hook.duration', { description: 'Hook execution time', unit: 'ms' }),
    decisions: meter.createCounter('agent_hooks.decisions', { description: 'Event decisions, by kind' }),
    dropped: meter.createCounter('agent_hooks.audit.dropped', {
      description: 'Audit records dropped because a sink was down and its buffer full',
    }),
  };
}
// Instruments are made on first use, after the host (or exporter.ts) registered its meter provider.
const inst = () => (instruments ??= makeInstruments());

export interface FiringSpan {
  span: Span;
  ctx: Context;
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export function startFiring(f: FiringContext): FiringSpan {
  const attributes: Attributes = {
    'agent_hooks.event': f.event,
    'agent_hooks.session_id': f.sessionId,
    'agent_hooks.project': f.project,
    'agent_hooks.client': f.client,
    'agent_hooks.firing_id': f.firingId,
  };
  if (f.toolName !== undefined) attributes['agent_hooks.tool_name'] = f.toolName;
  const span = trace.getTracer(SCOPE).startSpan('agent_hooks.event', { attributes });
  const ctx = trace.setSpan(context.active(), span);
  return { span, ctx, run: (fn) => context.with(ctx, fn) };
}

export function recordHook(parent: FiringSpan | undefined, f: FiringContext, record: HookRecord): void {
  const attributes: Attributes = {
    'agent_hooks.event': f.event,
    'agent_hooks.hook.id': record.id,
    'agent_hooks.hook.type': record.type,
    'agent_hooks.hook.source': record.source.kind,
    'agent_hooks.hook.path': record.source.path,
    'agent_hooks.outcome': record.outcome,
    'agent_hooks.duration_ms': record.durationMs,
  };
  if (record.source.file) attributes['agent_hooks.hook.file'] = record.source.file;
  if (record.source.pluginName) attributes['agent_hooks.hook.plugin'] = record.source.pluginName;
  if (record.matcher !== undefined) attributes['agent_hooks.matcher'] = record.matcher;
  if (record.exitCode !== null) attributes['agent_hooks.exit_code'] = record.exitCode;
  if (record.decision) attributes['agent_hooks.decision'] = record.decision;
  // The hook has finished when the engine learns of it: its span is drawn back from now.
  const end = Date.now();
  const span = trace
    .getTracer(SCOPE)
    .startSpan('agent_hooks.hook', { attributes, startTime: end - record.durationMs }, parent?.ctx ?? context.active());
  if (record.outcome === 'error' || record.outcome === 'timeout')
    span.setStatus({ code: SpanStatusCode.ERROR, message: record.error ?? record.outcome });
  span.end(end);
  const i = inst();
  i.hookCalls.add(1, { 'agent_hooks.outcome': record.outcome, 'agent_hooks.event': f.event, 'agent_hooks.hook.type': record.type });
  i.hookDuration.record(record.durationMs, { 'agent_hooks.event': f.event, 'agent_hooks.hook.type': record.type });
}

export function endFiring(
  s: FiringSpan | undefined,
  f: FiringContext,
  decision: Decision | undefined,
  durationMs: number,
  error?: string,
): void {
  const kind = decisionKind(decision);
  if (s) {
    s.span.setAttributes({
      'agent_hooks.decision': kind,
      'agent_hooks.outcome': decisionOutcome(decision),
      'agent_hooks.duration_ms': Math.round(durationMs * 1000) / 1000,
      'agent_hooks.hooks': decision?.hooks.length ?? 0,
    });
    if (error) s.span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    s.span.end();
  }
  inst().decisions.add(1, { 'agent_hooks.decision': kind, 'agent_hooks.event': f.event });
}

export function recordDropped(sink: string, n: number): void {
  inst().dropped.add(n, { 'agent_hooks.sink': sink });
}
