/**
 * Adversarial configs in every dialect the engine reads (test/hardening/dialects.ts): generated,
 * mutated and garbage documents load without throwing into path-qualified diagnostics; whatever
 * loads runs through plan → parse → reduce without a crash; `agent-hooks check` never crashes.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES, InvalidHookInputError, createHookEngine, loadConfig, type EventName, type LoadedConfig } from '../../src/index.js';
import type { Backend, ExecutionResult } from '../../src/entry/stages.js';
import { INPUT_EXAMPLES, OUTPUT_EXAMPLES } from '../events/reference-examples.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { DIALECTS, hostileString, type ConfigDialect, type LoadedDialectFile } from './dialects.js';
import { CI_SUBSET, expectNoCrash, expectPrototypeClean, runCli } from './helpers.js';

let dir: TempDir;
let seq = 0;
beforeAll(() => {
  dir = tempDir('agent-hooks-hardening-config-');
});
afterAll(() => dir.cleanup());

/** A fresh directory per generated case, so no run sees another's files. */
function freshRoot(): string {
  const root = dir.path(`case-${seq++}`);
  mkdirSync(root, { recursive: true });
  return root;
}

// ---- generic adversarial documents ----------------------------------------------------------------

type Seg = string | number;
function containerPaths(v: unknown, at: Seg[] = [], out: Seg[][] = []): Seg[][] {
  if (v && typeof v === 'object' && out.length < 500) {
    for (const [k, child] of Object.entries(v)) {
      const p = [...at, Array.isArray(v) ? Number(k) : k];
      out.push(p);
      containerPaths(child, p, out);
    }
  }
  return out;
}

const mutation = fc.record({
  pick: fc.nat(),
  op: fc.constantFrom('replace', 'delete', 'rename', 'addKey'),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileString),
  key: fc.oneof(hostileString, fc.constantFrom('tipe', 'matchers', 'hook', '__proto__', 'PreTooluse', 'type', 'hooks', 'command')),
});

/** Applies structural mutations to a copy of a valid document (keys are set as own data, never through __proto__ setters). */
function mutate(doc: unknown, muts: Array<{ pick: number; op: string; value: unknown; key: string }>): unknown {
  let root = structuredClone(doc);
  for (const m of muts) {
    const paths = containerPaths(root);
    if (paths.length === 0) return m.value;
    const p = paths[m.pick % paths.length]!;
    // biome-ignore lint/suspicious/noExplicitAny: walks a generated document of any shape, by its own paths
    const parent = p.slice(0, -1).reduce<any>((v, s) => v[s], root);
    const last = p[p.length - 1]!;
    const define = (obj: object, key: Seg, value: unknown) =>
      Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
    if (m.op === 'replace') define(parent, last, m.value);
    else if (m.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else if (m.op === 'rename' && !Array.isArray(parent)) {
      const v = parent[last];
      delete parent[last];
      define(parent, m.key, v);
    } else if (m.op === 'addKey') {
      const target = parent[last];
      if (target && typeof target === 'object' && !Array.isArray(target)) define(target, m.key, m.value);
      else root = m.value;
    }
  }
  return root;
}

const garbageText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(
    '',
    '   ',
    '\uFEFF{}',
    'null',
    '[]',
    '"hooks"',
    '{',
    '{"hooks":',
    '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"x",}]}]}}',
    '{"hooks":{"__proto__":[]}}',
  ),
);

function documentText(d: ConfigDialect): fc.Arbitrary<{ kind: string; text: string }> {
  return fc.oneof(
    d.document.map((doc) => ({ kind: 'valid', text: d.serialize(doc) })),
    fc
      .tuple(d.document, fc.array(mutation, { minLength: 1, maxLength: 4 }))
      .map(([doc, muts]) => ({ kind: 'mutated', text: d.serialize(mutate(doc, muts)) })),
    fc.jsonValue({ maxDepth: 4 }).map((v) => ({ kind: 'json', text: d.serialize(v) })),
    garbageText.map((text) => ({ kind: 'garbage', text })),
  );
}

