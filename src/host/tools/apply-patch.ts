/**
 * ApplyPatch: the apply_patch envelope (Codex's format), applied all or nothing.
 *
 *   *** Begin Patch
 *   *** Add File: path        followed by `+` lines
 *   *** Delete File: path
 *   *** Update File: path     optionally `*** Move to: path`, then hunks:
 *   @@ [context line]         ` ` keep, `-` remove, `+` add
 *   *** End Patch
 *
 * Paths are absolute or relative to the call's working directory; every one (rename targets
 * included) must lie inside the workspace.
 */
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { ToolError, type HostTool } from '../types.js';
import { confine, writeInside } from './workspace.js';

type Hunk = { context?: string; lines: Array<{ op: ' ' | '-' | '+'; text: string }> };
export type PatchOp =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; hunks: Hunk[] };

class PatchParseError extends ToolError {}

export function parsePatch(text: string): PatchOp[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  if (lines[i]?.trim() !== '*** Begin Patch') throw new PatchParseError('patch must start with "*** Begin Patch"');
  if (lines[lines.length - 1]?.trim() !== '*** End Patch') throw new PatchParseError('patch must end with "*** End Patch"');
  const body = lines.slice(i + 1, -1);
  const ops: PatchOp[] = [];
  let n = 0;
  const header = (line: string, tag: string) => (line.startsWith(`*** ${tag}: `) ? line.slice(tag.length + 6).trim() : undefined);
  while (n < body.length) {
    const line = body[n]!;
    const add = header(line, 'Add File');
    const del = header(line, 'Delete File');
    const upd = header(line, 'Update File');
    n++;
    if (add !== undefined) {
      const content: string[] = [];
      while (n < body.length && !body[n]!.startsWith('*** ')) {
        const l = body[n++]!;
        if (!l.startsWith('+')) throw new PatchParseError(`line ${n + i + 1}: an added file's lines must start with "+"`);
        content.push(l.slice(1));
      }
      ops.push({ kind: 'add', path: add, content: content.length ? `${content.join('\n')}\n` : '' });
    } else if (del !== undefined) {
      ops.push({ kind: 'delete', path: del });
    } else if (upd !== undefined) {
      const op: PatchOp = { kind: 'update', path: upd, hunks: [] };
      const move = body[n] !== undefined ? header(body[n]!, 'Move to') : undefined;
      if (move !== undefined) {
        op.moveTo = move;
        n++;
      }
      let hunk: Hunk | undefined;
      while (n < body.length && !(body[n]!.startsWith('*** ') && body[n] !== '*** End of File')) {
        const l = body[n++]!;
        if (l === '*** End of File') continue;
        if (l.startsWith('@@')) {
          hunk = { lines: [] };
          const ctxLine = l.slice(2).trim();
          if (ctxLine) hunk.context = ctxLine;
          op.hunks.push(hunk);
          continue;
        }
        const c = l[0] ?? ' ';
        if (c !== ' ' && c !== '-' && c !== '+') throw new PatchParseError(`line ${n + i + 1}: hunk lines must start with " ", "-" or "+"`);
        if (!hunk) {
          hunk = { lines: [] };
          op.hunks.push(hunk);
        }
        hunk.lines.push({ op: c, text: l.slice(1) });
      }
      if (op.hunks.length === 0 && !op.moveTo) throw new PatchParseError(`Update File ${upd}: no hunks`);
      ops.push(op);
    } else {
      throw new PatchParseError(
        `line ${n + i}: expected "*** Add File:", "*** Delete File:" or "*** Update File:", got ${JSON.stringify(line)}`,
      );
    }
  }
  if (ops.length === 0) throw new PatchParseError('patch contains no file operations');
  return ops;
}

function findSeq(hay: string[], needle: string[], from: number): number {
  for (let s = from; s + needle.length <= hay.length; s++) {
    if (needle.every((l, k) => hay[s + k] === l)) return s;
  }
  // Tolerate trailing whitespace differences, as patch tools do.
  for (let s = from; s + needle.length <= hay.length; s++) {
    if (needle.every((l, k) => hay[s + k]!.trimEnd() === l.trimEnd())) return s;
  }
  return -1;
}

function applyHunks(original: string, hunks: Hunk[], file: string): string {
  const eol = original.endsWith('\n');
  const lines = original === '' ? [] : (eol ? original.slice(0, -1) : original).split('\n');
  let cursor = 0;
  for (const [h, hunk] of hunks.entries()) {
    if (hunk.context !== undefined) {
      const at = findSeq(lines, [hunk.context], cursor);
      if (at < 0) throw new ToolError(`${file}: hunk ${h + 1}: context line ${JSON.stringify(hunk.context)} not found`);
      cursor = at + 1;
    }
    const old = hunk.lines.filter((l) => l.op !== '+').map((l) => l.text);
    const neu = hunk.lines.filter((l) => l.op !== '-').map((l) => l.text);
    const at = old.length === 0 ? (hunk.context !== undefined ? cursor : lines.length) : findSeq(lines, old, cursor);
    if (at < 0) throw new ToolError(`${file}: hunk ${h + 1} does not apply (lines to replace not found)`);
    lines.splice(at, old.length, ...neu);
    cursor = at + neu.length;
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

const input = z.strictObject({ patch: z.string().min(1) });
export function applyPatchTool(): HostTool<z.infer<typeof input>> {
  return {
    name: 'ApplyPatch',
    description: 'Apply a multi-file patch in the apply_patch format (Begin Patch / Add, Update, Delete File / End Patch).',
    inputSchema: input,
    edits: true,
    async run(args, ctx) {
      const ops = parsePatch(args.patch);
      // Plan every write first: a hunk that does not apply leaves every file untouched.
      const writes = new Map<string, string | null>();
      const read = async (p: string) => {
        if (writes.has(p)) {
          const v = writes.get(p);
          if (v === null || v === undefined) throw new ToolError(`${p} was deleted earlier in this patch`);
          return v;
        }
        try {
          return await fs.readFile(p, 'utf8');
        } catch {
          throw new ToolError(`File does not exist: ${p}`);
        }
      };
      const summary: string[] = [];
      for (const op of ops) {
        const file = confine(op.path, ctx.workspace, ctx.cwd, ctx.roots);
        if (op.kind === 'add') {
          writes.set(file, op.content);
          summary.push(`A ${file}`);
        } else if (op.kind === 'delete') {
          await read(file);
          writes.set(file, null);
          summary.push(`D ${file}`);
        } else {
          const next = applyHunks(await read(file), op.hunks, file);
          if (op.moveTo !== undefined) {
            const target = confine(op.moveTo, ctx.workspace, ctx.cwd, ctx.roots);
            writes.set(file, null);
            writes.set(target, next);
            summary.push(`R ${file} -> ${target}`);
          } else {
            writes.set(file, next);
            summary.push(`M ${file}`);
          }
        }
      }
      for (const [file, content] of writes) {
        if (content === null) await fs.rm(file, { force: true });
        else {
          await writeInside(file, content, ctx.workspace, ctx.roots);
        }
      }
      return { output: { changes: summary }, content: `Applied patch:\n${summary.join('\n')}` };
    },
  };
}
