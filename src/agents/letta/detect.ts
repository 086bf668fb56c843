/** How sure we are that a parsed document is Letta Code's hook config (src/agents/registry.ts detects over every agent). */
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';

export const detectLetta: Detector = (file, doc) => {
  if (!isObject(doc) || !isObject(doc.hooks)) return 0;
  return /(^|[\\/])\.letta[\\/]/.test(file) ? 0.95 : 0;
};
