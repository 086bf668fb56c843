import { it } from 'vitest';
import { droid } from './harness/droid.js';
import { ensureAgent } from './harness/cache.js';
import { runCell } from './harness/agent.js';
import { SCENARIOS } from './harness/scenarios.js';

const post = SCENARIOS.find((s) => s.id === 'replace-output')!;
const prompt = SCENARIOS.find((s) => s.id === 'prompt-block')!;
const cases = [
  ['post', 'block'], ['post', 'stop-continue'], ['post', 'deny-exit2'],
  ['prompt', 'deny-exit2'], ['prompt', 'stop-continue'],
] as const;
it.concurrent.each(cases)('droid %s %s', async (which, mode) => {
  const base = which === 'post' ? post : prompt;
  const s = { ...base, hooks: [{ ...base.hooks[0]!, mode }] };
  const cell = await runCell(droid, ensureAgent('droid'), s, 'native');
  console.log('RESULT', which, mode, cell.verdict, cell.detail);
});
