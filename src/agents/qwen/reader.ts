/** Qwen Code's settings.json: Gemini CLI's shape (Qwen Code is its fork), with Qwen's facts. */
import type { NormalizedHook } from '../../types.js';
import { parseGeminiLike, serializeGeminiLike } from '../gemini/reader.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';
import { qwen } from './facts.js';

export function parseQwen(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  return parseGeminiLike(qwen, doc, ctx);
}

export function serializeQwen(hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  return serializeGeminiLike(qwen, hooks);
}
