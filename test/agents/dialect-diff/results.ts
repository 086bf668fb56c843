/**
 * Results of the dialect-diff suites: a filtered run (vitest -t) replaces only what it ran. An
 * agent's entry is replaced whole, except its `cells`, which are merged cell by cell while the
 * agent's version is the same.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeMergedResults(file: string, notRunnable: string | null, agents: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  let kept: Record<string, unknown> = {};
  try {
    kept = (JSON.parse(readFileSync(file, 'utf8')) as { agents?: Record<string, unknown> }).agents ?? {};
  } catch {}
  const merged: Record<string, unknown> = { ...kept };
  for (const [agent, entry] of Object.entries(agents)) merged[agent] = withKeptCells(kept[agent], entry);
  writeFileSync(file, `${JSON.stringify({ notRunnable, agents: merged }, null, 2)}\n`);
}

type Entry = { version?: string; cells?: Record<string, unknown> };

function withKeptCells(before: unknown, now: unknown): unknown {
  const b = before as Entry | undefined;
  const n = now as Entry;
  if (!n.cells || !b?.cells || b.version !== n.version) return now;
  return { ...n, cells: { ...b.cells, ...n.cells } };
}
