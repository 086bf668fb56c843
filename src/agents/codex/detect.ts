/** How sure we are that a parsed document is Codex's hook config (src/agents/registry.ts detects over every agent). */
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';
import { groupEvents } from '../shared/detect.js';

/** Every native event name of the Codex table (facts.ts; test/dialects/detect.test.ts keeps them equal). */
export const DETECTION_NAMES = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'StopFailure',
  'SessionEnd',
  'Interrupt',
] as const;

const CODEX = new Set<string>(DETECTION_NAMES);

export const detectCodex: Detector = (file, doc) => {
  if (!isObject(doc)) return 0;
  const inCodexDir = /(^|[\\/])\.codex[\\/]/.test(file);
  if (/\.toml$/i.test(file)) return isObject(doc.hooks) ? (inCodexDir ? 0.95 : 0.8) : 0;
  if (!isObject(doc.hooks)) return 0;
  const events = groupEvents(doc.hooks);
  if (events.length && !events.every((e) => CODEX.has(e))) return 0.1;
  return inCodexDir ? 0.95 : 0.3;
};
