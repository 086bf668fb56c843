/**
 * A settings file the compiled validator accepts is read without zod (src/config/settings.ts):
 * the result must be what zod's copy gives, key order included, for every valid file. Run from
 * dist, where the compiled validators exist (npm test builds first).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { beforeAll, expect, test } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
type Settings = typeof import('../../src/config/settings.js');
type Compiled = typeof import('../../src/events/compiled.js');
type Schema = typeof import('../../src/config/schema.js');
type Liberal = typeof import('../../src/config/liberal.js');
let settings: Settings;
let compiled: Compiled;
let schema: Schema;
let liberal: Liberal;

beforeAll(async () => {
  if (!existsSync(`${DIST}validators/settings.cjs`))
    throw new Error('dist/validators is missing: run `npm run build` first (npm test does)');
  settings = (await import(`${DIST}config/settings.js`)) as Settings;
  compiled = (await import(`${DIST}events/compiled.js`)) as Compiled;
  schema = (await import(`${DIST}config/schema.js`)) as Schema;
  liberal = (await import(`${DIST}config/liberal.js`)) as Liberal;
  expect(compiled.compiledCheck('settings')).toBeTypeOf('function');
});

/** What zod's copy of the document is (the path before this change), as JSON text. */
function zodCopy(doc: Record<string, unknown>): string {
  const hooks = doc.hooks === undefined ? undefined : liberal.dropUnknownHookKeys(doc.hooks, ['hooks'], 'f', []);
  const r = schema.settingsFileSchema().safeParse(hooks === undefined ? doc : { ...doc, hooks });
  expect(r.success).toBe(true);
  return JSON.stringify(r.data);
}

function read(doc: Record<string, unknown>) {
  const diagnostics: unknown[] = [];
  const layer = settings.loadSettingsText('user', '/tmp/settings.json', JSON.stringify(doc), diagnostics as never);
  return { layer, diagnostics };
}

const shuffled = <T extends Record<string, unknown>>(entries: fc.Arbitrary<T>) =>
  entries.chain((o) =>
    fc
      .shuffledSubarray(Object.keys(o), { minLength: Object.keys(o).length })
      .map((keys) => Object.fromEntries(keys.map((k) => [k, o[k]])) as T),
  );

const command = shuffled(
  fc.record(
    {
      type: fc.constant('command'),
      command: fc.constantFrom('true', 'echo hi', './hook.sh'),
      timeout: fc.integer({ min: 1, max: 60 }),
      async: fc.boolean(),
      statusMessage: fc.string(),
      env: fc.dictionary(fc.constantFrom('A', 'B', 'C'), fc.string()),
      if: fc.constant('Bash(git *)'),
      failureBehavior: fc.constantFrom('ignore', 'ask', 'deny'),
    },
    { requiredKeys: ['type', 'command'] },
  ),
);
const http = shuffled(
  fc.record(
    {
      type: fc.constant('http'),
      url: fc.constant('https://127.0.0.1:1/h'),
      headers: fc.dictionary(fc.constantFrom('x', 'y'), fc.string()),
      timeout: fc.integer({ min: 1, max: 9 }),
    },
    { requiredKeys: ['type', 'url'] },
  ),
);
const group = shuffled(
  fc.record(
    { matcher: fc.constantFrom('Bash', '*', 'Edit|Write'), hooks: fc.array(fc.oneof(command, http), { maxLength: 3 }) },
    { requiredKeys: ['hooks'] },
  ),
);
const doc = shuffled(
  fc.record(
    {
      hooks: shuffled(
        fc.record(
          {
            PreToolUse: fc.array(group, { maxLength: 2 }),
            Stop: fc.array(group, { maxLength: 2 }),
            SessionStart: fc.array(group, { maxLength: 1 }),
          },
          { requiredKeys: [] },
        ),
      ),
      disableAllHooks: fc.boolean(),
      agentHooks: shuffled(
        fc.record(
          {
            passEnv: fc.constant(['HOME']),
            failureBehavior: fc.constantFrom('ignore', 'deny'),
            maxConcurrentHooks: fc.integer({ min: 1, max: 8 }),
          },
          { requiredKeys: [] },
        ),
      ),
      model: fc.string(),
      permissions: fc.constant({ allow: ['Bash(ls)'] }),
    },
    { requiredKeys: [] },
  ),
);

test('a document the compiled validator accepts reads as zod’s copy, key order included', () => {
  let compiledAccepted = 0;
  let zodDecided = 0;
  fc.assert(
    fc.property(doc, (d) => {
      // http handlers: the compiled validator never accepts a URL (scripts/gen-validators.mjs), so zod decides.
      const hasHttp = JSON.stringify(d).includes('"type":"http"');
      expect(compiled.compiledCheck('settings')?.(d)).toBe(!hasHttp);
      if (hasHttp) zodDecided++;
      else compiledAccepted++;
      const { layer, diagnostics } = read(d);
      // Warnings (a matcher on Stop) are the normalizer's, after validation.
      expect(diagnostics.filter((x) => (x as { level: string }).level === 'error')).toEqual([]);
      expect(JSON.stringify(layer.data)).toBe(zodCopy(d));
    }),
    { numRuns: 300 },
  );
  // Both paths were taken.
  expect(compiledAccepted).toBeGreaterThan(30);
  expect(zodDecided).toBeGreaterThan(30);
});

test('an own __proto__ key goes to zod, whose copy drops it as data', () => {
  const text = '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true","env":{"__proto__":"x"}}]}]}}';
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const diagnostics: unknown[] = [];
  const layer = settings.loadSettingsText('user', '/tmp/s.json', text, diagnostics as never);
  expect(JSON.stringify(layer.data)).toBe(zodCopy(parsed));
  expect(layer.hooks).toHaveLength(1);
});

test('a document the compiled validator rejects is decided and worded by zod', () => {
  const { layer, diagnostics } = read({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '', timeout: -1 }] }] } });
  expect(layer.data).toBeUndefined();
  expect(layer.unjudged).toBeUndefined();
  expect(JSON.stringify(diagnostics)).toContain('must be > 0');
});
