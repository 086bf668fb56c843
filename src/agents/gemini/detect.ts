/** How sure we are that a parsed document is Gemini CLI's hook config (src/agents/registry.ts detects over every agent). */
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';
import { groupEvents } from '../shared/detect.js';

/** Every native event name of the Gemini CLI table (facts.ts; test/dialects/detect.test.ts keeps them equal). */
export const DETECTION_NAMES = [
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'SessionStart',
  'SessionEnd',
  'PreCompress',
  'Notification',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
] as const;

const GEMINI = new Set<string>(DETECTION_NAMES);

export const detectGemini: Detector = (file, doc) => {
  if (!isObject(doc) || !isObject(doc.hooks)) return 0;
  if (/(^|[\\/])\.gemini[\\/]/.test(file)) return 0.95;
  const events = groupEvents(doc.hooks);
  if (events.some((e) => GEMINI.has(e) && !['SessionStart', 'SessionEnd', 'Notification'].includes(e))) return 0.9;
  return isObject(doc.hooksConfig) ? 0.6 : 0;
};
