/**
 * Telemetry off is a no-op, shown without timing: the engine's run() is the unwrapped function,
 * and the global OpenTelemetry tracer and meter providers (spies registered through
 * @opentelemetry/api, where an embedding agent's SDK would be) are never asked for anything.
 * The same spies do see the engine once telemetry is on, so they can tell.
 */
import {
  createNoopMeter,
  INVALID_SPAN_CONTEXT,
  metrics,
  trace,
  type Meter,
  type MeterProvider,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/engine/engine.js';
import { observeRun, type RunFiring } from '../../src/telemetry/observe.js';

const calls: string[] = [];
// Spies that delegate to the API's own no-op tracer and meter, recording every request.

beforeAll(() => {
  // Non-recording stand-ins (the API's proxies would call back into the providers below).
  const realTracer: Tracer = {
    startSpan: () => trace.wrapSpanContext(INVALID_SPAN_CONTEXT),
    startActiveSpan: ((_n: string, ...rest: unknown[]) =>
      (rest[rest.length - 1] as (s: unknown) => unknown)(trace.wrapSpanContext(INVALID_SPAN_CONTEXT))) as Tracer['startActiveSpan'],
  };
  const realMeter = createNoopMeter();
  const tracerProvider: TracerProvider = {
    getTracer: (name) => {
      calls.push(`getTracer ${name}`);
      return new Proxy(realTracer, {
        get: (t, k) => {
          calls.push(`tracer.${String(k)}`);
          return Reflect.get(t, k) as unknown;
        },
      }) as Tracer;
    },
  };
  const meterProvider: MeterProvider = {
    getMeter: (name) => {
      calls.push(`getMeter ${name}`);
      return new Proxy(realMeter, {
        get: (m, k) => {
          calls.push(`meter.${String(k)}`);
          return Reflect.get(m, k) as unknown;
        },
      }) as Meter;
    },
  };
  expect(trace.setGlobalTracerProvider(tracerProvider)).toBeTruthy();
  expect(metrics.setGlobalMeterProvider(meterProvider)).toBe(true);
});
afterAll(() => {
  trace.disable();
  metrics.disable();
});

const input = {
  session_id: 's',
  hook_event_name: 'PreToolUse',
  cwd: '/p',
  transcript_path: '',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
};

describe('telemetry off', () => {
  it('observeRun hands back the very function it was given (nothing wraps a firing)', () => {
    const run: RunFiring<Record<string, never>> = async () => ({ blocked: false }) as never;
    const saved = process.env.AGENT_HOOKS_ENABLE_TELEMETRY;
    delete process.env.AGENT_HOOKS_ENABLE_TELEMETRY;
    try {
      expect(observeRun(run, { projectDir: '/p' })).toBe(run);
      expect(observeRun(run, { projectDir: '/p', telemetry: false })).toBe(run);
      expect(observeRun(run, { projectDir: '/p', telemetry: true })).not.toBe(run);
    } finally {
      if (saved !== undefined) process.env.AGENT_HOOKS_ENABLE_TELEMETRY = saved;
    }
  });

  it('an engine with telemetry off never touches the global tracer or meter; switched on, it does', async () => {
    calls.length = 0;
    const off = createHookEngine({ projectDir: '/p', telemetry: false });
    off.register({ event: 'PreToolUse', matcher: 'Bash', name: 'one', fn: () => ({}) });
    for (let i = 0; i < 20; i++) expect((await off.run('PreToolUse', input)).hooks).toHaveLength(1);
    await off.close();
    expect(calls).toEqual([]);

    const on = createHookEngine({ projectDir: '/p', telemetry: true });
    on.register({ event: 'PreToolUse', matcher: 'Bash', name: 'one', fn: () => ({}) });
    await on.run('PreToolUse', input);
    await on.close();
    expect(calls).toContain('getTracer agent-hooks');
    expect(calls).toContain('getMeter agent-hooks');
    expect(calls).toContain('tracer.startSpan');
  });
});
