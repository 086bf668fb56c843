/**
 * Fixture files for `agent-hooks test`: YAML or JSON, one file holds many cases.
 *
 *   defaults:            # optional; any config field below, shared by every case
 *     settings: ../settings.json
 *     cwd: ..
 *   cases:
 *     - name: denies rm -rf
 *       event: PreToolUse
 *       payload: { tool_name: Bash, tool_input: { command: rm -rf / } }
 *       expect: { blocked: true, decision: deny, reason: /rm -rf/ }
 *
 * Validation is strict: an unknown key is an error naming its path and the nearest valid key
 * (`x.yaml: cases[2].expect.decison: unknown key "decison" (did you mean "decision"?)`); inline
 * hooks are validated like a settings file; payloads are validated against the event's input
 * schema with the common fields filled. Any error rejects the whole file (none of its cases run).
 */
import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { formatPath, issuesToDiagnostics, parseJson } from '../config/diagnostics.js';
import { closest } from '../util/did-you-mean.js';
import { describeIssue, listElementProblem } from './fixture-issues.js';
import { hooksObjectSchema } from '../config/schema.js';
import { EVENT_NAMES, inputSchema, isEventName, type EventName } from '../events/catalog.js';
import { parseTextMatcher } from './text-matcher.js';

const HOOK_OUTCOMES = ['success', 'blocking', 'non_blocking_error', 'timeout', 'error'] as const;
const DECISIONS = ['allow', 'deny', 'ask', 'defer', 'block'] as const;

const text = z.string();
const textList = z.union([text, z.array(text)]);
const pathList = z.union([z.string(), z.array(z.string())]);

const hookExpectSchema = z.strictObject({
  id: text.optional(),
  type: z.string().optional(),
  outcome: z.enum(HOOK_OUTCOMES).optional(),
  decision: z.enum(DECISIONS).nullable().optional(),
  reason: text.nullable().optional(),
  exitCode: z.number().int().nullable().optional(),
  error: text.nullable().optional(),
});

/** Any subset of the `run --json` fields, plus the case's duration bound. */
const expectSchema = z.strictObject({
  blocked: z.boolean().optional(),
  /** null: no hook decided. */
  decision: z.enum(DECISIONS).nullable().optional(),
  /** Substring, or /regex/flags; null: no reason. */
  reason: text.nullable().optional(),
  /** Exact; null: no rewrite. */
  updatedInput: z.record(z.string(), z.unknown()).nullable().optional(),
  /** Exact; null: no replaced tool output. */
  updatedOutput: z.unknown().optional(),
  /** Each matcher matches some entry; [] = none. */
  additionalContext: textList.optional(),
  systemMessages: textList.optional(),
  continue: z.boolean().optional(),
  stopReason: text.nullable().optional(),
  /** Listed keys only, each exact. */
  eventOutput: z.record(z.string(), z.unknown()).optional(),
  /** One entry per executed hook, in order; listed fields only. */
  hooks: z.array(hookExpectSchema).optional(),
  /** Each matcher matches some warning; [] = none. */
  warnings: textList.optional(),
  maxDurationMs: z.number().positive().optional(),
});
export type Expectation = z.infer<typeof expectSchema>;

const configShape = {
  /** An inline settings `hooks` object. */
  hooks: z.record(z.string(), z.unknown()).optional(),
  /** Settings files, relative to the fixture file. */
  settings: pathList.optional(),
  /** Plugin directories, relative to the fixture file. */
  plugins: pathList.optional(),
  /** Working and project directory (CLAUDE_PROJECT_DIR), relative to the fixture file; default its directory. */
  cwd: z.string().optional(),
  /** The session environment command hooks see (on top of the minimal one). */
  env: z.record(z.string(), z.string()).optional(),
  permissionMode: z.string().optional(),
};

const caseSchema = z.strictObject({
  name: z.string().min(1),
  event: z.string().min(1),
  payload: z.record(z.string(), z.unknown()).optional(),
  ...configShape,
  /** true or a reason: reported as skipped, not run. */
  skip: z.union([z.boolean(), z.string()]).optional(),
  expect: expectSchema.optional(),
});

const fixtureFileSchema = z.strictObject({
  defaults: z.strictObject(configShape).optional(),
  cases: z.array(caseSchema),
});
type RawFixture = z.infer<typeof fixtureFileSchema>;
type RawCase = RawFixture['cases'][number];
/** Cases are validated one by one, so one bad case does not hide the problems of the others. */
const fileShapeSchema = z.strictObject({ defaults: fixtureFileSchema.shape.defaults, cases: z.array(z.unknown()) });

export interface FixtureCase {
  /** Position in the file's `cases` array. */
  index: number;
  name: string;
  event: EventName;
  payload: Record<string, unknown>;
  /** Inline hooks and where they were written (`cases[2].hooks` or `defaults.hooks`). */
  hooks?: { value: Record<string, unknown>; at: string };
  /** Absolute paths. */
  settings: string[];
  plugins: string[];
  cwd: string;
  env: Record<string, string>;
  permissionMode?: string;
  skip?: string;
  expect?: Expectation;
}

