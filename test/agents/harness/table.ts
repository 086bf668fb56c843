/** The per-agent summary the suite prints at its end (plain text, one row per agent). */
import type { AgentResults } from './agent.js';
import type { Verdict } from './scenarios.js';

const ORDER: Verdict[] = ['honoured', 'closed', 'ignored', 'unfired', 'na', 'error', 'open'];

export function summaryTable(all: AgentResults[], _started: number): string {
  const header = ['agent', 'version', 'mode', ...ORDER.map((v) => (v === 'open' ? 'FAIL OPEN' : v === 'na' ? 'n/a' : v))];
  const rows: string[][] = [header];
  for (const r of all) {
    if (r.notRunnable) {
      rows.push([r.agent, r.version, `not runnable here: ${r.notRunnable}`]);
      continue;
    }
    for (const mode of ['native', 'dispatch'] as const) {
      const counts = new Map<Verdict, number>();
      for (const cell of Object.values(r.cells)) {
        const v = cell[mode]?.verdict;
        if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      rows.push([r.agent, r.version, mode, ...ORDER.map((v) => String(counts.get(v) ?? 0))]);
    }
  }
  const widths = header.map((_, i) => Math.max(...rows.filter((r) => r.length === header.length).map((r) => r[i]!.length)));
  const line = (r: string[]) => (r.length === header.length ? r.map((c, i) => c.padEnd(widths[i]!)).join('  ') : r.join('  '));
  return ['agents suite summary (per agent, cells per verdict):', ...rows.map(line)].join('\n');
}
