/** Letta Code's settings.json `hooks`: Claude's shape, timeouts in milliseconds, a `disabled` switch. */
import type { NormalizedHook } from '../../types.js';
import { isObject } from '../shared/facts.js';
import { parseClaudeShaped, serializeClaudeShaped, type ClaudeShape } from '../shared/claude-shaped.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';
import { letta } from './facts.js';

const SHAPE: ClaudeShape = { dialect: letta, settingKeys: ['disabled'], handlerTypes: ['command', 'prompt'] };

export async function parseLetta(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  const r = await parseClaudeShaped(doc, ctx, SHAPE);
  if (isObject(doc) && isObject(doc.hooks) && doc.hooks.disabled === true && r.hooks.length) {
    // Letta runs none of them; neither do we.
    const warning = {
      level: 'warning' as const,
      file: ctx.file,
      path: 'hooks.disabled',
      message: 'hooks.disabled is true: Letta Code runs none of these hooks, so none is loaded',
    };
    return { ...r, hooks: [], diagnostics: [...r.diagnostics, warning] };
  }
  return r;
}

export async function serializeLetta(hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  return serializeClaudeShaped(hooks, SHAPE);
}