export interface Fixture {
  file: string;
  format: 'yaml' | 'json';
  text: string;
  cases: FixtureCase[];
}

export interface FixtureError {
  file: string;
  path: string;
  message: string;
}

export function fixtureFormat(file: string): 'yaml' | 'json' | undefined {
  const ext = extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.json') return 'json';
  return undefined;
}

/** Parse the text of a fixture file (YAML or JSON) into plain data. */
function parseFixtureText(text: string, format: 'yaml' | 'json'): { ok: true; value: unknown } | { ok: false; message: string } {
  if (format === 'json') return parseJson(text);
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const pos = e.linePos?.[0];
    const msg = e.message.split('\n', 1)[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return { ok: false, message: `invalid YAML${pos ? ` at ${pos.line}:${pos.col}` : ''}: ${msg}` };
  }
  return { ok: true, value: doc.toJS({ maxAliasCount: 1000 }) };
}

export async function loadFixture(file: string): Promise<{ fixture?: Fixture; errors: FixtureError[] }> {
  const format = fixtureFormat(file);
  if (!format) return { errors: [{ file, path: '(root)', message: 'not a fixture file (expected .yaml, .yml or .json)' }] };
  let textContent: string;
  try {
    textContent = await readFile(file, 'utf8');
  } catch (err) {
    return { errors: [{ file, path: '(root)', message: `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` }] };
  }
  return parseFixture(file, textContent);
}

/** Validate a fixture's text; `file` resolves relative paths and labels errors. */
export function parseFixture(file: string, textContent: string): { fixture?: Fixture; errors: FixtureError[] } {
  const format = fixtureFormat(file) ?? 'yaml';
  const parsed = parseFixtureText(textContent, format);
  if (!parsed.ok) return { errors: [{ file, path: '(root)', message: parsed.message }] };
  const p: FixtureParse = { file, raw: parsed.value ?? {}, errors: [], base: dirname(resolve(file)), seen: new Map() };
  const top = fileShapeSchema.safeParse(p.raw);
  if (!top.success) {
    reportIssues(p, top.error.issues, []);
    return { errors: p.errors };
  }
  const defaults = top.data.defaults ?? {};
  if (defaults.hooks) checkHooks(defaults.hooks, ['defaults', 'hooks'], file, p.errors);

  const cases: FixtureCase[] = [];
  top.data.cases.forEach((rawCase, i) => {
    const fc = parseCase(p, rawCase, i, defaults);
    if (fc) cases.push(fc);
  });
  if (p.errors.length > 0) return { errors: p.errors };
  return { fixture: { file, format, text: textContent, cases }, errors: p.errors };
}

/** One file's parse: where errors go, the raw data they point into, case names seen so far. */
interface FixtureParse {
  file: string;
  raw: unknown;
  errors: FixtureError[];
  /** The fixture's directory: relative paths resolve against it. */
  base: string;
  seen: Map<string, number>;
}

function fail(p: FixtureParse, path: readonly PropertyKey[], message: string): void {
  p.errors.push({ file: p.file, path: formatPath(path), message });
}

function reportIssues(p: FixtureParse, issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): void {
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const keys = keysAt(path);
      for (const k of issue.keys) {
        const hint = closest(k, keys);
        fail(p, [...path, k], `unknown key${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`);
      }
    } else if (issue.code === 'invalid_union' && listElementProblem(p.raw, path)) {
      // A list with a non-string item: name the item (`additionalContext[0]`), not the list.
      const { index, message } = listElementProblem(p.raw, path)!;
      fail(p, [...path, index], message);
    } else fail(p, path, describeIssue({ ...issue, path } as z.core.$ZodIssue, p.raw));
  }
}

/** One case: its shape, a unique name, a known event, its hooks and matchers, then its completed payload. */
function parseCase(p: FixtureParse, rawCase: unknown, i: number, defaults: NonNullable<RawFixture['defaults']>): FixtureCase | undefined {
  const at = (...path: PropertyKey[]) => ['cases', i, ...path];
  const parsedCase = caseSchema.safeParse(rawCase);
  if (!parsedCase.success) {
    reportIssues(p, parsedCase.error.issues, at());
    return undefined;
  }
  const c = parsedCase.data;
  const prev = p.seen.get(c.name);
  if (prev !== undefined) fail(p, at('name'), `duplicate case name ${JSON.stringify(c.name)} (also cases[${prev}])`);
  else p.seen.set(c.name, i);

  if (!isEventName(c.event)) {
    const hint = closest(c.event, EVENT_NAMES);
    fail(p, at('event'), `unknown event ${JSON.stringify(c.event)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`);
    return undefined;
  }
  if (c.hooks) checkHooks(c.hooks, at('hooks'), p.file, p.errors);
  checkMatchers(c, i, p.file, p.errors);

  const merged = mergeDefaults(c, defaults);
  if (!merged.hooks && merged.settings.length === 0 && merged.plugins.length === 0) {
    fail(p, at(), 'no hooks under test: give "hooks", "settings" or "plugins" (here or in "defaults")');
  }
  const fc: FixtureCase = {
    index: i,
    name: c.name,
    event: c.event,
    payload: c.payload ?? {},
    ...(merged.hooks ? { hooks: { value: merged.hooks, at: c.hooks ? `cases[${i}].hooks` : 'defaults.hooks' } } : {}),
    settings: merged.settings.map((s) => resolve(p.base, s)),
    plugins: merged.plugins.map((pl) => resolve(p.base, pl)),
    cwd: resolve(p.base, merged.cwd ?? '.'),
    env: merged.env,
    ...(merged.permissionMode !== undefined ? { permissionMode: merged.permissionMode } : {}),
    ...(c.skip ? { skip: typeof c.skip === 'string' ? c.skip : 'skipped' } : {}),
    ...(c.expect ? { expect: c.expect } : {}),
  };
  const full = { ...completePayload(fc), hook_execution_id: '', timestamp: '' };
  const check = inputSchema(fc.event).safeParse(full);
  if (!check.success) {
    for (const issue of check.error.issues) fail(p, at('payload', ...issue.path), describeIssue(issue, full));
  }
  return fc;
}

