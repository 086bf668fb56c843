/** The YAML frontmatter block of a skill or subagent file (the one module here that loads `yaml`). */
import { parseDocument } from 'yaml';
import type { Diagnostic } from '../types.js';

export type FrontmatterKind = 'skill' | 'agent';

/** Where frontmatter diagnostics point when no finer path exists. */
export const FRONTMATTER_PATH = '(frontmatter)';

/**
 * Split off and parse the frontmatter block (`---` … `---` or `...` at the top of the file).
 * No block → `data` is `{}`. Line numbers in messages are the file's.
 */
export function parseFrontmatter(text: string, file: string): { data?: Record<string, unknown>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const error = (message: string) => {
    diagnostics.push({ level: 'error', file, path: FRONTMATTER_PATH, message });
    return { diagnostics };
  };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines[0]?.trimEnd() !== '---') return { data: {}, diagnostics };
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === '---' || l.trimEnd() === '...'));
  if (end < 0) return error('frontmatter starts with --- but is never closed (expected a line with --- after it)');

  const doc = parseDocument(lines.slice(1, end).join('\n'), { uniqueKeys: true });
  for (const e of doc.errors) {
    const at = e.linePos?.[0];
    // yaml appends " at line L, column C:" and a source excerpt; we give the file's line instead.
    const message = e.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '');
    error(`invalid YAML${at ? ` at ${at.line + 1}:${at.col}` : ''}: ${message}`);
  }
  if (doc.errors.length > 0) return { diagnostics };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return error(`invalid YAML: ${(e as Error)?.message ?? String(e)}`);
  }
  if (data === null || data === undefined) return { data: {}, diagnostics };
  if (typeof data !== 'object' || Array.isArray(data))
    return error(`frontmatter must be a mapping (key: value lines), got ${Array.isArray(data) ? 'a list' : typeof data}`);
  return { data: data as Record<string, unknown>, diagnostics };
}
