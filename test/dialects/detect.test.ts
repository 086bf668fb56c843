/**
 * The lazy registry dispatch's no-hooks check uses (src/agents/registry.ts: each agent's `detect`
 * at hand, its parts loaded on first use) agrees with the eager tables (src/agents/all.ts).
 */
import { expect, it } from 'vitest';
import { DIALECTS, DIALECT_NAMES, WIRE, detectDialect } from '../../src/agents/all.js';
import { DETECTION_NAMES as CODEX_NAMES } from '../../src/agents/codex/detect.js';
import { DETECTION_NAMES as CURSOR_NAMES } from '../../src/agents/cursor/detect.js';
import { DETECTION_NAMES as GEMINI_NAMES } from '../../src/agents/gemini/detect.js';
import { detectorOf } from '../../src/agents/detectors.js';
import { AGENTS, detectDialectName, loadDialect, loadWire } from '../../src/agents/registry.js';

it('the detectors name every native event of the Codex, Cursor and Gemini tables', () => {
  for (const [name, names] of [
    ['codex', CODEX_NAMES],
    ['cursor', CURSOR_NAMES],
    ['gemini', GEMINI_NAMES],
  ] as const)
    expect([...names].sort(), name).toEqual(DIALECTS[name].events.map((e) => e.native).sort());
});

it('each adapter detects with its detector, and detection picks the same dialect as the registry', () => {
  for (const name of DIALECT_NAMES) {
    expect(DIALECTS[name].detect, name).toBe(AGENTS[name].detect);
    expect(detectorOf(name), name).toBe(AGENTS[name].detect);
  }
  const cases: Array<[string, unknown]> = [
    ['/p/.claude/settings.json', { hooks: { PreToolUse: [{ hooks: [] }] } }],
    ['/p/.codex/hooks.json', { hooks: { PreToolUse: [{ hooks: [] }] } }],
    ['/p/.codex/config.toml', { hooks: {} }],
    ['/p/.cursor/hooks.json', { version: 1, hooks: { beforeShellExecution: [{ command: 'x' }] } }],
    ['/p/x.json', { hooks: { beforeShellExecution: [{ command: 'x' }] } }],
    ['/p/.gemini/settings.json', { hooks: { BeforeTool: [{ hooks: [] }] } }],
    ['/p/x.json', { hooks: { AfterTool: [{ hooks: [] }] } }],
    ['/p/.qwen/settings.json', { hooks: {} }],
    ['/p/x.json', { hooks: { TodoCreated: [{ hooks: [] }] } }],
    ['/p/.kimi/config.toml', { hooks: [] }],
    ['/p/kimi.plugin.json', { hooks: [] }],
    ['/p/.github/hooks/a.json', { hooks: {} }],
    ['/p/x.json', { hooks: { sessionStart: [{ bash: 'x' }] } }],
    ['/p/.factory/settings.json', { hooks: {} }],
    ['/p/x.json', 'not an object'],
    ['/p/x.json', null],
  ];
  for (const [file, doc] of cases) {
    const registry = detectDialect(file, doc);
    expect(detectDialectName(file, doc), file).toEqual({ name: registry.dialect.name, confidence: registry.confidence });
  }
});

it('the registry lists the agents of the eager tables, each under its own name, and loads the same parts', async () => {
  expect(Object.keys(AGENTS)).toEqual([...DIALECT_NAMES]);
  expect(Object.keys(DIALECTS)).toEqual([...DIALECT_NAMES]);
  expect(Object.keys(WIRE)).toEqual([...DIALECT_NAMES]);
  for (const name of DIALECT_NAMES) {
    expect(AGENTS[name].name, name).toBe(name);
    expect(await loadDialect(name), name).toBe(DIALECTS[name]);
    expect(await loadWire(name), name).toBe(WIRE[name]);
    expect((await AGENTS[name].reader()).name, name).toBe(name);
  }
});
