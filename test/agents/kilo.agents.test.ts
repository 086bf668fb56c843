import { kilo } from './harness/kilo.js';
import { agentMatrix } from './harness/matrix.js';

/**
 * Kilo CLI takes 60-100 s per run on 2 cores, and two runs at once time out: one cell at a time,
 * and a reduced matrix (every guard, the rewrite, output replacement, the contexts, prompt block
 * and the broken install; not allow, the second ask, exit-2 deny, Stop and the `Edit|Write` guard,
 * which OpenCode's run of the same plugin covers). By default only its core five run (about a
 * quarter of an hour here); AGENT_HOOKS_KILO_FULL=1 runs the eleven, as recorded in docs/dialects.md.
 */
const REDUCED = [
  'baseline',
  'deny-json',
  'ask-headless',
  'rewrite',
  'context-after',
  'replace-output',
  'prompt-block',
  'prompt-context',
  'session-context',
  'file-guard',
  'engine-broken',
];
/** What CI runs, to stay inside its time: the guard by JSON, the rewrite, output replacement, the broken install. */
const CORE = ['baseline', 'deny-json', 'rewrite', 'replace-output', 'engine-broken'];

agentMatrix(kilo, undefined, {
  sequential: true,
  scenarios: process.env.AGENT_HOOKS_KILO_FULL === '1' ? REDUCED : CORE,
});
