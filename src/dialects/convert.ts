/** Converting a config between dialects (the library side of `agent-hooks convert`). */
import type { Diagnostic } from '../types.js';
import { DIALECT_NAMES, getDialect } from './index.js';
import { dialectOfText } from './load.js';
import type { Loss } from './types.js';

export interface ConvertResult {
  from: string;
  to: string;
  text: string;
  losses: Loss[];
  diagnostics: Diagnostic[];
  ok: boolean;
}

/** Convert config text; never throws. */
export async function convertText(file: string, text: string, opts: { from?: string; to: string; format?: 'json' | 'toml' }): Promise<ConvertResult> {
  const target = getDialect(opts.to);
  const base = { from: opts.from ?? '?', to: opts.to, text: '', losses: [] as Loss[] };
  if (!target) return { ...base, diagnostics: [{ level: 'error', path: '(root)', message: `unknown dialect ${JSON.stringify(opts.to)} (one of ${DIALECT_NAMES.join(', ')})` }], ok: false };
  const { dialect, doc, error } = await dialectOfText(file, text, opts.from);
  if (error !== undefined) return { ...base, from: dialect.name, diagnostics: [{ level: 'error', file, path: '(root)', message: error }], ok: false };
  const parsed = await dialect.parse(doc, { file, kind: 'cli' });
  if (!parsed.ok) return { ...base, from: dialect.name, diagnostics: parsed.diagnostics, ok: false };
  const format = opts.format ?? (/\.toml$/i.test(file) && target.name === 'codex' ? 'toml' : undefined);
  const result = await target.serialize(parsed.hooks, format ? { format } : {});
  return { from: dialect.name, to: target.name, text: result.text, losses: result.losses, diagnostics: parsed.diagnostics, ok: true };
}

