/**
 * The compiled validators (scripts/gen-validators.mjs) against zod, their source: random values
 * built from each JSON Schema, then mutated (missing fields, wrong types, nulls, extra keys, deep
 * nesting), must get the same accept/reject from both. A compiled validator may be narrower
 * only where the generator says so (a `format`, i.e. a URL; a record that is not a plain
 * object): there it rejects and zod decides. It must never accept what zod rejects.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EVENT_NAMES } from '../../src/events/facts.js';
import { inputSchema, outputSchema } from '../../src/events/schemas.js';
import { pluginHooksFileSchema, pluginHooksJsonSchema, settingsFileSchema, settingsJsonSchema } from '../../src/config/schema.js';
import { trustStoreSchema } from '../../src/trust/store-schema.js';

type Json = Record<string, unknown>;
type Validate = ((v: unknown) => boolean) & { errors?: unknown };
interface Gen {
  validatorNames(events: readonly string[]): string[];
  validatorSchemas(a: unknown): Record<string, Json>;
  schemaDigests(s: Record<string, Json>): Record<string, string>;
  createAjv(o: { standalone: boolean }): Promise<{ compile(s: Json): Validate }>;
}

const root = new URL('../../', import.meta.url);
const gen = (await import(new URL('scripts/gen-validators.mjs', root).href)) as Gen;
const schemas = gen.validatorSchemas({
  z,
  eventNames: EVENT_NAMES,
  inputSchema,
  outputSchema,
  settingsJsonSchema,
  pluginHooksJsonSchema,
  trustStoreSchema,
});

function zodOf(name: string): z.ZodType {
  if (name === 'settings') return settingsFileSchema();
  if (name === 'pluginHooks') return pluginHooksFileSchema();
  if (name === 'trustStore') return trustStoreSchema();
  const [kind, event] = name.split('_') as ['input' | 'output', (typeof EVENT_NAMES)[number]];
  return kind === 'input' ? inputSchema(event) : outputSchema(event);
}

// ---- values from a JSON Schema ----------------------------------------------------------------

const key = fc.oneof(
  fc.constantFrom('type', 'hooks', 'matcher', 'command', 'x', '__proto__', 'constructor', ''),
  fc.string({ maxLength: 6 }),
);
const leaf = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    '',
    'command',
    'http',
    'https://example.test/h',
    'http://127.0.0.1:1/',
    'not a url',
    'PreToolUse',
    'block',
    'allow',
    'file',
  ),
  fc.integer({ min: -3, max: 5 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(key, tie('v'), { maxKeys: 3 }),
  ),
})).v;

function fromSchema(s: Json, defs: Record<string, Json>, depth: number): fc.Arbitrary<unknown> {
  if (depth > 16) return anyJson;
  if (typeof s.$ref === 'string') return fromSchema(defs[s.$ref.replace('#/$defs/', '')]!, defs, depth + 1);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.anyOf)) return fc.oneof(...(s.anyOf as Json[]).map((o) => fromSchema(o, defs, depth + 1)));
  if (Array.isArray(s.allOf)) {
    // The handler union: one `if: {type: const}` / `then: $ref` branch per variant.
    const branches = (s.allOf as Json[]).filter((b) => b.then);
    if (branches.length) return fc.oneof(...branches.map((b) => fromSchema(b.then as Json, defs, depth + 1)));
  }
  if ('not' in s) return anyJson;
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((t) => fromSchema({ ...s, type: t }, defs, depth)));
  switch (types[0]) {
    case 'string':
      // A pattern (the trust store's digests): strings of it, and others.
      if (typeof s.pattern === 'string') return fc.oneof(fc.stringMatching(new RegExp(s.pattern)), fc.string({ maxLength: 8 }));
      return typeof s.minLength === 'number' && s.minLength > 0 ? fc.string({ minLength: 1, maxLength: 8 }) : fc.string({ maxLength: 8 });
    case 'integer':
      return fc.integer({ min: typeof s.minimum === 'number' ? s.minimum : -5, max: 3000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: typeof s.minimum === 'number' ? s.minimum : -1e6 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(s.items ? fromSchema(s.items as Json, defs, depth + 1) : anyJson, { maxLength: 2 });
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Json>;
      const required = new Set((s.required ?? []) as string[]);
      if (Object.keys(props).length === 0 && s.propertyNames) {
        const names = (s.propertyNames as Json).enum as string[] | undefined;
        const value = typeof s.additionalProperties === 'object' ? fromSchema(s.additionalProperties as Json, defs, depth + 1) : anyJson;
        return fc.dictionary(names ? fc.constantFrom(...names) : fc.string({ maxLength: 5 }), value, { maxKeys: 2 });
      }
      const entries = Object.entries(props).map(([k, v]) => [k, fromSchema(v, defs, depth + 1)] as const);
      return fc.record(Object.fromEntries(entries), { requiredKeys: [...required].filter((k) => k in props) });
    }
    default:
      return anyJson;
  }
}

// ---- mutations --------------------------------------------------------------------------------

type Mutation = { path: number[]; op: 'delete' | 'replace' | 'extra' | 'nest'; value: unknown; k: string };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.array(fc.nat(), { maxLength: 6 }),
  op: fc.constantFrom('delete', 'replace', 'extra', 'nest'),
  value: fc.oneof(anyJson, fc.constant(null), fc.constant(undefined)),
  k: key,
});

/** Applies a mutation at a node chosen by walking `path` (indexes into each container's keys). */
function mutate(v: unknown, m: Mutation): unknown {
  const copy = structuredClone(v);
  const holder = { root: copy } as Record<string, unknown>;
  let parent: Record<string, unknown> = holder;
  let at = 'root';
  for (const i of m.path) {
    const node = parent[at];
    if (!node || typeof node !== 'object') break;
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    parent = node as Record<string, unknown>;
    at = keys[i % keys.length]!;
  }
  const node = parent[at];
  switch (m.op) {
    case 'delete':
      if (parent === holder) return m.value;
      if (Array.isArray(parent)) parent.splice(Number(at), 1);
      else delete parent[at];
      break;
    case 'replace':
      parent[at] = m.value;
      break;
    case 'extra':
      if (node && typeof node === 'object' && !Array.isArray(node))
        Object.defineProperty(node, m.k, { value: m.value, enumerable: true, writable: true, configurable: true });
      else if (Array.isArray(node)) node.push(m.value);
      else parent[at] = { [m.k]: node };
      break;
    case 'nest': {
      let deep: unknown = node;
      for (let i = 0; i < 40; i++) deep = i % 2 ? [deep] : { [m.k]: deep };
      parent[at] = deep;
      break;
    }
  }
  return holder.root;
}

