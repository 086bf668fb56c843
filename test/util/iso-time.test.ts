import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isoTime } from '../../src/util/iso-time.js';

test('isoTime writes what toISOString writes, over the whole range of dates', () => {
  // ±8.64e15 ms is the range of a Date; the years outside 0000–9999 take toISOString's own path.
  fc.assert(
    fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }),
    { numRuns: 5000 },
  );
  for (const ms of [0, -1, 1, 253402300799999, 253402300800000, -62167219200000, -62167219200001, 8.64e15, -8.64e15, 1.5, -0.5]) {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  }
});

test('isoTime of now is now, and a time that is no date throws as toISOString does', () => {
  const before = Date.now();
  const t = Date.parse(isoTime());
  expect(t).toBeGreaterThanOrEqual(before);
  expect(t).toBeLessThanOrEqual(Date.now());
  for (const bad of [Number.NaN, 8.64e15 + 1, Number.POSITIVE_INFINITY]) {
    expect(() => isoTime(bad)).toThrow(RangeError);
  }
});

test('isoTime keeps the text of one second right for every millisecond, and across seconds either way', () => {
  // The text up to the second is kept between calls: walk forward, backward and around 1970,
  // where a negative time's milliseconds count from the second before.
  const times = [1_765_000_000_000, 1_765_000_000_999, 1_765_000_001_000, 1_764_999_999_999, -1, -1000, -1001, 0, 999, 1000];
  for (let i = 0; i < 2000; i++) times.push(1_765_000_000_000 + ((i * 7919) % 5000) - 2500);
  for (const ms of times) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), { minLength: 2, maxLength: 20 }), (list) => {
      for (const ms of list) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }),
    { numRuns: 500 },
  );
});