/** What every load must satisfy, whatever the document (collected first: 100,000 hooks make per-item expects slow). */
function expectWellFormed(loaded: LoadedDialectFile): void {
  const badDiagnostics = loaded.diagnostics.filter(
    (d) =>
      !['error', 'warning'].includes(d.level) || typeof d.path !== 'string' || d.path.length === 0 || !d.message || d.file !== loaded.file,
  );
  expect(badDiagnostics).toEqual([]);
  // An error rejects its file (nothing loads), except a hook that fails closed: a matcher or `if` no
  // bounded-time engine can run loads so that it denies at run time instead of vanishing.
  const errors = loaded.diagnostics.filter((diag) => diag.level === 'error');
  const failsClosed = errors.filter((diag) => diag.message.includes('(fails closed)'));
  if (errors.length > failsClosed.length) expect(loaded.hooks).toEqual([]);
  const unloaded = failsClosed.filter((diag) => !loaded.hooks.some((h) => h.source.path === diag.path));
  expect(unloaded).toEqual([]);
  const badHooks = loaded.hooks.filter(
    (h) => !EVENT_NAMES.includes(h.event) || h.source.file !== loaded.file || !h.source.path.startsWith('hooks.') || !h.id,
  );
  expect(badHooks).toEqual([]);
  expectPrototypeClean();
}

// ---- running what loaded, without running any generated command -----------------------------------

/** A valid input for every event: the reference's own example, else the fields the catalog requires. */
const EXTRA_INPUTS: Partial<Record<EventName, Record<string, unknown>>> = {
  UserPromptQueued: { prompt: 'p' },
  PermissionResult: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, decision: 'allow' },
  TaskStarted: { task_id: 't', task_subject: 's' },
  TurnStarted: {},
  Interrupt: {},
  SessionHeartbeat: {},
};
function inputFor(event: EventName): Record<string, unknown> {
  const example = INPUT_EXAMPLES.find((e) => e.event === event);
  if (example) return structuredClone(example.input);
  const extra = EXTRA_INPUTS[event];
  if (!extra) throw new Error(`no input example for ${event}: add one to EXTRA_INPUTS`);
  return { ...extra };
}

const outputText = fc.oneof(
  fc.constantFrom(...OUTPUT_EXAMPLES.map((e) => JSON.stringify(e.output))),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        hookSpecificOutput: fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 })),
        continue: fc.boolean(),
        decision: fc.constantFrom('block', 'approve', 'allow', 1),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  hostileString,
);
const fakeResult: fc.Arbitrary<ExecutionResult> = fc.record({
  status: fc.constantFrom('completed', 'completed', 'completed', 'timeout', 'error', 'aborted'),
  exitCode: fc.oneof(fc.constantFrom(0, 0, 1, 2, 126, 127), fc.constant(null), fc.integer({ min: -255, max: 255 })),
  signal: fc.constantFrom(null, 'SIGKILL', 'SIGTERM'),
  stdout: outputText,
  stderr: hostileString,
  stdoutTruncated: fc.boolean(),
  stderrTruncated: fc.boolean(),
  stdinTruncated: fc.boolean(),
  durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
});

/** Every hook type answered by a fake backend replaying generated results: no generated command ever runs. */
function fakeBackends(results: ExecutionResult[]): Record<string, Backend> {
  let i = 0;
  const backend: Backend = async () => results[i++ % results.length]!;
  return { command: backend, http: backend, mcp_tool: backend, prompt: backend, agent: backend };
}

const REFUSED_MATCHER = { hooks: { SessionStart: [{ matcher: '\\1', hooks: [{ type: 'command', command: ' ' }] }] } };

const OUTCOMES = ['success', 'blocking', 'non_blocking_error', 'timeout', 'error'];