/**
 * The narrowings of scripts/gen-validators.mjs: a URL field (http hook, OTLP endpoint), a record
 * that is not a plain object, or a key present with the value `undefined` (which JSON text cannot
 * give): ajv's `required` counts it as missing, while zod accepts it for a z.unknown() field.
 */
function inNarrowing(v: unknown): boolean {
  if (!v || typeof v !== 'object') return false;
  if (!Array.isArray(v)) {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return true;
    const o = v as Record<string, unknown>;
    if (o.type === 'http' || 'endpoint' in o) return true;
    if (Object.values(o).includes(undefined)) return true;
  }
  return Object.values(v).some(inNarrowing);
}

// ---- the property -------------------------------------------------------------------------------

const names = gen.validatorNames(EVENT_NAMES);
const compiled = new Map<string, Validate>();
const distDir = new URL('dist/validators/', root);
const requireDist = createRequire(import.meta.url);
const dist = new Map<string, Validate>();

beforeAll(async () => {
  const ajv = await gen.createAjv({ standalone: false });
  for (const n of names) compiled.set(n, ajv.compile(schemas[n]!));
  if (existsSync(new URL('manifest.json', distDir)))
    for (const n of names) dist.set(n, (requireDist(fileURLToPath(new URL(`${n}.cjs`, distDir))) as { default: Validate }).default);
});

const seen = { accepted: 0, rejected: 0 };
function agree(name: string, value: unknown, exact: boolean) {
  const zodResult = zodOf(name).safeParse(value);
  seen[zodResult.success ? 'accepted' : 'rejected']++;
  for (const [label, check] of [['compiled', compiled.get(name)!] as const, ...(dist.size ? [['dist', dist.get(name)!] as const] : [])]) {
    const accepted = check(value);
    // Never accept what zod rejects.
    if (accepted && !zodResult.success)
      throw new Error(`${label} ${name} accepted what zod rejects: ${JSON.stringify(value)}\n${zodResult.error.message}`);
    // The trust store's validator accepts only what zod returns unchanged (zod strips unknown
    // keys of its objects there): it rejects what zod changes, and what it accepts zod returns as it is.
    const changedByZod = name === 'trustStore' && zodResult.success && !isDeepStrictEqual(zodResult.data, value);
    if (!accepted && zodResult.success && exact && !inNarrowing(value) && !changedByZod)
      throw new Error(`${label} ${name} rejected what zod accepts: ${JSON.stringify(value)}\n${JSON.stringify(check.errors)}`);
    if (accepted && name === 'trustStore' && exact && !JSON.stringify(value).includes('"__proto__"'))
      expect(zodResult.success && zodResult.data).toEqual(value);
  }
  // On accept, zod's parsed value carries the same data as the original (no schema strips or
  // transforms; key order aside). JSON values only: zod copies a Map or a Date into a plain object.
  // Not for inputs and outputs, whose callers use the verdict only (an own `__proto__` key, which
  // JSON.parse makes, is not copied by zod; the original keeps it).
  // Settings: zod's value (what the loader uses) equals the original, key order aside, except
  // where an own `__proto__` key is: zod's copy sets the prototype instead, so a loader that
  // accepts with a compiled validator must send a text holding "__proto__" to zod.
  if (zodResult.success && exact && (name === 'settings' || name === 'pluginHooks') && !JSON.stringify(value).includes('"__proto__"'))
    expect(zodResult.data).toEqual(value);
}

