/**
 * Hooks declared in the YAML frontmatter of a skill (`SKILL.md`) or a subagent file
 * (`.claude/agents/<name>.md`). The frontmatter's `hooks` value has the settings shape and goes
 * through the loader's skill path, so validation, provenance (skillRoot + skillName),
 * `${CLAUDE_PLUGIN_ROOT}` = skill root and dedup namespaced by that root are the loader's.
 *
 * Skill vs agent: `once` is honoured only for skills (by the session); an agent's `Stop`
 * hooks become `SubagentStop`. Never throws: problems are path-qualified Diagnostics.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Diagnostic, NormalizedHook } from '../types.js';
import { FRONTMATTER_PATH, parseFrontmatter, type FrontmatterKind } from './frontmatter-parse.js';
import { loadConfig } from './load.js';

export { parseFrontmatter, type FrontmatterKind } from './frontmatter-parse.js';
export { PROJECT_FRONTMATTER_DIRS } from './frontmatter-read.js';

export interface FrontmatterHooks {
  kind: FrontmatterKind;
  /** Absolute path of the .md file. */
  file: string;
  /** Skill/agent root: the file's directory. CLAUDE_PLUGIN_ROOT for its command hooks, and the dedup prefix. */
  root: string;
  /** Frontmatter `name`, else the skill directory's name / the agent file's stem. */
  name: string;
  /** Valid hooks (empty when the file has no `hooks` or any error). */
  hooks: NormalizedHook[];
  diagnostics: Diagnostic[];
}
/** `SKILL.md` is a skill; any other markdown file is taken as a subagent definition. */
function frontmatterKindOf(file: string): FrontmatterKind {
  return path.basename(file).toLowerCase() === 'skill.md' ? 'skill' : 'agent';
}

/** Read a skill or agent file and return its frontmatter hooks, normalized with provenance. */
export async function loadFrontmatterHooks(file: string, opts: { kind?: FrontmatterKind; cwd?: string } = {}): Promise<FrontmatterHooks> {
  const abs = path.resolve(opts.cwd ?? process.cwd(), file);
  const kind = opts.kind ?? frontmatterKindOf(abs);
  const root = path.dirname(abs);
  const fallbackName = kind === 'skill' ? path.basename(root) : path.basename(abs).replace(/\.md$/i, '');
  const result: FrontmatterHooks = { kind, file: abs, root, name: fallbackName, hooks: [], diagnostics: [] };

  let text: string;
  try {
    text = await fs.readFile(abs, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'it is a directory' : (code ?? (e as Error).message);
    result.diagnostics.push({ level: 'error', file: abs, path: FRONTMATTER_PATH, message: `cannot read ${kind} file: ${why}` });
    return result;
  }
  const { data, diagnostics } = parseFrontmatter(text, abs);
  result.diagnostics.push(...diagnostics);
  if (!data) return result;

  if (data.name !== undefined) {
    if (typeof data.name === 'string' && data.name.trim() !== '') result.name = data.name;
    else
      result.diagnostics.push({
        level: 'warning',
        file: abs,
        path: 'name',
        message: `'name' should be a non-empty string; using ${JSON.stringify(fallbackName)}`,
      });
  }
  if (data.hooks === undefined || data.hooks === null) return result;

  const loaded = await loadConfig({
    cwd: root,
    discover: false,
    skills: [{ root, name: result.name, file: abs, hooks: data.hooks, ...(kind === 'agent' ? { agent: true } : {}) }],
  });
  result.diagnostics.push(...loaded.diagnostics);
  result.hooks = loaded.hooks.map((h) => ({ ...h, source: { ...h.source, frontmatter: kind } }));
  return result;
}
