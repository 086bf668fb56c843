/**
 * Declares one framework's cells as vitest tests (every scenario, native and through the
 * adapter) and writes test/frameworks/results/<name>.json for the docs table
 * (scripts/gen-frameworks-doc.mjs). Through the adapter no cell may fail open, and none may
 * error: a cell the framework cannot express is `na` with the reason, decided in the driver.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { type CellResult, type FrameworkDriver, type Mode, runCell } from './run.js';
import { SCENARIOS } from './scenarios.js';

const RESULTS = fileURLToPath(new URL('../results/', import.meta.url));

/** The installed version of a package (its own package.json in the repository's node_modules). */
export function installedVersion(pkg: string): string {
  const file = fileURLToPath(new URL(`../../../node_modules/${pkg}/package.json`, import.meta.url));
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

export function frameworkMatrix(driver: FrameworkDriver): void {
  const cells: Record<string, { title: string; native?: CellResult; adapter?: CellResult }> = {};
  describe(driver.title, () => {
    for (const scenario of SCENARIOS) {
      for (const mode of ['native', 'adapter'] as Mode[]) {
        test(`${scenario.id} (${mode})`, async () => {
          const result = await runCell(driver, scenario, mode);
          cells[scenario.id] = { title: scenario.title, ...cells[scenario.id], [mode]: result };
          if (mode === 'adapter') {
            expect(result.verdict, result.detail).not.toBe('open');
            expect(result.verdict, result.detail).not.toBe('error');
          }
        });
      }
    }
    afterAll(() => {
      if (Object.keys(cells).length < SCENARIOS.length) return; // a filtered run leaves the results as they were
      const versions = Object.fromEntries(driver.packages.map((p) => [p, installedVersion(p)]));
      const ordered = Object.fromEntries(SCENARIOS.map((s) => [s.id, cells[s.id]]));
      const out = { framework: driver.title, name: driver.name, versions, cells: ordered };
      writeFileSync(`${RESULTS}${driver.name}.json`, `${JSON.stringify(out, null, 2)}\n`);
    });
  });
}
