import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES, catalog } from '../../src/events/catalog.js';
import type { EventSpec } from '../../src/events/spec.js';
import { findJsonSyntaxError, type LoadedConfig } from '../../src/config/index.js';
import { makeFixture, type Fixture } from './helpers.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await makeFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

function wellFormed(cfg: LoadedConfig): void {
  for (const d of cfg.diagnostics) {
    expect(['error', 'warning']).toContain(d.level);
    expect(typeof d.path).toBe('string');
    expect(d.path.length).toBeGreaterThan(0);
    expect(typeof d.message).toBe('string');
    expect(d.message.length).toBeGreaterThan(0);
  }
  for (const h of cfg.hooks) {
    expect(h.source.path.length).toBeGreaterThan(0);
    expect(h.id.length).toBeGreaterThan(0);
  }
}

function getAt(root: unknown, segs: Array<string | number>): unknown {
  return segs.reduce<unknown>((v, s) => (v as Record<string | number, unknown> | undefined)?.[s], root);
}
/** hooks.PreToolUse[0].hooks[1] → ['hooks','PreToolUse',0,'hooks',1] (event names are identifiers). */
function parsePath(p: string): Array<string | number> {
  return [...p.matchAll(/([A-Za-z_$][\w$]*)|\[(\d+)\]/g)].map((m) => (m[1] !== undefined ? m[1] : Number(m[2])));
}

/** Write `content` as project settings and as a plugin's hooks.json, then load both. */
async function loadText(text: string): Promise<LoadedConfig> {
  await fx.write(fx.projectFile, text);
  await fx.write('plugin/hooks/hooks.json', text);
  return fx.load({ plugins: [path.join(fx.root, 'plugin')] });
}

