import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CYCLE_MARKER,
  DEPTH_MARKER,
  encodeHookPayload,
  encodePayload,
  JUDGED_LIMIT_BYTES,
  STDIN_LIMIT_BYTES,
} from '../../src/backends/payload.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const MARKER = /…\[truncated by agent-hooks: (\d+) bytes omitted\]$/;
/** A lone surrogate would be invalid UTF-8 on the wire. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('encodePayload', () => {
  it('passes small payloads through unchanged', () => {
    const payload = { hook_event_name: 'Stop', n: 1, list: [true, null, 'x'] };
    expect(encodePayload(payload)).toEqual({ text: JSON.stringify(payload), truncated: false });
  });

  it('defaults to a 100 KiB cap', () => {
    expect(STDIN_LIMIT_BYTES).toBe(100 * 1024);
    const r = encodePayload({ tool_response: { output: 'x'.repeat(200 * 1024) } });
    expect(r.truncated).toBe(true);
    expect(bytes(r.text)).toBeLessThanOrEqual(100 * 1024);
  });

  it('shortens the long string under the cap, keeps valid JSON, the other fields and a marker', () => {
    const output = 'line of output\n'.repeat(50_000);
    const payload = { session_id: 's1', hook_event_name: 'PostToolUse', tool_response: { output }, small: 'keep me' };
    const r = encodePayload(payload, 10_000);
    expect(r.truncated).toBe(true);
    expect(bytes(r.text)).toBeLessThanOrEqual(10_000);
    expect(bytes(r.text)).toBeGreaterThan(9_000); // uses the room it has
    const parsed = JSON.parse(r.text);
    expect(parsed).toMatchObject({ session_id: 's1', hook_event_name: 'PostToolUse', small: 'keep me' });
    const cut: string = parsed.tool_response.output;
    expect(output.startsWith(cut.replace(MARKER, ''))).toBe(true);
    const omitted = Number(MARKER.exec(cut)![1]);
    expect(omitted).toBe(bytes(output) - bytes(cut.replace(MARKER, '')));
  });

  it('shortens the longest strings first, to a common length, deterministically', () => {
    const payload = { a: 'a'.repeat(40_000), b: 'b'.repeat(20_000), c: 'c'.repeat(500) };
    const r = encodePayload(payload, 8_000);
    expect(encodePayload(payload, 8_000)).toEqual(r);
    const parsed = JSON.parse(r.text);
    expect(parsed.c).toBe(payload.c);
    const keptA = parsed.a.replace(MARKER, '');
    const keptB = parsed.b.replace(MARKER, '');
    expect(keptA.length).toBe(keptB.length);
    expect(keptA.length).toBeGreaterThan(500);
  });

  it('never splits a surrogate pair or emits invalid UTF-8', () => {
    const r = encodePayload({ text: '😀'.repeat(30_000), more: 'é'.repeat(10_000) }, 5_000);
    expect(r.truncated).toBe(true);
    expect(bytes(r.text)).toBeLessThanOrEqual(5_000);
    expect(LONE_SURROGATE.test(JSON.parse(r.text).text)).toBe(false);
  });

  it('counts escaped characters at their encoded size', () => {
    const r = encodePayload({ s: '"\n\u0001'.repeat(20_000) }, 3_000);
    expect(bytes(r.text)).toBeLessThanOrEqual(3_000);
    JSON.parse(r.text);
  });

  it('handles a top-level string', () => {
    const r = encodePayload('z'.repeat(5_000), 1_000);
    expect(bytes(r.text)).toBeLessThanOrEqual(1_000);
    expect(JSON.parse(r.text)).toMatch(MARKER);
  });

  it('best effort when strings cannot make it fit: valid JSON, truncated, no throw', () => {
    const payload = { numbers: Array.from({ length: 50_000 }, (_, i) => i), note: 'n'.repeat(2_000) };
    const r = encodePayload(payload, 1_000);
    expect(r.truncated).toBe(true);
    const parsed = JSON.parse(r.text);
    expect(parsed.numbers).toHaveLength(50_000);
    expect(parsed.note).toMatch(MARKER);
    expect(bytes(r.text)).toBeLessThan(bytes(JSON.stringify(payload)));
  });

  it('marks cycles instead of throwing or overflowing the stack', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    a.list = [a, { back: a }];
    const r = encodePayload(a);
    expect(r.truncated).toBe(false);
    expect(JSON.parse(r.text)).toEqual({ name: 'a', self: CYCLE_MARKER, list: [CYCLE_MARKER, { back: CYCLE_MARKER }] });
  });

  it('keeps shared (non-cyclic) references, as JSON.stringify does', () => {
    const shared = { v: 1 };
    const a = { x: shared, y: shared, self: undefined as unknown };
    a.self = a;
    expect(JSON.parse(encodePayload(a).text)).toEqual({ x: { v: 1 }, y: { v: 1 }, self: CYCLE_MARKER });
  });

  it('survives nesting deeper than the stack, BigInt, toJSON, undefined and non-finite numbers', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const r = encodePayload({
      deep,
      big: 12345678901234567890n,
      when: new Date(0),
      gone: undefined,
      fn: () => 1,
      nan: NaN,
      arr: [undefined, Infinity],
    });
    const parsed = JSON.parse(r.text);
    expect(parsed.big).toBe('12345678901234567890');
    expect(parsed.when).toBe('1970-01-01T00:00:00.000Z');
    expect('gone' in parsed).toBe(false);
    expect('fn' in parsed).toBe(false);
    expect(parsed.nan).toBeNull();
    expect(parsed.arr).toEqual([null, null]);
    expect(r.text).toContain(DEPTH_MARKER);
  });

  it('keeps a "__proto__" key from JSON as data', () => {
    const payload = JSON.parse(`{"__proto__": {"x": "${'p'.repeat(3_000)}"}, "n": 1}`);
    const r = encodePayload(payload, 1_000);
    const parsed = JSON.parse(r.text);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'n']);
    expect(bytes(r.text)).toBeLessThanOrEqual(1_000);
  });

  it('property: always valid JSON; unchanged when it fits; under the cap when long strings allow it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 200, max: 5_000 }), (value, limit) => {
        const r = encodePayload(value, limit);
        JSON.parse(r.text);
        const full = JSON.stringify(value);
        if (bytes(full) <= limit) expect(r).toEqual({ text: full, truncated: false });
        else expect(r.truncated).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4_000 }), { maxKeys: 8 }),
        fc.integer({ min: 1_000, max: 4_000 }),
        (value, limit) => {
          const r = encodePayload(value, limit);
          expect(bytes(r.text)).toBeLessThanOrEqual(limit);
          expect(Object.keys(JSON.parse(r.text))).toEqual(Object.keys(value));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('encodeHookPayload: what a hook judges is never shortened', () => {
  it('shortens only the tool output (tool_response) to fit, with the marker; the judged fields stay whole', () => {
    const command = `echo ${'A'.repeat(3_000)} ; rm -rf build`;
    const output = 'o'.repeat(50_000);
    const r = encodeHookPayload({ tool_input: { command }, tool_response: { stdout: output } }, 10_000);
    expect(r.truncated).toBe(true);
    expect(r.refused).toBeUndefined();
    expect(bytes(r.text)).toBeLessThanOrEqual(10_000);
    const parsed = JSON.parse(r.text);
    expect(parsed.tool_input.command).toBe(command);
    expect(parsed.tool_response.stdout).toMatch(MARKER);
  });

  it('each agent’s name for a tool output is capped (tool_output, tool_result, output, result_json)', () => {
    for (const key of ['tool_output', 'tool_result', 'output', 'result_json']) {
      const r = encodeHookPayload({ command: 'ls', [key]: 'x'.repeat(20_000) }, 2_000);
      expect(JSON.parse(r.text)[key]).toMatch(MARKER);
    }
  });

  it('a judged field over the cap is passed whole, past the cap, and not marked shortened', () => {
    const command = `echo ${'A'.repeat(110 * 1024)} ; rm -rf build`;
    const r = encodeHookPayload({ tool_input: { command }, prompt: 'p'.repeat(200) });
    expect(r.truncated).toBe(false);
    expect(JSON.parse(r.text).tool_input.command).toBe(command);
    expect(bytes(r.text)).toBeGreaterThan(STDIN_LIMIT_BYTES);
  });

  it(`past ${JUDGED_LIMIT_BYTES} bytes of judged input it is refused, never cut`, () => {
    const r = encodeHookPayload({ tool_input: { content: 'c'.repeat(JUDGED_LIMIT_BYTES + 1) }, tool_response: 'r'.repeat(1_000) });
    expect(r.text).toBe('');
    expect(r.refused).toMatch(/never shortened: it cannot be given to the hook whole/);
  });

  it('a cap larger than the judged ceiling raises it', () => {
    const big = 'c'.repeat(JUDGED_LIMIT_BYTES + 10);
    expect(encodeHookPayload({ content: big }, JUDGED_LIMIT_BYTES + 100).refused).toBeUndefined();
  });
});
