import { kilo } from './harness/kilo.js';
import { agentMatrix } from './harness/matrix.js';

/**
 * Kilo CLI takes 60-100 s per run on 2 cores, and two runs at once time out: one cell at a time,
 * and a reduced matrix (every guard, the rewrite, output replacement, the contexts, prompt block
 * and the broken install; not allow, the second ask, exit-2 deny, Stop and the `Edit|Write` guard,
 * which OpenCode's run of the same plugin covers).
 */
agentMatrix(kilo, undefined, {
  sequential: true,
  scenarios: [
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
  ],
});
