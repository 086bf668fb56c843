/** How sure we are that a parsed document is Droid's hook config (src/agents/registry.ts detects over every agent). */
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';

export const detectDroid: Detector = (file, doc) => {
  if (!isObject(doc) || !isObject(doc.hooks)) return 0;
  return /(^|[\\/])\.factory[\\/]/.test(file) ? 0.95 : 0;
};
