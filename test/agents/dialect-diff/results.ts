/**
 * Results of the dialect-diff suites: a filtered run (vitest -t) replaces only the agents it ran,
 * the others are kept from the file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeMergedResults(file: string, notRunnable: string | null, agents: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  let kept: Record<string, unknown> = {};
  try {
    kept = (JSON.parse(readFileSync(file, 'utf8')) as { agents?: Record<string, unknown> }).agents ?? {};
  } catch {}
  writeFileSync(file, `${JSON.stringify({ notRunnable, agents: { ...kept, ...agents } }, null, 2)}\n`);
}
