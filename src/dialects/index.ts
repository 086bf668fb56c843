/**
 * The dialect registry: one adapter per agent, detection of a config file's dialect (detect.ts),
 * and reading a config document (document.ts). Lean: adapters keep zod and the config machinery
 * behind dynamic imports; dispatch's no-hooks check loads one adapter at a time (load.ts).
 */
import { claude } from './claude.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { droid } from './droid.js';
import { gemini } from './gemini.js';
import { kimi } from './kimi.js';
import { qwen } from './qwen.js';
import { DIALECT_NAMES, isDialectName, type Dialect, type DialectName } from './types.js';
import { detectDialectName } from './detect.js';

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = { claude, codex, gemini, qwen, kimi, cursor, copilot, droid };

export { DIALECT_NAMES, isDialectName };
export type * from './types.js';

export function getDialect(name: string): Dialect | undefined {
  return isDialectName(name) ? DIALECTS[name] : undefined;
}

/** The most likely dialect of a parsed document; Claude (the native shape) when nothing is sure. */
export function detectDialect(file: string, doc: unknown): { dialect: Dialect; confidence: number } {
  const { name, confidence } = detectDialectName(file, doc);
  return { dialect: DIALECTS[name], confidence };
}

export { isJsoncFile, readDocument, type ReadDocument } from './document.js';
