/** vitest globalSetup: after the whole suite, print the per-agent summary table from the results files. */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentResults } from './agent.js';
import { summaryTable } from './table.js';

export default function setup(): () => void {
  const started = Date.now();
  return () => {
    const dir = join(import.meta.dirname, '..', 'results');
    if (!existsSync(dir)) return;
    const all: AgentResults[] = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
    process.stdout.write(`\n${summaryTable(all, started)}\n`);
  };
}
