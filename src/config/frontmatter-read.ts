/**
 * Reading skill and subagent frontmatter without loading it: the YAML block, and which files of a
 * project hold hooks the trust review covers. Kept apart from frontmatter.ts (which loads through
 * load.ts) so that load.ts can hand the review those hooks without an import cycle.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { Diagnostic } from '../types.js';
import type { SkillSpec } from './options.js';

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

/** Where a project keeps the skills and subagents whose frontmatter hooks are reviewed with it. */
export const PROJECT_FRONTMATTER_DIRS = { skill: '.claude/skills/<name>/SKILL.md', agent: '.claude/agents/<name>.md' } as const;

async function entries(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch {
    return [];
  }
}

/**
 * The frontmatter `hooks` of the project's skills and subagents (PROJECT_FRONTMATTER_DIRS), as
 * skill specs for the trust review: they run only when invoked, but what runs then must be what
 * was reviewed. Files in `except` (already loaded as skills) are left out; a file without the word
 * `hooks` is not parsed; one that cannot be parsed has none (its diagnostics come when it is invoked).
 */
export async function projectFrontmatterSpecs(
  projectDir: string,
  except: ReadonlySet<string>,
): Promise<Array<{ spec: SkillSpec; kind: FrontmatterKind }>> {
  const claude = path.join(projectDir, '.claude');
  const files: Array<[string, FrontmatterKind]> = [
    ...(await entries(path.join(claude, 'skills'))).map((n): [string, FrontmatterKind] => [
      path.join(claude, 'skills', n, 'SKILL.md'),
      'skill',
    ]),
    ...(await entries(path.join(claude, 'agents')))
      .filter((n) => /\.md$/i.test(n))
      .map((n): [string, FrontmatterKind] => [path.join(claude, 'agents', n), 'agent']),
  ];
  const out: Array<{ spec: SkillSpec; kind: FrontmatterKind }> = [];
  for (const [file, kind] of files) {
    if (except.has(file)) continue;
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    if (!text.includes('hooks')) continue;
    const { data } = parseFrontmatter(text, file);
    if (data?.hooks === undefined || data.hooks === null) continue;
    const root = path.dirname(file);
    const named = typeof data.name === 'string' && data.name.trim() !== '';
    const name = named ? (data.name as string) : kind === 'skill' ? path.basename(root) : path.basename(file).replace(/\.md$/i, '');
    out.push({ spec: { root, name, file, hooks: data.hooks, ...(kind === 'agent' ? { agent: true } : {}) }, kind });
  }
  return out;
}
