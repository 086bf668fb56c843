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

/**
 * `"enabled": false` is agent-hooks' switch; no agent honours it itself (Claude Code has no
 * per-hook switch either). Claude's format keeps the key, with a warning that Claude Code run on
 * its own would run the hook; another agent's file leaves the hook out (a loss), since written
 * there it would run.
 */
function switchedOffHooks(
  hooks: readonly NormalizedHook[],
  target: { name: DialectName; title: string },
): { hooks: NormalizedHook[]; losses: Loss[]; warnings: Diagnostic[] } {
  const losses: Loss[] = [];
  const warnings: Diagnostic[] = [];
  const kept = hooks.filter((h) => {
    if (h.handler.enabled !== false) return true;
    if (target.name === 'claude') {
      warnings.push({
        level: 'warning',
        file: h.source.file,
        path: h.source.path,
        message: `"enabled": false is honoured by agent-hooks (dispatch, run); ${target.title} itself has no per-hook switch and runs this hook when it reads the file`,
      });
      return true;
    }
    losses.push({
      path: h.source.path,
      hookId: h.id,
      scope: 'hook',
      message: `"enabled": false: ${target.title} has no per-hook switch, so the disabled hook is left out (written, it would run)`,
    });
    return false;
  });
  return { hooks: kept, losses, warnings };
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
  const shellFormed = EXEC_FORM.has(target.name) ? parsed.hooks : parsed.hooks.map(toShellForm);
  const off = switchedOffHooks(shellFormed, target);
  const result = await serializeDialect(target.name, off.hooks, format ? { format } : {});
  const losses = [...off.losses, ...result.losses];
  return {
    from: dialect.name,
    to: target.name,
    text: result.text,
    losses,
    diagnostics: [...parsed.diagnostics, ...off.warnings],
    ok: true,
  };
}
