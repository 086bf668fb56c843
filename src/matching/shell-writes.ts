/**
 * The files a Bash command may write, for the engine's rule that the agent cannot edit its own
 * guards (src/engine/guarded-files.ts). Read with the same parser as `Bash(…)` rules (unbash):
 * output redirections (`>`, `>>`, `>|`, `&>`, `<>`), the operands of programs that write, move or
 * delete what they name (`tee`, `cp`, `mv`, `rm`, `sed -i`, `dd of=`, …), past the runners that
 * run a command unchanged (`sudo`, `env`, `xargs`: shell-readings.ts) and inside `bash -c`/`eval`
 * texts. A target built from an expansion (`$D/guard.sh`) is kept by its last path segment, which
 * the caller compares with file names only; so is every target once the command changes
 * directory. A command the parser cannot read yields its text, for the same name comparison.
 */
import { forEachChild, parse, type SyntaxNode, type Word } from 'unbash';
import { guardStarts, nestedScripts } from './shell-readings.js';

export interface ShellWrites {
  /** Targets spelt in full (no expansion), as written: resolve them against the command's cwd. */
  readonly paths: readonly string[];
  /** Targets known only by their last segment: an expansion, a `cd` before, a glob. */
  readonly names: readonly string[];
  /** The parser could not read the command: compare `text` with the file names. */
  readonly unread: boolean;
}

const OUTPUT_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
/** Programs whose every operand may be written, moved away or deleted. */
const WRITE_ALL = new Set(['tee', 'rm', 'unlink', 'shred', 'truncate', 'touch', 'chmod', 'chown', 'mv', 'patch']);
/** Programs that write their last operand, or into the directory of `-t DIR`. */
const WRITE_LAST = new Set(['cp', 'install', 'ln', 'rsync']);
const IN_PLACE = new Set(['sed', 'perl', 'ruby', 'gsed']);
const CHANGES_DIR = new Set(['cd', 'pushd', 'popd']);
const MAX_DEPTH = 3;
const DYNAMIC = new Set(['CommandExpansion', 'ProcessSubstitution', 'SimpleExpansion', 'ParameterExpansion', 'ArithmeticExpansion']);

const baseName = (v: string): string => v.slice(v.lastIndexOf('/') + 1);
const isGlob = (w: Word): boolean => /[*?[]/.test(w.text) && w.text === w.value;
type Part = { type: string; parts?: readonly Part[] };
const hasDynamic = (parts: readonly Part[] | undefined): boolean => (parts ?? []).some((p) => DYNAMIC.has(p.type) || hasDynamic(p.parts));
const isDynamic = (w: Word): boolean => hasDynamic(w.parts as readonly Part[] | undefined) || w.text.startsWith('~');

export function shellWrites(command: string): ShellWrites {
  const paths: string[] = [];
  const names: string[] = [];
  let cd = false;
  let unread = false;
  const target = (w: Word): void => {
    if (isDynamic(w) || isGlob(w)) names.push(baseName(w.text.replace(/["'}]+$/, '')));
    else paths.push(w.value);
  };
  const read = (text: string, depth: number): void => {
    let script: SyntaxNode;
    try {
      script = parse(text) as SyntaxNode;
    } catch {
      unread = true;
      return;
    }
    if ('errors' in script && Array.isArray(script.errors) && script.errors.length > 0) unread = true;
    const visit = (node: SyntaxNode): void => {
      if (node.type === 'Command') {
        for (const r of node.redirects ?? []) if (r.type === 'Redirect' && OUTPUT_OPERATORS.has(r.operator) && r.target) target(r.target);
        const words = [node.name, ...(node.suffix ?? [])].filter((w): w is Word => w?.type === 'Word');
        const values = words.map((w) => w.value);
        for (const start of guardStarts(values)) {
          const name = baseName(values[start] ?? '');
          if (CHANGES_DIR.has(name)) cd = true;
          const operands = words.slice(start + 1).filter((w) => !w.value.startsWith('-'));
          if (WRITE_ALL.has(name) || (IN_PLACE.has(name) && values.slice(start + 1).some((v) => /^-[A-Za-z]*i/.test(v)))) {
            operands.forEach(target);
          } else if (WRITE_LAST.has(name) && operands.length > 0) {
            const intoDir = values.slice(start + 1).some((v) => v === '-t' || v.startsWith('--target-directory'));
            if (intoDir) names.push(...operands.map((w) => baseName(w.value)));
            else target(operands[operands.length - 1] as Word);
          } else if (name === 'dd') {
            for (const w of operands) if (w.value.startsWith('of=')) target({ ...w, text: w.text.slice(3), value: w.value.slice(3) });
          }
          if (depth < MAX_DEPTH) for (const nested of nestedScripts(values.slice(start))) read(nested, depth + 1);
          else if (nestedScripts(values.slice(start)).length > 0) unread = true;
        }
      }
      forEachChild(node, visit);
    };
    visit(script);
  };
  read(command, 0);
  if (cd) {
    names.push(...paths.map(baseName));
    paths.length = 0;
  }
  return { paths, names, unread };
}