for (const dialect of DIALECTS) {
  describe(`adversarial ${dialect.name}`, () => {
    it('any document: the loader never throws, diagnostics are path-qualified, a rejected file loads nothing', async () => {
      await fc.assert(
        fc.asyncProperty(documentText(dialect), async ({ text }) => {
          const loaded = await dialect.load(dir, freshRoot(), text);
          expectWellFormed(loaded);
        }),
        // Always tried: a matcher with a backreference (found by a CI run) loads and fails closed.
        { numRuns: CI_SUBSET ? 150 : 400, examples: [[{ kind: 'valid', text: dialect.serialize(REFUSED_MATCHER) }]] },
      );
    });

    it('whatever loads runs through plan, parse and reduce for its events without a crash', async () => {
      await fc.assert(
        fc.asyncProperty(
          documentText(dialect),
          fc.array(fakeResult, { minLength: 1, maxLength: 6 }),
          fc.constantFrom('default', 'plan', 'bypassPermissions'),
          async ({ text }, results, mode) => {
            const loaded = await dialect.load(dir, freshRoot(), text);
            const engine = createHookEngine({
              hooks: loaded.hooks,
              projectDir: dir.root,
              cwd: dir.root,
              backends: fakeBackends(results),
              spillDir: dir.path('spill'),
            });
            for (const event of new Set(loaded.hooks.map((h) => h.event))) {
              let d: Awaited<ReturnType<typeof engine.run>>;
              try {
                d = await engine.run(event, inputFor(event), { permissionMode: mode });
              } catch (err) {
                // A hook that applies rewrites its input for the next one; the reference examples are valid.
                throw new Error(`${event} rejected: ${(err as Error).message}`, { cause: err });
              }
              expect(d.event).toBe(event);
              for (const h of d.hooks) expect(OUTCOMES).toContain(h.outcome);
              expect(() => JSON.stringify(d)).not.toThrow();
            }
            await engine.close();
            expectPrototypeClean();
          },
        ),
        { numRuns: CI_SUBSET ? 100 : 300 },
      );
    });

    it('agent-hooks check on generated documents: exit 0 or 1, JSON diagnostics, never a crash', async () => {
      await fc.assert(
        fc.asyncProperty(documentText(dialect), async ({ text }) => {
          const root = freshRoot();
          const loaded = await dialect.load(dir, root, text);
          const r = await runCli(dialect.checkArgs(root), { cwd: root });
          expectNoCrash(r);
          const errors = loaded.diagnostics.some((d) => d.level === 'error');
          expect(r.code).toBe(errors ? 1 : 0);
          const out = JSON.parse(r.stdout) as { diagnostics: unknown[] };
          expect(Array.isArray(out.diagnostics)).toBe(true);
        }),
        { numRuns: CI_SUBSET ? 8 : 25 },
      );
    });

    describe('pathological documents', () => {
      const deep = (n: number, open: string, close: string, inner = '1') => open.repeat(n) + inner + close.repeat(n);
      const cases: Array<[string, () => string]> = [
        ['the whole document nested 100,000 arrays deep', () => deep(100_000, '[', ']')],
        ['unbalanced: 100,000 open brackets', () => '['.repeat(100_000)],
        ['hooks nested 100,000 objects deep', () => `{"hooks":${deep(100_000, '{"a":', '}')}}`],
        [
          'a handler field nested 100,000 arrays deep',
          () =>
            `{"hooks":{"PreToolUse":[{"hooks":[{"type":"mcp_tool","server":"s","tool":"t","input":{"x":${deep(100_000, '[', ']')}}}]}]}}`,
        ],
        [
          'a 20 MB string as a command',
          () => `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"${'c'.repeat(20 << 20)}"}]}]}}`,
        ],
        ['a 1 MB event name', () => `{"hooks":{"${'E'.repeat(1 << 20)}":[]}}`],
        [
          '__proto__ at every level',
          () =>
            '{"__proto__":{"polluted":1},"hooks":{"__proto__":[],"PreToolUse":[{"__proto__":{"x":1},"hooks":[{"type":"command","command":"x","__proto__":{"y":1}}]}]}}',
        ],
        [
          'NUL bytes and invalid UTF-8',
          () => '{"hooks":{"PreToolUse":[{"matcher":"\u0000","hooks":[{"type":"command","command":"\u0000\uFFFD"}]}]}}\u0000',
        ],
        [
          '100,000 matcher groups',
          () =>
            JSON.stringify({
              hooks: {
                PreToolUse: Array.from({ length: 100_000 }, (_, i) => ({
                  matcher: `T${i}`,
                  hooks: [{ type: 'command', command: `c${i}` }],
                })),
              },
            }),
        ],
      ];
      for (const [name, make] of cases) {
        it(name, async () => {
          const loaded = await dialect.load(dir, freshRoot(), make());
          expectWellFormed(loaded);
          for (const d of loaded.diagnostics) expect(d.message.length).toBeLessThan(2000);
          const engine = createHookEngine({
            hooks: loaded.hooks,
            projectDir: dir.root,
            cwd: dir.root,
            backends: fakeBackends([
              {
                status: 'completed',
                exitCode: 0,
                signal: null,
                stdout: '',
                stderr: '',
                stdoutTruncated: false,
                stderrTruncated: false,
                stdinTruncated: false,
                durationMs: 1,
              },
            ]),
          });
          const d = await engine.run('PreToolUse', { tool_name: 'T99999', tool_input: {} }).catch((err: unknown) => {
            expect(err).toBeInstanceOf(InvalidHookInputError);
            return undefined;
          });
          if (d) expect(d.event).toBe('PreToolUse');
        });
      }
    });
  });
}

