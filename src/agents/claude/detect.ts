/** How sure we are that a parsed document is Claude Code's hook config (src/agents/registry.ts detects over every agent). */
import { EVENT_NAMES } from '../../events/facts.js';
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';
import { groupEvents } from '../shared/detect.js';

const CANONICAL = new Set<string>(EVENT_NAMES);

export const detectClaude: Detector = (file, doc) => {
  if (!isObject(doc)) return 0;
  const events = groupEvents(doc.hooks);
  if (!isObject(doc.hooks)) return /(^|[\\/])\.claude[\\/]/.test(file) ? 0.6 : 0.05;
  let score = events.length === 0 || events.every((e) => CANONICAL.has(e)) ? 0.5 : 0.2;
  if (/(^|[\\/])\.claude[\\/]|settings(\.local)?\.json$|managed-settings\.json$/.test(file)) score += 0.3;
  return score;
};
