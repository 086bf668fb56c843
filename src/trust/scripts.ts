/**
 * Which files a command hook runs, and what they contain.
 *
 * A hook's config is only half of what it does; the script it names is the other half. The
 * digest therefore covers the content of every file a command references by path:
 *
 * - exec form (`args` present): `command` and every `args` element;
 * - shell form: every word of the command line (parsed as Bash by unbash, including words
 *   inside `$(…)`, pipelines and redirections; PowerShell and unparsable lines are split on
 *   whitespace), after placeholder substitution.
 *
 * `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`, `${HOME}` (braced or
 * bare `$NAME`) and a leading `~/` are substituted with the values the hook will get. A word is
 * a path when it is absolute, starts with `./`, `../` or `~/`, or contains a `/` (and no
 * whitespace, glob character or `://`); such a path is recorded even when the file does not
 * exist, so creating it later changes the digest. A bare word (`hook.sh`) is recorded only
 * when it names an existing regular file in the working directory. Relative paths resolve
 * against the workspace directory (the hook's working directory).
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { forEachChild, parse, type SyntaxNode } from 'unbash';
import type { CommandHandler } from '../types.js';

export interface ScriptContext {
  /** Working directory of the hook (the workspace directory). */
  cwd: string;
  projectDir: string;
  pluginRoot?: string;
  pluginData?: string;
  homeDir: string;
}

/** What a referenced path held when it was hashed. */
export type ScriptState =
  | { kind: 'file'; sha256: string; size: number }
  | { kind: 'missing' }
  | { kind: 'directory' }
  /** A FIFO, socket or device: never read. */
  | { kind: 'special' }
  | { kind: 'error'; message: string };

const MAX_WORDS = 4096;

function substitute(word: string, ctx: ScriptContext): string {
  const vars: Record<string, string | undefined> = {
    CLAUDE_PROJECT_DIR: ctx.projectDir,
    CLAUDE_PLUGIN_ROOT: ctx.pluginRoot,
    CLAUDE_PLUGIN_DATA: ctx.pluginData,
    HOME: ctx.homeDir,
  };
  let out = word.replace(/\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|HOME)\}|\$(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|HOME)(?![A-Za-z0-9_])/g, (m, a?: string, b?: string) => vars[(a ?? b)!] ?? m);
  if (out === '~' || out.startsWith('~/')) out = ctx.homeDir + out.slice(1);
  return out;
}

/** Words of a shell-form command line, dequoted. */
function shellWords(command: string, shell: CommandHandler['shell']): string[] {
  const fallback = () => command.split(/\s+/).map((w) => w.replace(/["']/g, '')).filter(Boolean);
  if (shell === 'powershell') return fallback();
  const words: string[] = [];
  let ok = true;
  try {
    const visit = (node: SyntaxNode): void => {
      if (words.length >= MAX_WORDS) return;
      if (node.type === 'Word') words.push(node.value);
      else if (node.type === 'Script' && 'errors' in node && node.errors && node.errors.length > 0) ok = false;
      forEachChild(node, visit);
    };
    visit(parse(command));
  } catch {
    return fallback();
  }
  // Unbash recovers from syntax errors; then add the plain split so nothing a shell might see is missed.
  return ok ? words : [...new Set([...words, ...fallback()])];
}

/** Absolute paths of the files a command hook references (see the module comment), in order, without duplicates. */
export async function referencedScripts(handler: CommandHandler, ctx: ScriptContext): Promise<string[]> {
  const words = handler.args !== undefined ? [handler.command, ...handler.args] : shellWords(handler.command, handler.shell);
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (p: string) => {
    if (!seen.has(p)) {
      seen.add(p);
      out.push(p);
    }
  };
  for (const raw of words) {
    const w = substitute(raw, ctx);
    if (w === '' || w.includes('\0')) continue;
    if (path.isAbsolute(w) || w.startsWith('./') || w.startsWith('../')) {
      add(path.resolve(ctx.cwd, w));
    } else if (w.includes('/') && !/[\s*?]|:\/\//.test(w)) {
      add(path.resolve(ctx.cwd, w));
    } else if (!w.includes('/') && !w.startsWith('-') && !/\s/.test(w)) {
      const candidate = path.resolve(ctx.cwd, w);
      try {
        if ((await fs.stat(candidate)).isFile()) add(candidate);
      } catch {
        // not a file here: a command on PATH or a plain argument
      }
    }
  }
  return out;
}

/** Hash a referenced path. Never throws. */
export async function hashScript(file: string): Promise<ScriptState> {
  let stat;
  try {
    stat = await fs.stat(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', message: `cannot read ${file}: ${code ?? (e as Error).message}` };
  }
  if (stat.isDirectory()) return { kind: 'directory' };
  if (!stat.isFile()) return { kind: 'special' };
  try {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(file)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { kind: 'file', sha256: hash.digest('hex'), size };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { kind: 'error', message: `cannot read ${file}: ${code ?? (e as Error).message}` };
  }
}
