/** Glob (picomatch) and Grep (JavaScript RegExp): searches confined to the workspace. */
import type { Dirent } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { ToolError, type HostTool, type ToolContext } from '../types.js';
import { confine } from './workspace.js';

const absolutePath = z
  .string()
  .min(1)
  .refine((p) => path.isAbsolute(p), { message: 'must be an absolute path' });
const SKIP_DIRS = new Set(['.git', 'node_modules']);
const MAX_FILES_WALKED = 50_000;
const MAX_GREP_FILE_BYTES = 5 * 1024 * 1024;

/** Files under `root` (relative paths with `/`), skipping .git and node_modules; symlinks are not followed. */
async function walk(root: string, signal: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    if (signal.aborted) throw new ToolError('search was interrupted');
    const rel = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) stack.push(child);
      } else if (e.isFile()) {
        out.push(child);
        if (out.length >= MAX_FILES_WALKED) return out;
      }
    }
  }
  return out;
}

async function searchRoot(p: string | undefined, ctx: ToolContext): Promise<{ root: string; single?: string }> {
  const root = confine(p ?? ctx.cwd, ctx.workspace, ctx.cwd, ctx.roots);
  const stat = await fs.stat(root).catch(() => undefined);
  if (!stat) throw new ToolError(`Path does not exist: ${root}`);
  return stat.isFile() ? { root: path.dirname(root), single: path.basename(root) } : { root };
}

const globInput = z.strictObject({ pattern: z.string().min(1), path: absolutePath.optional() });
const GLOB_LIMIT = 100;
export function globTool(): HostTool<z.infer<typeof globInput>> {
  return {
    name: 'Glob',
    description: 'Find files by glob pattern (e.g. **/*.ts); newest first.',
    inputSchema: globInput,
    readOnly: true,
    async run(args, ctx) {
      const { root } = await searchRoot(args.path, ctx);
      const isMatch = picomatch(args.pattern, { dot: true });
      const hits = (await walk(root, ctx.signal)).filter((rel) => isMatch(rel));
      const withTime = await Promise.all(
        hits.map(async (rel) => ({
          file: path.join(root, rel),
          mtime: (await fs.stat(path.join(root, rel)).catch(() => undefined))?.mtimeMs ?? 0,
        })),
      );
      withTime.sort((a, b) => b.mtime - a.mtime || a.file.localeCompare(b.file));
      const filenames = withTime.slice(0, GLOB_LIMIT).map((h) => h.file);
      const truncated = withTime.length > GLOB_LIMIT;
      return {
        output: { filenames, numFiles: filenames.length, truncated },
        content: filenames.length === 0 ? 'No files found' : `${filenames.join('\n')}${truncated ? '\n(results truncated)' : ''}`,
      };
    },
  };
}

const grepInput = z.strictObject({
  pattern: z.string().min(1),
  path: absolutePath.optional(),
  glob: z.string().optional(),
  output_mode: z.enum(['content', 'files_with_matches', 'count']).optional(),
  '-i': z.boolean().optional(),
  '-n': z.boolean().optional(),
  multiline: z.boolean().optional(),
  head_limit: z.number().int().positive().optional(),
});
export function grepTool(): HostTool<z.infer<typeof grepInput>> {
  return {
    name: 'Grep',
    description: 'Search file contents with a regular expression (JavaScript syntax).',
    inputSchema: grepInput,
    readOnly: true,
    async run(args, ctx) {
      let re: RegExp;
      try {
        re = new RegExp(args.pattern, `${args['-i'] ? 'i' : ''}${args.multiline ? 'gms' : 'g'}`);
      } catch (e) {
        throw new ToolError(`invalid regular expression: ${(e as Error).message}`);
      }
      const { root, single } = await searchRoot(args.path, ctx);
      const filter = args.glob ? picomatch(args.glob, { dot: true, basename: !args.glob.includes('/') }) : () => true;
      const files = (single ? [single] : await walk(root, ctx.signal)).filter((rel) => filter(rel)).sort();
      const mode = args.output_mode ?? 'files_with_matches';
      const limit = args.head_limit ?? Infinity;
      const lines: string[] = [];
      const counts: Record<string, number> = {};
      const matched: string[] = [];
      for (const rel of files) {
        if (lines.length >= limit || matched.length >= limit) break;
        const file = path.join(root, rel);
        const stat = await fs.stat(file).catch(() => undefined);
        if (!stat || stat.size > MAX_GREP_FILE_BYTES) continue;
        const buf = await fs.readFile(file).catch(() => undefined);
        if (!buf || buf.subarray(0, 8192).includes(0)) continue; // binary
        const text = buf.toString('utf8');
        let n = 0;
        if (args.multiline) {
          n = [...text.matchAll(re)].length;
          if (n > 0 && mode === 'content') for (const m of text.matchAll(re)) lines.push(`${file}:${m[0]}`);
        } else {
          const split = text.split('\n');
          split.forEach((line, i) => {
            re.lastIndex = 0;
            if (re.test(line)) {
              n++;
              if (mode === 'content' && lines.length < limit) lines.push(`${file}:${args['-n'] === false ? '' : `${i + 1}:`}${line}`);
            }
          });
        }
        if (n > 0) {
          matched.push(file);
          counts[file] = n;
        }
      }
      if (mode === 'content') {
        const shown = lines.slice(0, limit === Infinity ? undefined : limit);
        return {
          output: { mode, content: shown.join('\n'), numLines: shown.length, numFiles: matched.length },
          content: shown.length ? shown.join('\n') : 'No matches found',
        };
      }
      if (mode === 'count') {
        const shown = matched.slice(0, limit === Infinity ? undefined : limit);
        const text = shown.map((f) => `${f}:${counts[f]}`).join('\n');
        return {
          output: { mode, counts: Object.fromEntries(shown.map((f) => [f, counts[f]])), numFiles: shown.length },
          content: text || 'No matches found',
        };
      }
      const shown = matched.slice(0, limit === Infinity ? undefined : limit);
      return { output: { mode, filenames: shown, numFiles: shown.length }, content: shown.length ? shown.join('\n') : 'No files found' };
    },
  };
}
