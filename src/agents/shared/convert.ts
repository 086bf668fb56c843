/** Converting a config between dialects (the library side of `agent-hooks convert`). */
import { DIALECT_NAMES, getDialect } from '../all.js';
import type { DialectName } from '../types.js';
import type { Diagnostic, NormalizedHook } from '../../types.js';
import { parseDialect, serializeDialect } from '../registry.js';
import { dialectOfText } from './foreign-settings.js';
import type { Loss } from '../types.js';

/** Dialects whose command hooks take `args` (exec form); every other one has a shell command only. */
const EXEC_FORM: ReadonlySet<DialectName> = new Set(['claude', 'qwen']);

/** One word for a POSIX shell: single-quoted, with `${VAR}` references left for the shell to expand. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return word
    .split(/(\$\{[A-Za-z_][A-Za-z0-9_]*\})/)
    .filter((part) => part !== '')
    .map((part) => (/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(part) ? `"${part}"` : `'${part.replace(/'/g, `'\\''`)}'`))
    .join('');
}

/** An exec-form hook (`command` + `args`) as one shell command line, for shell-only dialects. */
function toShellForm(hook: NormalizedHook): NormalizedHook {
  if (hook.handler.type !== 'command' || !hook.handler.args?.length) return hook;
  const { args, ...handler } = hook.handler;
  return { ...hook, handler: { ...handler, command: [hook.handler.command, ...args].map(shellWord).join(' ') } };
}

export interface ConvertResult {
  from: string;
  to: string;
  text: string;
  losses: Loss[];
  diagnostics: Diagnostic[];
  ok: boolean;
}

/** Convert config text; never throws. */
export async function convertText(
  file: string,
  text: string,
  opts: { from?: string; to: string; format?: 'json' | 'toml' },
): Promise<ConvertResult> {
  const target = getDialect(opts.to);
  const base = { from: opts.from ?? '?', to: opts.to, text: '', losses: [] as Loss[] };
  if (!target)
    return {
      ...base,
      diagnostics: [
        { level: 'error', path: '(root)', message: `unknown dialect ${JSON.stringify(opts.to)} (one of ${DIALECT_NAMES.join(', ')})` },
      ],
      ok: false,
    };
  const { dialect, doc, error } = await dialectOfText(file, text, opts.from);
  if (error !== undefined)
    return { ...base, from: dialect.name, diagnostics: [{ level: 'error', file, path: '(root)', message: error }], ok: false };
  const parsed = await parseDialect(dialect.name, doc, { file, kind: 'cli' });
  if (!parsed.ok) return { ...base, from: dialect.name, diagnostics: parsed.diagnostics, ok: false };
  const format = opts.format ?? (/\.toml$/i.test(file) && target.name === 'codex' ? 'toml' : undefined);
  // A shell-only target gets the arguments quoted into the command instead of losing them.
  const hooks = EXEC_FORM.has(target.name) ? parsed.hooks : parsed.hooks.map(toShellForm);
  const result = await serializeDialect(target.name, hooks, format ? { format } : {});
  return { from: dialect.name, to: target.name, text: result.text, losses: result.losses, diagnostics: parsed.diagnostics, ok: true };
}
