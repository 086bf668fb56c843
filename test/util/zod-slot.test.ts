/**
 * The schema slot (src/util/zod-slot.ts): every package entry fills it on import, so the library's
 * synchronous functions never meet an empty slot; a lean CLI path leaves it empty until a check
 * needs zod (test/cli/lazy-load.test.ts checks what those load).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { exports: Record<string, string | { import?: string }> };

/** Which parts of the slot are filled after importing `file` (a fresh process each). */
function filledAfter(file: string | undefined): string {
  const script = `${file ? `await import(${JSON.stringify(file)});` : ''}
const s = await import(${JSON.stringify(`${ROOT}dist/util/zod-slot.js`)});
let mcp = true;
try { s.requireMcpServerSchema(); } catch { mcp = false; }
process.stdout.write(JSON.stringify({ events: !!s.eventZodSchemas(), config: !!s.configZodSchemas(), mcp }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  return r.stdout;
}

test('every package entry fills the whole slot when imported', () => {
  const entries = Object.entries(pkg.exports)
    .map(([name, v]) => [name, typeof v === 'string' ? v : v.import] as const)
    .filter(([, file]) => file?.endsWith('.js'));
  expect(entries.map(([name]) => name)).toEqual(
    expect.arrayContaining(['.', './stages', './sdk', './mcp', './dialects', './host', './serve']),
  );
  for (const [name, file] of entries) {
    expect(filledAfter(`${ROOT}${file!.replace(/^\.\//, '')}`), name).toBe('{"events":true,"config":true,"mcp":true}');
  }
});

test('the slot alone is empty, and its accessors say so instead of reading "valid"', async () => {
  expect(filledAfter(undefined)).toBe('{"events":false,"config":false,"mcp":false}');
  const script = `const s = await import(${JSON.stringify(`${ROOT}dist/util/zod-slot.js`)});
try { s.requireEventZodSchemas(); } catch (e) { process.stdout.write(e.message); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(r.stdout).toContain('internal error');
});
