/**
 * The config readers, one per dialect: parse an agent's hook config into NormalizedHooks and
 * serialize hooks back into its shape. Each reader module, and the adapter it needs, is imported on
 * first use, so a load that reads one agent's file compiles only that reader's schemas.
 */
import type { DialectName } from '../../dialects/types.js';
import type { NormalizedHook } from '../../types.js';
import type { DialectReader, ParseContext, ParseResult, SerializeOptions, SerializeResult } from './types.js';

const READERS: Readonly<Record<DialectName, () => Promise<DialectReader>>> = {
  claude: async () => {
    const m = await import('./claude.js');
    return { name: 'claude', parse: m.parseClaude, serialize: m.serializeClaude };
  },
  codex: async () => {
    const m = await import('./codex.js');
    return { name: 'codex', parse: m.parseCodex, serialize: m.serializeCodex };
  },
  gemini: async () => {
    const [m, { gemini }] = await Promise.all([import('./gemini.js'), import('../../dialects/gemini.js')]);
    return {
      name: 'gemini',
      parse: (doc, ctx) => m.parseGeminiLike(gemini, doc, ctx),
      serialize: (hooks) => m.serializeGeminiLike(gemini, hooks),
    };
  },
  qwen: async () => {
    const [m, { qwen }] = await Promise.all([import('./gemini.js'), import('../../dialects/qwen.js')]);
    return {
      name: 'qwen',
      parse: (doc, ctx) => m.parseGeminiLike(qwen, doc, ctx),
      serialize: (hooks) => m.serializeGeminiLike(qwen, hooks),
    };
  },
  kimi: async () => {
    const m = await import('./kimi.js');
    return { name: 'kimi', parse: m.parseKimi, serialize: m.serializeKimi };
  },
  cursor: async () => {
    const m = await import('./flat.js');
    return { name: 'cursor', parse: m.parseCursor, serialize: m.serializeCursor };
  },
  copilot: async () => {
    const m = await import('./flat.js');
    return { name: 'copilot', parse: m.parseCopilot, serialize: m.serializeCopilot };
  },
  droid: async () => {
    const m = await import('./droid.js');
    return { name: 'droid', parse: m.parseDroid, serialize: m.serializeDroid };
  },
};

export function readerOf(name: DialectName): Promise<DialectReader> {
  return READERS[name]();
}

/** Parsed document → hooks in `name`'s dialect (validated, path-qualified diagnostics; never throws). */
export async function parseDialect(name: DialectName, doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  return (await readerOf(name)).parse(doc, ctx);
}

/** Hooks → `name`'s config text, reporting every construct it cannot express. */
export async function serializeDialect(
  name: DialectName,
  hooks: readonly NormalizedHook[],
  opts?: SerializeOptions,
): Promise<SerializeResult> {
  return (await readerOf(name)).serialize(hooks, opts);
}

export type * from './types.js';
