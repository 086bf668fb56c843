/** How sure we are that a parsed document is Qwen Code's hook config (src/agents/registry.ts detects over every agent). */
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';
import { groupEvents } from '../shared/detect.js';

export const detectQwen: Detector = (file, doc) => {
  if (!isObject(doc) || !isObject(doc.hooks)) return 0;
  if (/(^|[\\/])\.qwen[\\/]/.test(file)) return 0.95;
  const events = groupEvents(doc.hooks);
  return events.some((e) => e === 'SessionDelete' || e === 'TodoCreated' || e === 'TodoCompleted') ? 0.9 : 0;
};