describe('pathological nesting in one layer', () => {
  // Regression: a deep value overflowed the stack in dedup (JSON.stringify) and the catch-all
  // dropped every layer's hooks, so one hostile project file disabled the user's and managed hooks.
  it('a project settings file nested 100,000 levels deep is rejected alone, with a path; other layers still load', async () => {
    const root = freshRoot();
    const home = path.join(root, 'home');
    dir.json(path.relative(dir.root, path.join(home, '.claude', 'settings.json')), {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'user-hook' }] }] },
    });
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const projectFile = path.join(root, '.claude', 'settings.json');
    dir.write(
      path.relative(dir.root, projectFile),
      `{"hooks":{"PreToolUse":[{"hooks":[{"type":"mcp_tool","server":"s","tool":"t","input":{"x":${deep}}}]}]}}`,
    );
    const config: LoadedConfig = await loadConfig({
      cwd: root,
      homeDir: home,
      managedSettingsPath: path.join(root, 'none.json'),
      unsafeSkipTrustGate: true,
    });
    expect(config.hooks.map((h) => (h.handler as { command?: string }).command)).toEqual(['user-hook']);
    expect(config.diagnostics).toEqual([
      { level: 'error', file: projectFile, path: 'hooks.PreToolUse[0].hooks[0].input.x[0]…', message: 'nested deeper than 512 levels' },
    ]);
  });

  it('skill frontmatter with a cycle (YAML aliases can make one) is an error, not a stack overflow', async () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    const root = freshRoot();
    const config = await loadConfig({
      cwd: root,
      discover: false,
      skills: [{ root, hooks: { PreToolUse: [{ hooks: [{ type: 'mcp_tool', server: 's', tool: 't', input: { cyclic } }] }] } }],
    });
    expect(config.hooks).toEqual([]);
    expect(config.diagnostics).toMatchObject([
      { level: 'error', path: 'hooks.PreToolUse[0].hooks[0].input.cyclic[0][0]…', message: 'nested deeper than 512 levels' },
    ]);
  });

  it('500 levels (under the limit) still load and dedup', async () => {
    const inner = `${'['.repeat(490)}${']'.repeat(490)}`;
    const handler = `{"type":"mcp_tool","server":"s","tool":"t","input":{"x":${inner}}}`;
    const loaded = await DIALECTS[0]!.load(dir, freshRoot(), `{"hooks":{"PreToolUse":[{"hooks":[${handler},${handler}]}]}}`);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.hooks).toHaveLength(1);
  });
});

it('a loaded 20 MB command is a clear start error under the failure policy, not a crash', async () => {
  const root = freshRoot();
  const loaded = await DIALECTS[0]!.load(
    dir,
    root,
    `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"${'c'.repeat(20 << 20)}","args":[]}]}]}}`,
  );
  const engine = createHookEngine({ hooks: loaded.hooks, projectDir: root, cwd: root, failureBehavior: 'deny' });
  const d = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
  expect(d.hooks[0]).toMatchObject({ outcome: 'error', exitCode: null });
  expect(d.hooks[0]!.error).toMatch(/failed to start|not found|E2BIG|too long/i);
  expect(d).toMatchObject({ decision: 'deny', blocked: true });
});
