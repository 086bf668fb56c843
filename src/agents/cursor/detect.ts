/** How sure we are that a parsed document is Cursor's hook config (src/agents/registry.ts detects over every agent). */
import { isObject } from '../../util/is-object.js';
import type { Detector } from '../types.js';

/** Every native event name of the Cursor table (facts.ts; test/dialects/detect.test.ts keeps them equal). */
export const DETECTION_NAMES = [
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'beforeShellExecution',
  'afterShellExecution',
  'beforeMCPExecution',
  'afterMCPExecution',
  'beforeReadFile',
  'afterFileEdit',
  'beforeSubmitPrompt',
  'stop',
  'subagentStart',
  'subagentStop',
  'sessionStart',
  'sessionEnd',
  'preCompact',
  'afterAgentResponse',
  'afterAgentThought',
  'beforeTabFileRead',
  'afterTabFileEdit',
  'workspaceOpen',
] as const;

const CURSOR = new Set<string>(DETECTION_NAMES);
const CURSOR_SHARED = [
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'sessionStart',
  'sessionEnd',
  'subagentStart',
  'subagentStop',
  'preCompact',
];

export const detectCursor: Detector = (file, doc) => {
  if (!isObject(doc) || !isObject(doc.hooks)) return 0;
  if (/(^|[\\/])\.cursor[\\/]hooks\.json$/.test(file)) return 1;
  const events = Object.keys(doc.hooks);
  const entries = events.flatMap((e) =>
    Array.isArray((doc.hooks as Record<string, unknown>)[e]) ? ((doc.hooks as Record<string, unknown[]>)[e] as unknown[]) : [],
  );
  const flat =
    entries.length > 0 &&
    entries.every((x) => isObject(x) && !Array.isArray(x.hooks) && (typeof x.command === 'string' || x.type === 'prompt'));
  if (!flat) return 0;
  const cursorOnly = events.some((e) => CURSOR.has(e) && !CURSOR_SHARED.includes(e));
  return cursorOnly ? 0.9 : doc.version === 1 ? 0.6 : 0.4;
};
