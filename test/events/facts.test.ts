/**
 * The catalog holds every event rule, in one place: the zod-free facts (src/events/facts.ts) name
 * every event once, the schemas are keyed by them, every output field has its merge rule, the
 * lean lists are derived, and the stages read the rules instead of naming events. And the facts
 * load without zod, so the lean modules (dispatch's fast path, the CLI) can use them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { verdictOutput } from '../../src/backends/prompt.js';
import { FIRST_EVENT_NAMES } from '../../src/cli/main.js';
import { CANONICAL_EVENTS } from '../../src/agents/claude/facts.js';
import { TOOL_EVENTS as DIALECT_TOOL_EVENTS } from '../../src/agents/shared/facts.js';
import { catalog } from '../../src/events/catalog.js';
import {
  askMeetsBypass,
  EVENT_FACTS,
  EVENT_NAMES,
  eventFacts,
  failsClosedWhenUnjudged,
  isEventName,
  llmVerdictOf,
  OUTPUT_FIELD_MERGE,
  skipsInPlanMode,
  TOOL_NAME_EVENTS,
  type EventName,
} from '../../src/events/facts.js';
import { outputSchema } from '../../src/events/schemas.js';
import type { EventSpec } from '../../src/events/spec.js';
import { reduce, type ReduceEntry } from '../../src/reduce/reduce.js';
import { tempDir } from '../helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const spec = (e: EventName) => catalog[e] as EventSpec;
const shapeOf = (schema: z.ZodType) => (schema as z.ZodObject).shape as Record<string, z.ZodType>;

/** The object schema inside an optional (one level), or undefined. */
function objectInside(schema: z.ZodType): z.ZodObject | undefined {
  let s = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType } };
  if (s.def.type === 'optional' && s.def.innerType) s = s.def.innerType as typeof s;
  return s.def.type === 'object' ? (s as unknown as z.ZodObject) : undefined;
}

describe('facts and schemas', () => {
  it('every event in the facts has its schemas, in the same order, and the catalog carries the facts unchanged', () => {
    expect(Object.keys(catalog)).toEqual(EVENT_NAMES);
    expect(EVENT_NAMES.length).toBeGreaterThan(30);
    for (const e of EVENT_NAMES) {
      expect(spec(e).input, e).toBeDefined();
      expect(typeof shapeOf(spec(e).input), e).toBe('object');
      expect(typeof shapeOf(spec(e).output), e).toBe('object');
      const { input: _i, output: _o, ...facts } = spec(e);
      expect(facts, e).toEqual(EVENT_FACTS[e]);
    }
  });

  it('every hookSpecificOutput field of every event has a merge rule, and every rule is used', () => {
    const used = new Set<string>(['hookEventName']);
    for (const e of EVENT_NAMES) {
      for (const [key, schema] of Object.entries(shapeOf(spec(e).output))) {
        expect(Object.hasOwn(OUTPUT_FIELD_MERGE, key), `${e}.${key} has no merge rule in OUTPUT_FIELD_MERGE`).toBe(true);
        used.add(key);
        // Fields of an object output (PermissionRequest's decision) that the parse stage hands on.
        for (const inner of Object.keys(objectInside(schema)?.shape ?? {})) if (Object.hasOwn(OUTPUT_FIELD_MERGE, inner)) used.add(inner);
      }
    }
    expect(Object.keys(OUTPUT_FIELD_MERGE).filter((k) => !used.has(k))).toEqual([]);
  });

  it('rule fields sit only where they mean something', () => {
    for (const e of EVENT_NAMES) {
      const f = eventFacts(e);
      if (f.planModeSkip) expect(f.ifCondition, e).toBe(true);
      if (f.bypassAsk) expect(f.decision, e).toBe('permission');
      if (f.continuationCap) expect(f.topLevelBlock && f.canBlock, e).toBe(true);
      if (f.subagentEvent !== undefined) expect(isEventName(f.subagentEvent), e).toBe(true);
      if (f.blockField !== undefined) {
        const field = shapeOf(spec(e).output)[f.blockField];
        expect(field?.safeParse(true).success, `${e}.${f.blockField}`).toBe(true);
        expect(field?.safeParse('yes').success, `${e}.${f.blockField}`).toBe(false);
      }
    }
    // The rules as the engine applied them before they moved into the facts.
    expect(EVENT_NAMES.filter((e) => eventFacts(e).planModeSkip)).toEqual(['PreToolUse', 'PostToolUse']);
    expect(EVENT_NAMES.filter((e) => eventFacts(e).bypassAsk)).toEqual(['PreToolUse']);
    expect(EVENT_NAMES.filter((e) => eventFacts(e).continuationCap)).toEqual(['SubagentStop', 'Stop']);
    expect(EVENT_NAMES.filter((e) => eventFacts(e).blockField)).toEqual(['PreCompact']);
  });

  it('the deprecated top-level approve/block belongs to the permission model', () => {
    for (const e of EVENT_NAMES) {
      const decision = shapeOf(outputSchema(e)).decision;
      expect(decision?.safeParse('approve').success ?? false, e).toBe(spec(e).decision === 'permission');
    }
  });
});

describe('lean lists are derived from the facts', () => {
  it('the Claude dialect, the adapters and the CLI read the facts', () => {
    expect(CANONICAL_EVENTS).toBe(EVENT_NAMES);
    expect(new Set(DIALECT_TOOL_EVENTS)).toEqual(new Set(TOOL_NAME_EVENTS));
    expect(TOOL_NAME_EVENTS).toEqual(EVENT_NAMES.filter((e) => spec(e).matcher?.field === 'tool_name'));
    expect(FIRST_EVENT_NAMES).toEqual(EVENT_NAMES.slice(0, 4));
  });

  it('no source outside src/events/ re-lists the catalog by hand', () => {
    // A re-list names most events in a row; a dialect's own subset (the events an agent has) is a fact of that dialect.
    const files = listTs(join(ROOT, 'src')).filter((f) => !f.includes(`${join('src', 'events')}`));
    const run = new RegExp(`(?:'(?:${EVENT_NAMES.join('|')})',\\s*){30,}`);
    for (const f of files) expect(run.test(readFileSync(f, 'utf8')), f).toBe(false);
  });
});