function list(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** Each field of the case replaces the default's; env is merged key by key. */
function mergeDefaults(c: RawCase, d: NonNullable<RawFixture['defaults']>) {
  return {
    hooks: c.hooks ?? d.hooks,
    settings: list(c.settings ?? d.settings),
    plugins: list(c.plugins ?? d.plugins),
    cwd: c.cwd ?? d.cwd,
    env: { ...d.env, ...c.env },
    permissionMode: c.permissionMode ?? d.permissionMode,
  };
}

/** The payload as the runner sends it: the common fields filled like `agent-hooks run` does. */
export function completePayload(c: FixtureCase): Record<string, unknown> {
  const p: Record<string, unknown> = { ...c.payload };
  p.session_id ??= 'agent-hooks-test';
  p.transcript_path ??= '';
  p.cwd ??= c.cwd;
  p.hook_event_name = c.event;
  if (c.permissionMode !== undefined) p.permission_mode = c.permissionMode;
  else p.permission_mode ??= 'default';
  return p;
}

function checkHooks(hooks: Record<string, unknown>, at: PropertyKey[], file: string, errors: FixtureError[]): void {
  const r = hooksObjectSchema().safeParse(hooks);
  if (r.success) return;
  // The config loader's messages ("unknown key ... (did you mean ...)"), re-rooted at the case.
  for (const d of issuesToDiagnostics(r.error.issues, hooks, file, 'hooks', at)) {
    errors.push({ file, path: d.path, message: d.message });
  }
}

/** Every /regex/ in the expectation must compile. */
function checkMatchers(c: RawCase, i: number, file: string, errors: FixtureError[]): void {
  const e = c.expect;
  if (!e) return;
  const check = (value: unknown, path: PropertyKey[]) => {
    if (typeof value !== 'string') return;
    const m = parseTextMatcher(value);
    if (m.kind === 'invalid') errors.push({ file, path: formatPath(['cases', i, 'expect', ...path]), message: m.error });
  };
  const checkList = (value: unknown, key: string) => {
    if (Array.isArray(value))
      value.forEach((v, j) => {
        check(v, [key, j]);
      });
    else check(value, [key]);
  };
  check(e.reason, ['reason']);
  check(e.stopReason, ['stopReason']);
  checkList(e.additionalContext, 'additionalContext');
  checkList(e.systemMessages, 'systemMessages');
  checkList(e.warnings, 'warnings');
  e.hooks?.forEach((h, j) => {
    for (const k of ['id', 'reason', 'error'] as const) check(h[k], ['hooks', j, k]);
  });
}

// --- zod issues → readable, path-qualified messages ---------------------------------------

type AnySchema = z.ZodType & {
  def: { type: string; innerType?: z.ZodType; element?: z.ZodType; options?: z.ZodType[] };
  shape?: Record<string, z.ZodType>;
};

/** The object keys the fixture schema allows at a path (for "did you mean" hints). */
function keysAt(path: readonly PropertyKey[]): string[] {
  let s = fixtureFileSchema as unknown as AnySchema;
  const unwrap = (x: AnySchema, want: 'array' | 'object'): AnySchema | undefined => {
    for (let guard = 0; guard < 8; guard++) {
      const t = x.def.type;
      if (t === want) return x;
      if ((t === 'optional' || t === 'nullable') && x.def.innerType) x = x.def.innerType as AnySchema;
      else if (t === 'union') {
        const hit = (x.def.options ?? []).find((o) => (o as AnySchema).def.type === want);
        if (!hit) return undefined;
        x = hit as AnySchema;
      } else return undefined;
    }
    return undefined;
  };
  for (const seg of path) {
    if (typeof seg === 'number') {
      const arr = unwrap(s, 'array');
      if (!arr?.def.element) return [];
      s = arr.def.element as AnySchema;
    } else {
      const obj = unwrap(s, 'object');
      const next = obj?.shape?.[String(seg)];
      if (!next) return [];
      s = next as AnySchema;
    }
  }
  const obj = unwrap(s, 'object');
  return obj?.shape ? Object.keys(obj.shape) : [];
}
