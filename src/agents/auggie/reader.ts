/** Auggie's settings.json `hooks`: Claude's shape, `PromptSubmit` for UserPromptSubmit, timeouts in milliseconds, command hooks only. */
import type { NormalizedHook } from '../../types.js';
import { parseClaudeShaped, serializeClaudeShaped, type ClaudeShape } from '../shared/claude-shaped.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';
import { auggie } from './facts.js';

const SHAPE: ClaudeShape = { dialect: auggie, handlerTypes: ['command'] };

export function parseAuggie(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  return parseClaudeShaped(doc, ctx, SHAPE);
}

export async function serializeAuggie(hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  return serializeClaudeShaped(hooks, SHAPE);
}
