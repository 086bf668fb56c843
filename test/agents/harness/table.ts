/** The per-agent summary the suite prints at its end (plain text, one row per agent and mode). */
import { readFileSync } from 'node:fs';
import type { AgentResults } from './agent.js';
import type { Verdict } from './scenarios.js';

/**
 * Cells the agent's own code cannot deliver, by `agent:scenario` (the file the docs tables of
 * scripts/gen-agents-tables.mjs read too, so the summary and the matrix count them alike).
 */
export type NotDeliverable = Record<string, { version: string; what: string }>;
export const NOT_DELIVERABLE: NotDeliverable = JSON.parse(readFileSync(new URL('../not-deliverable.json', import.meta.url), 'utf8'));

/** The matrix's categories (docs/dialects.md legend); the first four are always shown. */
export const CATEGORIES = [
  'honoured',
  'fails closed',
  'not deliverable',
  'FAILS OPEN',
  'not honoured',
  'hook never ran',
  'n/a natively',
  'run failed',
  'skipped',
] as const;
export type Category = (typeof CATEGORIES)[number];
const ALWAYS = 4;

/**
 * A cell's category as the matrix shows it: an unhonoured or unfired cell is "not deliverable"
 * while the agent is known to drop that effect (as gen-agents-tables.mjs renders it), and
 * otherwise stays what it is (a finding to look at).
 */
export function categoryOf(key: string, verdict: Verdict, notDeliverable: NotDeliverable = NOT_DELIVERABLE): Category {
  if (notDeliverable[key] && (verdict === 'ignored' || verdict === 'unfired')) return 'not deliverable';
  const labels: Record<Verdict, Category> = {
    honoured: 'honoured',
    closed: 'fails closed',
    open: 'FAILS OPEN',
    ignored: 'not honoured',
    unfired: 'hook never ran',
    na: 'n/a natively',
    error: 'run failed',
    skipped: 'skipped',
  };
  return labels[verdict];
}

export function summaryTable(all: AgentResults[], _started: number, notDeliverable: NotDeliverable = NOT_DELIVERABLE): string {
  const counted: Array<{ r: AgentResults; mode?: 'native' | 'dispatch'; counts: Map<Category, number> }> = [];
  for (const r of all) {
    if (r.notRunnable) {
      counted.push({ r, counts: new Map() });
      continue;
    }
    for (const mode of ['native', 'dispatch'] as const) {
      const counts = new Map<Category, number>();
      for (const [id, cell] of Object.entries(r.cells)) {
        const v = cell[mode]?.verdict;
        if (!v) continue;
        const c = categoryOf(`${r.agent}:${id}`, v, notDeliverable);
        counts.set(c, (counts.get(c) ?? 0) + 1);
      }
      counted.push({ r, mode, counts });
    }
  }
  // The rest of the categories only when some cell is in them.
  const shown = CATEGORIES.filter((c, i) => i < ALWAYS || counted.some((x) => (x.counts.get(c) ?? 0) > 0));
  const header = ['agent', 'version', 'mode', ...shown];
  const rows: string[][] = [header];
  for (const { r, mode, counts } of counted) {
    if (!mode) rows.push([r.agent, r.version, `not runnable here: ${r.notRunnable}`]);
    else rows.push([r.agent, r.version, mode, ...shown.map((c) => String(counts.get(c) ?? 0))]);
  }
  const widths = header.map((_, i) => Math.max(...rows.filter((r) => r.length === header.length).map((r) => r[i]!.length)));
  const line = (r: string[]) => (r.length === header.length ? r.map((c, i) => c.padEnd(widths[i]!)).join('  ') : r.join('  '));
  return ['agents suite summary (per agent, cells per category):', ...rows.map(line)].join('\n');
}