describe('compiled validators agree with zod', () => {
  it('covers every event input and output, the settings file, plugin hooks files and the trust store', () => {
    expect(names).toHaveLength(EVENT_NAMES.length * 2 + 3);
    expect(Object.keys(schemas).sort()).toEqual([...names].sort());
  });

  it('the built validators were generated from the current schemas (npm run build regenerates them)', () => {
    const manifest = new URL('manifest.json', distDir);
    if (!existsSync(manifest)) throw new Error('dist/validators/manifest.json is missing: run npm run build');
    expect(JSON.parse(readFileSync(manifest, 'utf8'))).toEqual(gen.schemaDigests(schemas));
  });

  for (const name of names) {
    const s = schemas[name]!;
    const defs = (s.$defs ?? {}) as Record<string, Json>;
    const valid = fromSchema(s, defs, 0);
    const file = name === 'settings' || name === 'pluginHooks' || name === 'trustStore';
    const runs = file ? 400 : 60;
    it(`${name}: generated, mutated and random values`, () => {
      seen.accepted = seen.rejected = 0;
      fc.assert(
        fc.property(valid, fc.array(mutation, { maxLength: 3 }), (v, ms) => {
          agree(name, v, true);
          let m = v;
          for (const x of ms) {
            m = mutate(m, x);
            // Files are read from JSON text only: no `undefined`, no shared references.
            if (file) m = m === undefined ? m : JSON.parse(JSON.stringify(m));
            agree(name, m, true);
          }
        }),
        { numRuns: runs },
      );
      // Both sides of the boundary were exercised, not only one.
      expect(seen.accepted).toBeGreaterThan(runs / 4);
      expect(seen.rejected).toBeGreaterThan(runs / 10);
      fc.assert(
        fc.property(anyJson, (v) => agree(name, v, true)),
        { numRuns: 30 },
      );
      // Values no JSON text gives (Dates, Maps, class instances, functions…): never accepted where zod rejects.
      fc.assert(
        fc.property(fc.anything({ withDate: true, withMap: true, withSet: true, withBigInt: true, withTypedArray: true }), (v) =>
          agree(name, v, false),
        ),
        { numRuns: 20 },
      );
    });
  }
});

describe('the engine with compiled validators (dist) and without (src) decides and words the same', () => {
  const cases: Array<[string, Record<string, unknown>, unknown]> = [
    [
      'valid input, valid output',
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } },
    ],
    ['rejected input', { tool_name: 'Bash', tool_input: [], session_id: 7 }, undefined],
    [
      'rejected output',
      { tool_name: 'Bash', tool_input: {} },
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'maybe' }, continue: 'yes' },
    ],
  ];
  it.each(cases)('%s', async (_, extra, output) => {
    const distIndex = new URL('dist/index.js', root);
    if (!existsSync(distIndex)) throw new Error('dist/ is missing: run npm run build');
    const outcome = async (mod: typeof import('../../src/index.js')) => {
      const engine = mod.createHookEngine({ cwd: '/tmp', projectDir: '/tmp' });
      engine.register({ event: 'PreToolUse', matcher: 'Bash', name: 'h', fn: () => output as never });
      try {
        // Untyped on purpose: the rejected cases send what the types forbid.
        const run = engine.run as (event: string, input: Record<string, unknown>) => ReturnType<typeof engine.run>;
        const d = await run.call(engine, 'PreToolUse', {
          session_id: 's',
          transcript_path: '',
          cwd: '/tmp',
          hook_event_name: 'PreToolUse',
          ...extra,
        });
        return { decision: d.decision, reason: d.reason, warnings: d.warnings };
      } catch (e) {
        return { error: (e as Error).message };
      } finally {
        await engine.close();
      }
    };
    const fromDist = await outcome((await import(distIndex.href)) as typeof import('../../src/index.js'));
    const fromSrc = await outcome(await import('../../src/index.js'));
    expect(fromDist).toEqual(fromSrc);
    expect(JSON.stringify(fromSrc)).toMatch(output === undefined ? /invalid PreToolUse input: session_id/ : /deny|permissionDecision/);
  });
});
