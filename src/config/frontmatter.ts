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
import { parseDocument } from 'yaml';
import type { Diagnostic, NormalizedHook } from '../types.js';
import { loadConfig } from './load.js';

export type FrontmatterKind = 'skill' | 'agent';

/** Where frontmatter diagnostics point when no finer path exists. */
const FRONTMATTER_PATH = '(frontmatter)';

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
  result.hooks = loaded.hooks;
  return result;
}
