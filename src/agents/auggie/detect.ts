/** How sure we are that a parsed document is Auggie's hook config (src/agents/registry.ts detects over every agent). */
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';

export const detectAuggie: Detector = (file, doc) => {
  if (!isObject(doc) || !isObject(doc.hooks)) return 0;
  if (/(^|[\\/])\.augment[\\/]/.test(file)) return 0.95;
  return Array.isArray(doc.hooks.PromptSubmit) ? 0.9 : 0;
};
