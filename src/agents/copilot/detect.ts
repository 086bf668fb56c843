/** How sure we are that a parsed document is Copilot CLI's hook config (src/agents/registry.ts detects over every agent). */
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';

export const detectCopilot: Detector = (file, doc) => {
  if (!isObject(doc) || !isObject(doc.hooks)) return 0;
  if (/(^|[\\/])(\.github|\.copilot)[\\/]hooks[\\/][^\\/]+\.json$/.test(file)) return 1;
  const entries = Object.values(doc.hooks).flatMap((v) => (Array.isArray(v) ? v : []));
  if (entries.some((x) => isObject(x) && (typeof x.bash === 'string' || typeof x.powershell === 'string' || x.timeoutSec !== undefined)))
    return 0.95;
  return Object.keys(doc.hooks).some((e) => ['agentStop', 'userPromptSubmitted', 'errorOccurred'].includes(e)) ? 0.8 : 0;
};
