/**
 * A monotonic clock in milliseconds, for durations and deadlines. `performance.now()` would do
 * the same, but its first use loads Node's perf_hooks (about 1 ms of a dispatch's start-up here,
 * docs/performance.md item 10); `process.hrtime` is already there. Readings are only compared
 * with each other, never with wall time.
 */
const origin = process.hrtime.bigint();

/** Milliseconds since this module loaded, with sub-microsecond resolution. */
export function nowMs(): number {
  return Number(process.hrtime.bigint() - origin) / 1e6;
}