describe('changing a rule is one edit in the facts', () => {
  function entry(id: string, specific: Record<string, unknown>): ReduceEntry {
    return { hookId: id, parsed: { outcome: 'success', specific }, failureBehavior: 'ignore', timeoutBehavior: 'ignore' };
  }
  const table = OUTPUT_FIELD_MERGE as unknown as Record<string, string>;

  it('the reducer merges a field by its rule in OUTPUT_FIELD_MERGE', () => {
    const entries = [entry('a', { watchPaths: ['/a'] }), entry('b', { watchPaths: ['/b'] })];
    expect(reduce('CwdChanged', entries, []).eventOutput.watchPaths).toEqual(['/a', '/b']);
    const saved = table.watchPaths!;
    try {
      table.watchPaths = 'last';
      expect(reduce('CwdChanged', entries, []).eventOutput.watchPaths).toEqual(['/b']);
    } finally {
      table.watchPaths = saved;
    }
  });

  it('plan mode, bypass and prompt-hook verdicts follow the facts', () => {
    const facts = EVENT_FACTS as unknown as Record<string, Record<string, unknown>>;
    expect(skipsInPlanMode('Stop', 'plan')).toBe(false);
    expect(askMeetsBypass('PermissionRequest', 'yolo')).toBe(false);
    expect(JSON.parse(verdictOutput('PostToolBatch', { ok: false, reason: 'r' }).stdout)).toEqual({ decision: 'block', reason: 'r' });
    try {
      facts.Stop!.planModeSkip = true;
      facts.PermissionRequest!.bypassAsk = true;
      facts.PostToolBatch!.llmVerdict = 'exit2';
      expect(skipsInPlanMode('Stop', 'plan')).toBe(true);
      expect(skipsInPlanMode('Stop', 'default')).toBe(false);
      expect(askMeetsBypass('PermissionRequest', 'yolo')).toBe(true);
      expect(verdictOutput('PostToolBatch', { ok: false, reason: 'r' })).toMatchObject({ exitCode: 2, stderr: 'r' });
    } finally {
      delete facts.Stop!.planModeSkip;
      delete facts.PermissionRequest!.bypassAsk;
      delete facts.PostToolBatch!.llmVerdict;
    }
    expect(llmVerdictOf('PostToolBatch')).toBe('block');
  });
});

describe('the facts load without zod', () => {
  it('their static import graph reaches no package', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const todo = [join(ROOT, 'src/events/facts.ts')];
    while (todo.length) {
      const file = todo.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      // Value imports and re-exports only: `import type` and `export type` are erased.
      for (const m of readFileSync(file, 'utf8').matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]/gm)) {
        const spec = m[2]!;
        if (spec.startsWith('.')) todo.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
        else packages.add(spec);
      }
    }
    expect(seen.size).toBeGreaterThan(1);
    expect([...packages]).toEqual([]);
  });

  it('importing dist/events/facts.js loads no zod (recorded by a resolve hook)', () => {
    const facts = join(ROOT, 'dist/events/facts.js');
    if (!existsSync(facts)) throw new Error('dist/events/facts.js is missing: run `npm run build` first (npm test does)');
    const dir = tempDir('agent-hooks-facts-');
    try {
      // Resolve hooks run on their own thread; appending to a file before returning is a channel back.
      dir.write(
        'hooks.mjs',
        `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.RESOLVE_LOG, r.url + '\\n'); return r; }\n`,
      );
      dir.write('register.mjs', `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
      const log = dir.path('resolved.log');
      const script = `const m = await import(${JSON.stringify(pathToFileURL(facts).href)}); console.log(m.EVENT_NAMES.length);`;
      const r = spawnSync(
        process.execPath,
        ['--import', pathToFileURL(dir.path('register.mjs')).href, '--input-type=module', '-e', script],
        {
          encoding: 'utf8',
          timeout: 30_000,
          env: { ...process.env, RESOLVE_LOG: log },
        },
      );
      expect(r.stderr).toBe('');
      expect(Number(r.stdout.trim())).toBe(EVENT_NAMES.length);
      const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      expect(urls.some((u) => u.endsWith('/dist/events/facts.js'))).toBe(true);
      expect(urls.filter((u) => u.includes('node_modules'))).toEqual([]);
      expect(urls.filter((u) => u.endsWith('/dist/events/schemas.js') || u.endsWith('/dist/events/catalog.js'))).toEqual([]);
    } finally {
      dir.cleanup();
    }
  });
});

function listTs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? listTs(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('failsClosedWhenUnjudged', () => {
  it('holds for the events where a block stops an action, not where it keeps the agent going', () => {
    expect(EVENT_NAMES.filter(failsClosedWhenUnjudged)).toEqual([
      'UserPromptSubmit',
      'UserPromptExpansion',
      'PreToolUse',
      'PermissionRequest',
      'PostToolBatch',
      'TaskCreated',
      'ConfigChange',
      'WorktreeCreate',
      'PreCompact',
      'Elicitation',
      'ElicitationResult',
    ]);
    for (const e of EVENT_NAMES) {
      const f = eventFacts(e);
      if (!f.canBlock || f.continuationCap) expect(failsClosedWhenUnjudged(e), e).toBe(false);
    }
  });
});
