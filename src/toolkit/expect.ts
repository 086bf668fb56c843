/**
 * Expectations against the `run --json` view of a decision. Each mismatch names the field
 * path and renders expected and actual, so the reporter can print a readable diff.
 *
 * Text fields (reason, stopReason, context, messages, warnings, a hook's reason/error/id) take a
 * matcher: a plain string is a substring; `/pattern/flags` is a regular expression.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Expectation } from './fixture.js';
import { parseTextMatcher } from './text-matcher.js';

export { parseTextMatcher } from './text-matcher.js';

export function matchText(matcher: string, actual: unknown): boolean {
  if (typeof actual !== 'string') return false;
  const m = parseTextMatcher(matcher);
  if (m.kind === 'substring') return actual.includes(m.text);
  if (m.kind === 'regex') return m.re.test(actual);
  return false;
}

/** How a matcher reads in a diff: "containing "x"" or "matching /x/". */
function describeMatcher(matcher: string): string {
  return parseTextMatcher(matcher).kind === 'regex' ? `matching ${matcher}` : `containing ${JSON.stringify(matcher)}`;
}

export interface Mismatch {
  /** Field path inside `expect`, e.g. `decision`, `updatedInput.command`, `hooks[0].outcome`. */
  path: string;
  expected: string;
  actual: string;
}

/** What a case produced: the `run --json` object, its duration and every warning. */
export interface Actual {
  json: Record<string, unknown>;
  durationMs: number;
  warnings: string[];
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const join = (base: string, key: string | number) =>
  typeof key === 'number' ? `${base}[${key}]` : IDENT.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;

/** Path-wise differences between two JSON values (objects and arrays are walked). */
function diffValues(path: string, expected: unknown, actual: unknown, out: Mismatch[]): void {
  if (isDeepStrictEqual(expected, actual)) return;
  const bothObjects =
    typeof expected === 'object' &&
    expected !== null &&
    typeof actual === 'object' &&
    actual !== null &&
    Array.isArray(expected) === Array.isArray(actual);
  if (!bothObjects) {
    out.push({ path, expected: show(expected), actual: show(actual) });
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) {
      out.push({ path, expected: show(expected), actual: show(actual) });
      return;
    }
    expected.forEach((v, i) => {
      diffValues(join(path, i), v, actual[i], out);
    });
    return;
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) diffValues(join(path, key), e[key], a[key], out);
}

function asList(v: string | string[]): string[] {
  return Array.isArray(v) ? v : [v];
}

/** Every matcher must match some entry; an empty list means "no entries". */
function compareList(path: string, expected: string | string[], actual: unknown, out: Mismatch[]): void {
  const entries = Array.isArray(actual) ? actual.map(String) : [];
  const matchers = asList(expected);
  if (matchers.length === 0) {
    if (entries.length > 0) out.push({ path, expected: 'none', actual: show(entries) });
    return;
  }
  matchers.forEach((m, i) => {
    if (!entries.some((e) => matchText(m, e))) {
      out.push({
        path: Array.isArray(expected) ? `${path}[${i}]` : path,
        expected: `an entry ${describeMatcher(m)}`,
        actual: entries.length ? show(entries) : 'none',
      });
    }
  });
}

function compareText(path: string, expected: string | null, actual: unknown, out: Mismatch[]): void {
  if (expected === null) {
    if (actual !== undefined) out.push({ path, expected: '(absent)', actual: show(actual) });
    return;
  }
  if (!matchText(expected, actual)) out.push({ path, expected: `a string ${describeMatcher(expected)}`, actual: show(actual) });
}

function compareExact(path: string, expected: unknown, actual: unknown, out: Mismatch[]): void {
  if (expected === null) {
    if (actual !== undefined && actual !== null) out.push({ path, expected: '(absent)', actual: show(actual) });
    return;
  }
  diffValues(path, expected, actual, out);
}

/** Compare one expectation field; the update logic asks field by field. */
export function compareField(key: keyof Expectation, exp: Expectation, actual: Actual, out: Mismatch[]): void {
  const j = actual.json;
  switch (key) {
    case 'blocked':
    case 'continue':
      if (exp[key] !== undefined && exp[key] !== j[key]) out.push({ path: key, expected: show(exp[key]), actual: show(j[key]) });
      break;
    case 'decision':
      if (exp.decision === undefined) break;
      if ((exp.decision ?? undefined) !== j.decision)
        out.push({
          path: key,
          expected: exp.decision === null ? '(no decision)' : show(exp.decision),
          actual: j.decision === undefined ? '(no decision)' : show(j.decision),
        });
      break;
    case 'reason':
    case 'stopReason':
      if (exp[key] !== undefined) compareText(key, exp[key]!, j[key], out);
      break;
    case 'updatedInput':
    case 'updatedOutput':
      if (exp[key] !== undefined) compareExact(key, exp[key], j[key], out);
      break;
    case 'additionalContext':
    case 'systemMessages':
      if (exp[key] !== undefined) compareList(key, exp[key]!, j[key], out);
      break;
    case 'warnings':
      if (exp.warnings !== undefined) compareList(key, exp.warnings, actual.warnings, out);
      break;
    case 'eventOutput': {
      if (!exp.eventOutput) break;
      const eo = (j.eventOutput ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(exp.eventOutput)) diffValues(join('eventOutput', k), v, eo[k], out);
      break;
    }
    case 'hooks': {
      if (!exp.hooks) break;
      const hooks = Array.isArray(j.hooks) ? (j.hooks as Array<Record<string, unknown>>) : [];
      if (hooks.length !== exp.hooks.length) {
        out.push({
          path: 'hooks',
          expected: `${exp.hooks.length} executed hook(s)`,
          actual: `${hooks.length}${hooks.length ? `: ${hooks.map((h) => `${String(h.outcome)}${h.decision ? `/${String(h.decision)}` : ''}`).join(', ')}` : ''}`,
        });
        break;
      }
      exp.hooks.forEach((h, i) => {
        const a = hooks[i]!;
        const at = `hooks[${i}]`;
        if (h.outcome !== undefined && h.outcome !== a.outcome)
          out.push({ path: `${at}.outcome`, expected: show(h.outcome), actual: show(a.outcome) });
        if (h.type !== undefined && h.type !== a.type) out.push({ path: `${at}.type`, expected: show(h.type), actual: show(a.type) });
        if (h.decision !== undefined && (h.decision ?? undefined) !== a.decision) {
          out.push({
            path: `${at}.decision`,
            expected: h.decision === null ? '(no decision)' : show(h.decision),
            actual: a.decision === undefined ? '(no decision)' : show(a.decision),
          });
        }
        if (h.exitCode !== undefined && h.exitCode !== a.exitCode)
          out.push({ path: `${at}.exitCode`, expected: show(h.exitCode), actual: show(a.exitCode) });
        if (h.id !== undefined) compareText(`${at}.id`, h.id, a.id, out);
        if (h.reason !== undefined) compareText(`${at}.reason`, h.reason, a.reason, out);
        if (h.error !== undefined) compareText(`${at}.error`, h.error, a.error, out);
      });
      break;
    }
    case 'maxDurationMs':
      if (exp.maxDurationMs !== undefined && actual.durationMs > exp.maxDurationMs) {
        out.push({ path: key, expected: `at most ${exp.maxDurationMs} ms`, actual: `${Math.round(actual.durationMs)} ms` });
      }
      break;
  }
}

export function compare(exp: Expectation, actual: Actual): Mismatch[] {
  const out: Mismatch[] = [];
  for (const key of Object.keys(exp) as Array<keyof Expectation>) compareField(key, exp, actual, out);
  return out;
}
