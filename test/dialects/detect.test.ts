/**
 * The lean pieces dispatch's no-hooks check uses instead of the registry (src/dialects/detect.ts,
 * load.ts, src/dispatch/wire/load.ts) agree with it.
 */
import { expect, it } from 'vitest';
import { DETECTION_NAMES, DETECTORS, detectDialectName } from '../../src/dialects/detect.js';
import { DIALECTS, DIALECT_NAMES, detectDialect } from '../../src/dialects/index.js';
import { loadDialect } from '../../src/dialects/load.js';
import { WIRE } from '../../src/dispatch/wire/index.js';
import { loadWire } from '../../src/dispatch/wire/load.js';

it('the detectors name every native event of the Codex, Cursor and Gemini tables', () => {
  for (const [name, names] of Object.entries(DETECTION_NAMES))
    expect([...names].sort(), name).toEqual(DIALECTS[name as keyof typeof DETECTION_NAMES].events.map((e) => e.native).sort());
});

it('each adapter detects with its detector, and detection picks the same dialect as the registry', () => {
  for (const name of DIALECT_NAMES) expect(DIALECTS[name].detect, name).toBe(DETECTORS[name]);
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

it('loadDialect and loadWire give the registry adapters', async () => {
  for (const name of DIALECT_NAMES) {
    expect(await loadDialect(name), name).toBe(DIALECTS[name]);
    expect(await loadWire(name), name).toBe(WIRE[name]);
  }
});