// ---- valid config generator -------------------------------------------------------------
const word = fc.string({ minLength: 1, maxLength: 8 });
const common = {
  if: fc.constantFrom('Bash(git *)', 'Edit(src/**)'),
  timeout: fc.double({ min: 0.001, max: 600, noNaN: true }),
  statusMessage: word,
  failureBehavior: fc.constantFrom('ignore', 'ask', 'deny'),
};
const handler = fc.oneof(
  fc.record(
    {
      type: fc.constant('command'),
      command: word,
      args: fc.array(word, { maxLength: 3 }),
      shell: fc.constantFrom('bash', 'sh', 'powershell'),
      env: fc.dictionary(word, word, { maxKeys: 2 }),
      async: fc.boolean(),
      ...common,
    },
    { requiredKeys: ['type', 'command'] },
  ),
  fc.record(
    {
      type: fc.constant('http'),
      url: fc.constantFrom('https://h.test/a', 'http://localhost:8080/x'),
      headers: fc.dictionary(word, word, { maxKeys: 2 }),
      ...common,
    },
    { requiredKeys: ['type', 'url'] },
  ),
  fc.record(
    {
      type: fc.constant('mcp_tool'),
      server: word,
      tool: word,
      input: fc.dictionary(word, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
      ...common,
    },
    { requiredKeys: ['type', 'server', 'tool'] },
  ),
  fc.record({ type: fc.constantFrom('prompt', 'agent'), prompt: word, model: word, ...common }, { requiredKeys: ['type', 'prompt'] }),
);
const group = fc.record(
  { matcher: fc.constantFrom('Bash', 'Edit|Write', '*', '', '^mcp__'), hooks: fc.array(handler, { maxLength: 3 }) },
  { requiredKeys: ['hooks'] },
);
const validSettings = fc.record(
  {
    hooks: fc.dictionary(fc.constantFrom(...EVENT_NAMES), fc.array(group, { maxLength: 3 }), { maxKeys: 4 }),
    disableAllHooks: fc.constant(false),
    agentHooks: fc.record(
      { maxConcurrentHooks: fc.integer({ min: 1, max: 64 }), failureBehavior: fc.constantFrom('ignore', 'deny') },
      { requiredKeys: [] },
    ),
    permissions: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: ['hooks'] },
);

/** Make every handler's identifying field unique so no two collapse in dedup. */
function uniquify(cfg: { hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>> }) {
  let n = 0;
  for (const groups of Object.values(cfg.hooks)) {
    for (const g of groups) {
      for (const h of g.hooks) {
        n++;
        if (h.type === 'command') h.command = `${String(h.command)}#${n}`;
        else if (h.type === 'http') h.url = `https://h.test/${n}`;
        else if (h.type === 'mcp_tool') h.tool = `${String(h.tool)}#${n}`;
        else h.prompt = `${String(h.prompt)}#${n}`;
      }
    }
  }
  return cfg;
}

// ---- mutation of valid configs ------------------------------------------------------------
type Seg = string | number;
function containerPaths(v: unknown, at: Seg[] = [], out: Seg[][] = []): Seg[][] {
  if (v && typeof v === 'object') {
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
  value: fc.jsonValue({ maxDepth: 2 }),
  key: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('tipe', 'matchers', 'hook', '__proto__', 'PreTooluse', 'type')),
});
function mutate(cfg: unknown, muts: Array<{ pick: number; op: string; value: unknown; key: string }>): unknown {
  const clone = structuredClone(cfg) as Record<string, unknown>;
  for (const m of muts) {
    const paths = containerPaths(clone);
    if (paths.length === 0) return m.value;
    const p = paths[m.pick % paths.length]!;
    const parent = getAt(clone, p.slice(0, -1)) as Record<Seg, unknown> & unknown[];
    const last = p[p.length - 1]!;
    if (m.op === 'replace') parent[last as never] = m.value as never;
    else if (m.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else {
      const target = m.op === 'addKey' ? getAt(clone, p) : parent;
      if (target && typeof target === 'object' && !Array.isArray(target)) {
        Object.defineProperty(target, m.key, {
          value: m.op === 'addKey' ? m.value : (target as Record<string, unknown>)[last as string],
          enumerable: true,
          writable: true,
          configurable: true,
        });
        if (m.op === 'rename' && m.key !== last) delete (target as Record<string, unknown>)[last as string];
      }
    }
  }
  return clone;
}

describe('properties', () => {
  it('findJsonSyntaxError agrees with JSON.parse', () => {
    const parses = (s: string) => {
      try {
        JSON.parse(s);
        return true;
      } catch {
        return false;
      }
    };
    const edited = fc
      .tuple(
        fc.json({ maxDepth: 3 }),
        fc.nat(),
        fc.nat({ max: 3 }),
        fc.constantFrom('', ',', '}', ']', '"', ':', '\n', '\\', '0', 'e', '-', ' '),
      )
      .map(([s, at, del, ins]) => {
        const i = at % (s.length + 1);
        return s.slice(0, i) + ins + s.slice(i + del);
      });
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 4 }), edited, fc.string({ maxLength: 20 })), (s) => {
        const found = findJsonSyntaxError(s);
        expect(found === undefined).toBe(parses(s));
        if (found) expect(found.offset).toBeLessThanOrEqual(s.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('arbitrary JSON values, arbitrary text and arbitrary values never make loadConfig throw', async () => {
    const content = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.anything().map((v) => JSON.stringify(v) ?? 'undefined'),
      fc.string({ maxLength: 40 }),
      fc.record({ hooks: fc.dictionary(fc.constantFrom(...EVENT_NAMES, 'Bogus'), fc.anything()) }).map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(content, async (text) => {
        const cfg = await loadText(text);
        wellFormed(cfg);
        if (cfg.diagnostics.some((d) => d.level === 'error')) expect(cfg.files.some((f) => !f.ok)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary skill frontmatter values never make loadConfig throw', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          group.map((g) => ({ PreToolUse: [g] })),
        ),
        async (hooks) => {
          const cfg = await fx.load({ discover: false, skills: [{ root: 'skill', hooks }] });
          wellFormed(cfg);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('generated valid configs load without errors; every hook points back at its handler', async () => {
    await fc.assert(
      fc.asyncProperty(validSettings, async (generated) => {
        const cfg0 = uniquify(generated as never);
        await fx.write(fx.projectFile, cfg0);
        const cfg = await fx.load();
        wellFormed(cfg);
        expect(cfg.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
        let supported = 0;
        for (const [event, groups] of Object.entries(cfg0.hooks)) {
          const types = (catalog[event as keyof typeof catalog] as EventSpec).hookTypes;
          for (const g of groups) for (const h of g.hooks) if (!types || types.includes(h.type as never)) supported++;
        }
        expect(cfg.hooks).toHaveLength(supported);
        for (const h of cfg.hooks) {
          const segs = parsePath(h.source.path);
          expect(segs[1]).toBe(h.event);
          const raw = getAt(cfg0, segs) as Record<string, unknown>;
          expect(raw.type).toBe(h.handler.type);
          expect(getAt(cfg0, [...segs.slice(0, 3), 'matcher'])).toBe(h.matcher);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('mutated valid configs either load cleanly or are rejected whole with path-qualified errors', async () => {
    await fc.assert(
      fc.asyncProperty(validSettings, fc.array(mutation, { minLength: 1, maxLength: 3 }), async (generated, muts) => {
        const raw = mutate(generated, muts);
        const text = JSON.stringify(raw) ?? 'null';
        await fx.write(fx.projectFile, text);
        const cfg = await fx.load();
        wellFormed(cfg);
        const errs = cfg.diagnostics.filter((d) => d.level === 'error');
        if (errs.length > 0) {
          expect(cfg.hooks).toEqual([]);
          expect(cfg.files).toEqual([{ file: fx.projectFile, kind: 'project', ok: false }]);
          for (const e of errs) expect(e.file).toBe(fx.projectFile);
        } else {
          const reparsed = JSON.parse(text) as unknown;
          for (const h of cfg.hooks) expect((getAt(reparsed, parsePath(h.source.path)) as { type?: unknown }).type).toBe(h.handler.type);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('handles own __proto__ keys without pollution', async () => {
    const text =
      '{"__proto__": {"polluted": true}, "hooks": {"__proto__": [], "Stop": [{"hooks": [{"type": "command", "command": "x", "__proto__": 1}]}]}}';
    const cfg = await loadText(text);
    wellFormed(cfg);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(cfg.diagnostics.filter((d) => d.level === 'error').map((d) => d.path)).toEqual(expect.arrayContaining(['hooks.__proto__']));
    // An unknown handler key is a warning (liberal reading), `__proto__` included.
    expect(cfg.diagnostics.filter((d) => d.level === 'warning').map((d) => d.path)).toEqual(
      expect.arrayContaining(['hooks.Stop[0].hooks[0].__proto__']),
    );
  });
});
