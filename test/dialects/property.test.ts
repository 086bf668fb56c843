/** Random configs in every dialect load or fail with path-qualified diagnostics; nothing throws. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { stringify } from 'smol-toml';
import { loadConfig } from '../../src/config/index.js';
import { parseDialect, serializeDialect } from '../../src/agents/registry.js';
import { DIALECT_NAMES } from '../../src/agents/all.js';
import { tempDir } from '../helpers/tmp.js';
import { dialectDocument, dialectFile } from './arbitraries.js';

describe.each(DIALECT_NAMES)('%s configs', (name) => {
  test('parse never throws; diagnostics are path-qualified; a rejected file yields no hooks', async () => {
    await fc.assert(
      fc.asyncProperty(dialectDocument[name], async (doc) => {
        const file = dialectFile[name];
        const r = await parseDialect(name, doc, { file, kind: 'cli' });
        for (const d of r.diagnostics) {
          expect(d.file).toBe(file);
          expect(typeof d.path).toBe('string');
          expect(d.path.length).toBeGreaterThan(0);
          expect(['error', 'warning']).toContain(d.level);
        }
        expect(r.ok).toBe(!r.diagnostics.some((d) => d.level === 'error'));
        if (!r.ok) expect(r.hooks).toEqual([]);
        for (const h of r.hooks) expect(h.source.path.length).toBeGreaterThan(0);
        // Whatever loaded can be written out again without throwing.
        for (const target of DIALECT_NAMES) await serializeDialect(target, r.hooks);
      }),
      { numRuns: 150 },
    );
  });
});

test('through the loader, from text on disk (auto-detected), nothing throws', async () => {
  const dir = tempDir('agent-hooks-dialect-prop-');
  try {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...DIALECT_NAMES), fc.nat(), async (name, seed) => {
        const [doc] = fc.sample(dialectDocument[name], { numRuns: 1, seed });
        let text: string;
        try {
          text = name === 'kimi' ? stringify(doc as Record<string, unknown>) : JSON.stringify(doc);
        } catch {
          return; // not representable in TOML (null values): nothing to write
        }
        const file = dir.write(`${n++}/${dialectFile[name].split('/').slice(-2).join('/')}`, text);
        const c = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
        expect(c.diagnostics.every((d) => d.path.length > 0)).toBe(true);
        expect(c.diagnostics.some((d) => d.message.startsWith('internal error'))).toBe(false);
      }),
      { numRuns: 100 },
    );
  } finally {
    dir.cleanup();
  }
});
