/**
 * Which skill and subagent files of a project hold frontmatter hooks the trust review covers. Kept apart from frontmatter.ts (which loads through
 * load.ts) so that load.ts can hand the review those hooks without an import cycle; `yaml` is
 * loaded only when a file may hold hooks (dispatch in a project without them never loads it),
 * and files are read synchronously, so a one-shot dispatch starts no thread pool for them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FrontmatterKind } from './frontmatter-parse.js';
import type { SkillSpec } from './options.js';

/** Where a project keeps the skills and subagents whose frontmatter hooks are reviewed with it. */
export const PROJECT_FRONTMATTER_DIRS = { skill: '.claude/skills/<name>/SKILL.md', agent: '.claude/agents/<name>.md' } as const;

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
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
    ...entries(path.join(claude, 'skills')).map((n): [string, FrontmatterKind] => [path.join(claude, 'skills', n, 'SKILL.md'), 'skill']),
    ...entries(path.join(claude, 'agents'))
      .filter((n) => /\.md$/i.test(n))
      .map((n): [string, FrontmatterKind] => [path.join(claude, 'agents', n), 'agent']),
  ];
  const out: Array<{ spec: SkillSpec; kind: FrontmatterKind }> = [];
  for (const [file, kind] of files) {
    if (except.has(file)) continue;
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (!text.includes('hooks')) continue;
    const { parseFrontmatter } = await import('./frontmatter-parse.js');
    const { data } = parseFrontmatter(text, file);
    if (data?.hooks === undefined || data.hooks === null) continue;
    const root = path.dirname(file);
    const named = typeof data.name === 'string' && data.name.trim() !== '';
    const name = named ? (data.name as string) : kind === 'skill' ? path.basename(root) : path.basename(file).replace(/\.md$/i, '');
    out.push({ spec: { root, name, file, hooks: data.hooks, ...(kind === 'agent' ? { agent: true } : {}) }, kind });
  }
  return out;
}
