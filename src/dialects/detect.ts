/**
 * Detection of a config file's dialect, apart from the dialects' tables: each detector needs only
 * a few native event names, so dispatch's no-hooks check detects with this module and loads the
 * one dialect it finds (load.ts) instead of all of them. The adapters' `detect` are these
 * functions; test/dialects/detect.test.ts keeps the name lists equal to the adapters' event tables.
 */
import { EVENT_NAMES } from '../events/facts.js';
import { isObject } from '../util/is-object.js';
import { DIALECT_NAMES, type DialectName } from './types.js';

export type Detector = (file: string, doc: unknown) => number;

/** Native event names with at least one hook entry in a Claude-shaped `hooks` object. */
export function groupEvents(hooks: unknown): string[] {
  if (!isObject(hooks)) return [];
  return Object.keys(hooks).filter((k) => Array.isArray(hooks[k]) && (hooks[k] as unknown[]).length > 0);
}

export function isKimiPluginManifest(file: string): boolean {
  return /(^|[\\/])kimi\.plugin\.json$/.test(file) || /(^|[\\/])\.kimi-plugin[\\/]plugin\.json$/.test(file);
}

const CANONICAL = new Set<string>(EVENT_NAMES);

/** Every native event name of the Codex, Cursor and Gemini tables (src/dialects/codex.ts, cursor.ts, gemini.ts). */
export const DETECTION_NAMES = {
  codex: [
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
  ],
  cursor: [
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
  ],
  gemini: [
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
  ],
} as const satisfies Partial<Record<DialectName, readonly string[]>>;

const CODEX = new Set<string>(DETECTION_NAMES.codex);
const CURSOR = new Set<string>(DETECTION_NAMES.cursor);
const GEMINI = new Set<string>(DETECTION_NAMES.gemini);
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

export const DETECTORS: Readonly<Record<DialectName, Detector>> = {
  claude(file, doc) {
    if (!isObject(doc)) return 0;
    const events = groupEvents(doc.hooks);
    if (!isObject(doc.hooks)) return /(^|[\\/])\.claude[\\/]/.test(file) ? 0.6 : 0.05;
    let score = events.length === 0 || events.every((e) => CANONICAL.has(e)) ? 0.5 : 0.2;
    if (/(^|[\\/])\.claude[\\/]|settings(\.local)?\.json$|managed-settings\.json$/.test(file)) score += 0.3;
    return score;
  },
  codex(file, doc) {
    if (!isObject(doc)) return 0;
    const inCodexDir = /(^|[\\/])\.codex[\\/]/.test(file);
    if (/\.toml$/i.test(file)) return isObject(doc.hooks) ? (inCodexDir ? 0.95 : 0.8) : 0;
    if (!isObject(doc.hooks)) return 0;
    const events = groupEvents(doc.hooks);
    if (events.length && !events.every((e) => CODEX.has(e))) return 0.1;
    return inCodexDir ? 0.95 : 0.3;
  },
  gemini(file, doc) {
    if (!isObject(doc) || !isObject(doc.hooks)) return 0;
    if (/(^|[\\/])\.gemini[\\/]/.test(file)) return 0.95;
    const events = groupEvents(doc.hooks);
    if (events.some((e) => GEMINI.has(e) && !['SessionStart', 'SessionEnd', 'Notification'].includes(e))) return 0.9;
    return isObject(doc.hooksConfig) ? 0.6 : 0;
  },
  qwen(file, doc) {
    if (!isObject(doc) || !isObject(doc.hooks)) return 0;
    if (/(^|[\\/])\.qwen[\\/]/.test(file)) return 0.95;
    const events = groupEvents(doc.hooks);
    return events.some((e) => e === 'SessionDelete' || e === 'TodoCreated' || e === 'TodoCompleted') ? 0.9 : 0;
  },
  kimi(file, doc) {
    if (!isObject(doc) || !Array.isArray(doc.hooks)) return 0;
    if (isKimiPluginManifest(file)) return 1;
    return /(^|[\\/])\.kimi(-code)?[\\/]/.test(file) ? 1 : 0.9;
  },
  cursor(file, doc) {
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
  },
  copilot(file, doc) {
    if (!isObject(doc) || !isObject(doc.hooks)) return 0;
    if (/(^|[\\/])(\.github|\.copilot)[\\/]hooks[\\/][^\\/]+\.json$/.test(file)) return 1;
    const entries = Object.values(doc.hooks).flatMap((v) => (Array.isArray(v) ? v : []));
    if (entries.some((x) => isObject(x) && (typeof x.bash === 'string' || typeof x.powershell === 'string' || x.timeoutSec !== undefined)))
      return 0.95;
    return Object.keys(doc.hooks).some((e) => ['agentStop', 'userPromptSubmitted', 'errorOccurred'].includes(e)) ? 0.8 : 0;
  },
  droid(file, doc) {
    if (!isObject(doc) || !isObject(doc.hooks)) return 0;
    return /(^|[\\/])\.factory[\\/]/.test(file) ? 0.95 : 0;
  },
};

/** The most likely dialect of a parsed document; Claude (the native shape) when nothing is sure. */
export function detectDialectName(file: string, doc: unknown): { name: DialectName; confidence: number } {
  let best: { name: DialectName; confidence: number } = { name: 'claude', confidence: 0 };
  for (const name of DIALECT_NAMES) {
    let c = 0;
    try {
      c = DETECTORS[name](file, doc);
    } catch {
      c = 0; // detection reads untrusted documents; a surprise shape is "not this dialect"
    }
    if (c > best.confidence) best = { name, confidence: c };
  }
  return best;
}
