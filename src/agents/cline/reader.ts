/**
 * Cline keeps no hooks file: a hook is an executable named after its event in a hooks directory
 * (`.clinerules/hooks/PreToolUse`), with no matcher, timeout or handler type to write. A document
 * is never Cline's, and hooks are not written as one: `agent-hooks install --agent cline` writes
 * the per-event files that run `dispatch --agent cline`.
 */
import type { NormalizedHook } from '../../types.js';
import { isObject } from '../shared/facts.js';
import { lossLog } from '../shared/reader.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';

const WHY = 'Cline has no hooks file: each hook is an executable named after its event in .clinerules/hooks/ or ~/.cline/hooks/';

export async function parseCline(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  // What serialize writes (`{}`: every hook a reported loss) reads back as nothing; any hooks in a document are refused.
  if (isObject(doc) && Object.keys(doc).length === 0) return { hooks: [], diagnostics: [], ok: true };
  return {
    hooks: [],
    diagnostics: [{ level: 'error', file: ctx.file, path: 'hooks', message: `${WHY}; there is no document to read` }],
    ok: false,
  };
}

export async function serializeCline(hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  const log = lossLog();
  for (const hook of hooks)
    log.hook(hook, `${WHY}; run these hooks through \`agent-hooks dispatch --agent cline\` (agent-hooks install --agent cline)`);
  return { text: '{}\n', losses: log.losses };
}
