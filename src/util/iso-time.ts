/**
 * Wall-clock times as ISO 8601 UTC text, the form `Date.prototype.toISOString` gives. The first
 * toISOString of a process costs ~1 ms here (V8 sets up its time-zone data on that first call,
 * which a UTC time does not need), and every dispatch stamps its hook's payload and records:
 * the UTC fields give the same text without it. test/util/iso-time.test.ts compares the two over
 * the whole range of dates.
 */

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The text up to the milliseconds (`2026-12-06T00:07:41.`) of the second last written. */
let second = Number.NaN;
let secondText = '';

/**
 * `new Date(ms).toISOString()`, now when no time is given; throws the same RangeError for a time
 * that is not a date. The text up to the second is kept, since a host stamps many payloads and
 * records within one second.
 */
export function isoTime(ms: number = Date.now()): string {
  // As the Date constructor reads a time: fractions cut toward zero.
  const t = Math.trunc(ms);
  const s = Math.floor(t / 1000);
  if (s !== second) {
    const d = new Date(t);
    const year = d.getUTCFullYear();
    // Years outside 0000–9999 are written with a sign and six digits, and an invalid date throws:
    // both are left to toISOString itself.
    if (!(year >= 0 && year <= 9999)) return d.toISOString();
    secondText =
      `${pad(year, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}` +
      `T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.`;
    second = s;
  }
  const milli = t - s * 1000;
  return `${secondText}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
