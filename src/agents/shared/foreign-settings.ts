/**
 * Loading a config file in any dialect: detect (or take the forced dialect), parse, validate.
 * src/config/load.ts calls loadForeignSettings for files named with --settings; a file that turns
 * out to be Claude's goes back to the native loader (undefined).
 */
// The detectors alone until the file is another agent's: a Claude file named with --settings (the
// usual `run`) loads no agent's adapter or tables (docs/performance.md, items 19 and 23).
import { detectDialectName } from '../detectors.js';
import { isJsoncFile, readDocument } from './document.js';
import { DIALECT_NAMES, isDialectName, type Dialect, type DialectName } from '../types.js';
import type { Diagnostic, NormalizedHook, SourceKind } from '../../types.js';

export interface ForeignSettings {
  dialect: Dialect;
  hooks: NormalizedHook[];
  diagnostics: Diagnostic[];
  ok: boolean;
}

interface TextDialect {
  name: DialectName;
  doc?: unknown;
  error?: string;
  line?: number;
  column?: number;
}

/** Dialect name of a file's text: forced, or detected; with an error when the text does not parse. */
async function dialectNameOfText(file: string, text: string, forced?: string): Promise<TextDialect> {
  if (forced !== undefined && !isDialectName(forced))
    return { name: 'claude', error: `unknown dialect ${JSON.stringify(forced)} (one of ${DIALECT_NAMES.join(', ')})` };
  const read = await readDocument(file, text, { jsonc: isJsoncFile(file, forced) });
  if (!read.ok)
    return {
      name: forced ?? (/\.toml$/i.test(file) ? 'kimi' : isJsoncFile(file) ? (/qwen/i.test(file) ? 'qwen' : 'gemini') : 'claude'),
      error: read.message,
      ...(read.line !== undefined ? { line: read.line, column: read.column } : {}),
    };
  return { name: forced ?? detectDialectName(file, read.doc).name, doc: read.doc };
}

/** Dialect of a file's text: forced, or detected; undefined when the text does not parse. */
export async function dialectOfText(
  file: string,
  text: string,
  forced?: string,
): Promise<{ dialect: Dialect; doc?: unknown; error?: string; line?: number; column?: number }> {
  const { name, ...rest } = await dialectNameOfText(file, text, forced);
  const { loadDialect } = await import('../registry.js');
  return { dialect: await loadDialect(name), ...rest };
}

/**
 * Load one settings file in whatever dialect it is. Returns undefined when it is a Claude file
 * (not forced otherwise), so the native loader keeps handling those byte for byte as before.
 */
export async function loadForeignSettings(
  file: string,
  text: string,
  kind: SourceKind,
  forced?: string,
): Promise<ForeignSettings | undefined> {
  const { name, doc, error } = await dialectNameOfText(file, text, forced);
  if (name === 'claude' && error === undefined) return undefined;
  if (name === 'claude' && forced === undefined) return undefined; // the native loader reports JSON errors with line:column
  const { loadDialect, parseDialect } = await import('../registry.js');
  const dialect = await loadDialect(name);
  if (error !== undefined)
    return { dialect, hooks: [], diagnostics: [{ level: 'error', file, path: '(root)', message: error }], ok: false };
  try {
    const r = await parseDialect(dialect.name, doc, { file, kind });
    return { dialect, hooks: r.hooks, diagnostics: r.diagnostics, ok: r.ok };
  } catch (err) {
    // A parser bug must surface as a diagnostic, never as a crash of the host.
    return {
      dialect,
      hooks: [],
      diagnostics: [
        {
          level: 'error',
          file,
          path: '(root)',
          message: `internal error while reading ${dialect.title} config: ${(err as Error)?.message ?? String(err)}`,
        },
      ],
      ok: false,
    };
  }
}
