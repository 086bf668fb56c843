/**
 * Round trips: Claude → each dialect → Claude keeps every hook the dialect can express
 * identical (event, matcher, handler); whatever it cannot express is reported as a loss, and
 * only that is missing on the way back.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseDialect, serializeDialect } from '../../src/agents/registry.js';
import type { Loss } from '../../src/agents/types.js';
import { DIALECT_NAMES, readDocument, type DialectName } from '../../src/agents/all.js';
import type { NormalizedHook } from '../../src/types.js';

const FIX = resolve(__dirname, '../fixtures/dialects');
const SOURCE = join(FIX, 'claude/.claude/settings.json');

async function parse(name: string, file: string, text: string): Promise<NormalizedHook[]> {
  const doc = await readDocument(file, text);
  if (!doc.ok) throw new Error(`${name}: ${doc.message}\n${text}`);
  const r = await parseDialect(name as DialectName, doc.doc, { file, kind: 'cli' });
  const errors = r.diagnostics.filter((d) => d.level === 'error');
  if (errors.length) throw new Error(`${name}: ${JSON.stringify(errors)}\n${text}`);
  return r.hooks;
}

const key = (h: NormalizedHook) => JSON.stringify([h.event, h.matcher ?? null, h.handler]);

async function roundTrip(target: string, sourceText: string) {
  const original = await parse('claude', SOURCE, sourceText);
  const there = await serializeDialect(target as DialectName, original);
  const ext = target === 'kimi' ? 'config.toml' : 'hooks.json';
  const mid = await parse(target, `/virtual/${target}/${ext}`, there.text);
  const back = await serializeDialect('claude', mid);
  const final = await parse('claude', '/virtual/claude/settings.json', back.text);
  return { original, there, mid, back, final };
}

/** Agents with no hooks file: their hooks are Claude-format settings handed to our plugin (src/plugins/). */
const PLUGIN_AGENTS: readonly DialectName[] = ['opencode', 'kilo', 'pi'];

test.each(PLUGIN_AGENTS)('Claude → %s: nothing is written, every hook is a loss, and reading says why', async (target) => {
  const original = await parse('claude', SOURCE, readFileSync(SOURCE, 'utf8'));
  const there = await serializeDialect(target, original);
  expect(there.text).toBe('');
  expect(there.losses[0]!.message).toMatch(/has no hooks file: its hooks run through the agent-hooks plugin/);
  expect(new Set(there.losses.flatMap((l) => (l.hookId ? [l.hookId] : [])))).toEqual(new Set(original.map((h) => h.id)));
  const read = await parseDialect(target, { hooks: {} }, { file: '/p/x.json', kind: 'cli' });
  expect(read).toMatchObject({ ok: false, hooks: [], diagnostics: [{ level: 'error', file: '/p/x.json' }] });
});

describe.each(DIALECT_NAMES.filter((n) => !PLUGIN_AGENTS.includes(n)))('Claude → %s → Claude', (target) => {
  test('every expressible hook comes back identical; everything else is a reported loss', async () => {
    const { original, there, back, final } = await roundTrip(target, readFileSync(SOURCE, 'utf8'));
    const lossesOf = (h: NormalizedHook): Loss[] => there.losses.filter((l) => l.hookId === h.id);
    const finalKeys = new Set(final.map(key));
    for (const h of original) {
      const losses = lossesOf(h);
      if (losses.some((l) => l.scope === 'hook')) {
        expect(
          final.some(
            (f) => f.event === h.event && f.handler.type === h.handler.type && JSON.stringify(f.handler) === JSON.stringify(h.handler),
          ),
          `${h.id} was reported lost but came back`,
        ).toBe(false);
        continue;
      }
      if (losses.length === 0) expect(finalKeys.has(key(h)), `${h.id} (${key(h)}) did not come back identical:\n${back.text}`).toBe(true);
      else
        expect(
          final.some((f) => f.event === h.event),
          `${h.id} lost more than its reported fields`,
        ).toBe(true);
    }
    // Coming back to Claude from hooks that started in Claude loses nothing more.
    expect(back.losses).toEqual([]);
    // Every loss names the hook it concerns and says what was lost.
    for (const l of there.losses) {
      expect(l.hookId).toMatch(/^cli:/);
      expect(l.message.length).toBeGreaterThan(10);
    }
  });
});

describe('losses are specific', () => {
  const losses = async (target: string) =>
    (await roundTrip(target, readFileSync(SOURCE, 'utf8'))).there.losses.map((l) => `${l.scope} ${l.path}: ${l.message}`);

  test('Claude → Claude is lossless', async () => {
    expect(await losses('claude')).toEqual([]);
  });

  test('Codex: no http hooks, no Elicitation, no `if`', async () => {
    const l = await losses('codex');
    expect(l).toContainEqual(expect.stringMatching(/^hook hooks\.PreToolUse\[2\]\.hooks\[0\]: Codex runs only command hooks, not 'http'/));
    expect(l).toContainEqual(expect.stringMatching(/^hook hooks\.Elicitation\[0\]\.hooks\[0\]: Codex has no Elicitation event/));
    expect(l).toContainEqual(
      expect.stringMatching(/^field hooks\.PreToolUse\[1\]\.hooks\[0\]: Codex has no equivalent of the handler field 'if'/),
    );
  });

  test('Gemini: exact lifecycle matchers split into entries; names translated', async () => {
    const { there } = await roundTrip('gemini', readFileSync(SOURCE, 'utf8'));
    const doc = JSON.parse(there.text) as { hooks: Record<string, Array<{ matcher?: string }>> };
    expect(doc.hooks.BeforeTool!.map((g) => g.matcher)).toEqual(['^run_shell_command$', '^(?:replace|write_file)$']);
    expect(doc.hooks.SessionStart!.map((g) => g.matcher)).toEqual(['startup', 'resume']);
    expect(there.losses.map((l) => l.message)).toContainEqual(expect.stringMatching(/written as 2 entries/));
  });

  test('Copilot: preToolUse takes no matcher', async () => {
    expect(await losses('copilot')).toContainEqual(
      expect.stringMatching(/^field hooks\.PreToolUse\[0\]\.hooks\[0\]: Copilot CLI has no matcher on preToolUse/),
    );
  });
});

describe('round trips from the other dialects', () => {
  test.each([
    ['gemini', 'gemini/.gemini/settings.json'],
    ['kimi', 'kimi/.kimi-code/config.toml'],
    ['cursor', 'cursor/.cursor/hooks.json'],
    ['copilot', 'copilot/.github/hooks/guard.json'],
    ['codex', 'codex/.codex/hooks.json'],
    ['qwen', 'qwen/.qwen/settings.json'],
  ])('%s → Claude → %s keeps its hooks', async (name, rel) => {
    const file = join(FIX, rel);
    const first = await parse(name, file, readFileSync(file, 'utf8'));
    const claude = await serializeDialect('claude', first);
    const viaClaude = await parse('claude', '/virtual/settings.json', claude.text);
    const again = await serializeDialect(name as DialectName, viaClaude);
    const second = await parse(name, file, again.text);
    const lost = new Set(claude.losses.filter((l) => l.scope === 'hook').map((l) => l.hookId));
    const surviving = first.filter((h) => !lost.has(h.id));
    // Same events and handlers (timeouts that were the agent's default stay defaults on the way back).
    const core = (h: NormalizedHook) => JSON.stringify([h.event, h.handler.type, (h.handler as { command?: string }).command]);
    expect(second.map(core).sort()).toEqual(surviving.map(core).sort());
  });
});
