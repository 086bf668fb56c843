/** Words of the shell model (pins.ts): expansion, tilde, field splitting and globbing as the shell does them. */
import { existsSync, readdirSync, realpathSync } from './observed-fs.js';
import path from 'node:path';
import picomatch from 'picomatch';
import type { CommandExpansionPart, SyntaxNode, Word, WordPart } from 'unbash';
import { changeDirectory } from './directory.js';
import { clone, isKnown, MAX_GLOB_MATCHES, resolveIn, type Arg, type Run, type State } from './model.js';
import { isPathInside } from '../../util/path-inside.js';

interface Piece {
  text: string;
  /** Quoted text: never split, never a glob. */
  quoted: boolean;
  /** Unquoted text that came from an expansion: split on whitespace. */
  expanded?: boolean;
  glob?: boolean;
}

const GLOB_CHARS = /[*?[]/;

function paramValue(_run: Run, st: State, name: string): string | undefined {
  if (name === 'PWD') return st.pwd ?? st.cwd;
  return st.vars.get(name);
}

function expansionValue(run: Run, st: State, part: WordPart): Arg {
  if (part.type === 'SimpleExpansion') {
    const name = part.text.slice(1);
    const v = paramValue(run, st, name);
    return v ?? { unknown: `$${name} has no known value` };
  }
  if (part.type === 'ParameterExpansion') {
    // `${BASH_SOURCE[0]}` is `$BASH_SOURCE`; no other index is known.
    const first = part.index === undefined || (part.parameter === 'BASH_SOURCE' && part.index.value === '0');
    const v = part.prefix === undefined && first ? paramValue(run, st, part.parameter) : undefined;
    const op = part.operation;
    if (op === undefined && v !== undefined) return v;
    // `${BASH_SOURCE%/*}`: the shortest suffix from a `/` removed (no `/`: the value unchanged).
    if (op?.type === 'Remove' && op.operator === '%' && op.operand.value === '/*' && v !== undefined)
      return v.includes('/') ? v.slice(0, v.lastIndexOf('/')) : v;
    if (op?.type === 'Default' && (op.operator === ':-' || op.operator === '-') && v !== undefined && v !== '') return v;
    return { unknown: `${part.text} has no known value` };
  }
  if (part.type === 'CommandExpansion') {
    const inner = part.text
      .replace(/^\$\(|\)$|^`|`$/g, '')
      .trim()
      .replace(/\s+/g, ' ');
    // `pwd` prints $PWD (the directory as `cd` named it), `pwd -P` the real path.
    if (inner === 'pwd') return st.pwd ?? st.cwd ?? { unknown: `${part.text}: the directory cannot be determined` };
    if (inner === 'pwd -P') return st.cwd ?? { unknown: `${part.text}: the directory cannot be determined` };
    if (inner === 'git rev-parse --show-toplevel') {
      const top = run.ctx.gitTopLevel;
      if (top !== undefined && st.cwd !== undefined && isPathInside(st.cwd, top)) return top;
      return { unknown: `${part.text}: not inside the workspace's git work tree` };
    }
    const own = part.type === 'CommandExpansion' ? ownPath(run, st, part) : undefined;
    if (own !== undefined) return isKnown(own) ? own : { unknown: `${part.text}: ${own.unknown}` };
    return { unknown: `${part.text} has no value known before it runs` };
  }
  return { unknown: `${part.text} cannot be evaluated` };
}

function pieces(run: Run, st: State, word: Word): Piece[] | { unknown: string } {
  if (!word.parts) return [{ text: word.value, quoted: false }];
  const out: Piece[] = [];
  for (const part of word.parts) {
    switch (part.type) {
      case 'Literal':
        out.push({ text: part.value, quoted: false });
        break;
      case 'SingleQuoted':
      case 'AnsiCQuoted':
        out.push({ text: part.value, quoted: true });
        break;
      case 'DoubleQuoted':
      case 'LocaleString':
        for (const child of part.parts) {
          if (child.type === 'Literal') out.push({ text: child.value, quoted: true });
          else {
            const v = expansionValue(run, st, child);
            if (!isKnown(v)) return v;
            out.push({ text: v, quoted: true });
          }
        }
        break;
      case 'Glob':
        out.push({ text: part.text, quoted: false, glob: true });
        break;
      case 'SimpleExpansion':
      case 'ParameterExpansion':
      case 'CommandExpansion': {
        const v = expansionValue(run, st, part);
        if (!isKnown(v)) return v;
        if (GLOB_CHARS.test(v)) return { unknown: `${part.text} expands to a glob pattern` };
        out.push({ text: v, quoted: false, expanded: true });
        break;
      }
      default:
        return { unknown: `${part.text} (${part.type}) cannot be evaluated` };
    }
  }
  return out;
}

/** Expand one word to the fields the shell would pass (tilde, splitting, globbing). */
export function evalWord(run: Run, st: State, word: Word): Arg[] {
  const ps = pieces(run, st, word);
  if (!Array.isArray(ps)) return [ps];
  // Tilde: an unquoted leading `~` alone or before `/`.
  const first = ps[0];
  if (first && !first.quoted && !first.expanded && (first.text === '~' || first.text.startsWith('~/'))) {
    ps[0] = { text: run.ctx.homeDir + first.text.slice(1), quoted: true };
  }
  // Field splitting of unquoted expansions.
  const fields: Piece[][] = [[]];
  for (const p of ps) {
    if (p.expanded && /\s/.test(p.text)) {
      const parts = p.text.split(/[ \t\n]+/);
      parts.forEach((t, i) => {
        if (i > 0) fields.push([]);
        if (t !== '') fields[fields.length - 1]!.push({ text: t, quoted: true });
      });
    } else fields[fields.length - 1]!.push(p);
  }
  const out: Arg[] = [];
  for (const f of fields) {
    if (f.length === 0) continue;
    const hasGlob = f.some((p) => p.glob);
    const text = f.map((p) => p.text).join('');
    if (!hasGlob) {
      out.push(text);
      continue;
    }
    out.push(...expandGlob(run, st, f));
  }
  return out;
}

function globEscape(s: string): string {
  return s.replace(/[\\*?[\]{}()!+@|^$.]/g, '\\$&');
}

/** Expand a glob at digest time; the match list is recorded so a new match changes the digest. */
function expandGlob(run: Run, st: State, f: Piece[]): Arg[] {
  const pattern = f.map((p) => (p.glob ? p.text : globEscape(p.text))).join('');
  const shown = f.map((p) => p.text).join('');
  const absolute = shown.startsWith('/');
  const base = absolute ? '/' : st.cwd;
  if (base === undefined) return [{ unknown: `glob ${shown} is relative to a directory that cannot be determined` }];
  const segments = pattern.split('/').filter((s, i) => !(absolute && i === 0 && s === ''));
  let current: string[] = [''];
  for (const seg of segments) {
    const next: string[] = [];
    const literal = !/(^|[^\\])[*?[]/.test(seg);
    for (const prefix of current) {
      const dir = path.join(base, prefix);
      if (literal) {
        const name = seg.replace(/\\(.)/g, '$1');
        if (existsSync(path.join(dir, name))) next.push(prefix ? `${prefix}/${name}` : name);
        continue;
      }
      let names: string[];
      run.pins.listed.push(dir);
      try {
        names = readdirSync(dir).sort();
      } catch {
        continue;
      }
      const match = picomatch(seg, { dot: false, nobrace: true, noextglob: true });
      for (const n of names) if (match(n)) next.push(prefix ? `${prefix}/${n}` : n);
      if (next.length > MAX_GLOB_MATCHES) return [{ unknown: `glob ${shown} matches more than ${MAX_GLOB_MATCHES} paths` }];
    }
    current = next;
  }
  const matches = current.map((m) => (absolute ? `/${m}` : m));
  run.pins.records[`glob:${base}:${shown}`] = JSON.stringify(matches);
  // No match: the shell passes the pattern on unchanged.
  return matches.length > 0 ? matches : [shown];
}

export function evalAssignment(run: Run, st: State, w: Word): Arg {
  // No field splitting or globbing in an assignment value; tilde after `=` does expand.
  const ps = pieces(run, st, w);
  if (!Array.isArray(ps)) return ps;
  const first = ps[0];
  if (first && !first.quoted && !first.expanded && (first.text === '~' || first.text.startsWith('~/')))
    ps[0] = { text: run.ctx.homeDir + first.text.slice(1), quoted: true };
  return ps.map((p) => p.text).join('');
}

const OWN_PATH_COMMANDS = new Set(['cd', 'pwd', 'dirname', 'realpath', 'readlink']);

/** The one simple command of a pipeline node, or undefined. */
function simpleCommand(node: SyntaxNode | undefined): (SyntaxNode & { type: 'Command' }) | undefined {
  if (node?.type === 'Statement' && !node.background) return simpleCommand(node.command);
  if (node?.type === 'Pipeline' && node.commands.length === 1 && node.prefixes.length === 0) return simpleCommand(node.commands[0]);
  return node?.type === 'Command' ? node : undefined;
}

/**
 * The `$(…)` hook scripts use to find their own files: `dirname X`, `realpath X`, `readlink -f X`
 * and `cd X && pwd` (`-P`, `--`, redirections); undefined for any other command. Under a PATH the
 * script assigned, they may be other programs: unknown.
 */
function ownPath(run: Run, st: State, part: CommandExpansionPart): Arg | undefined {
  const nodes = part.script?.commands ?? [];
  const node = nodes.length === 1 && nodes[0]!.type === 'Statement' && !nodes[0]!.background ? nodes[0]!.command : undefined;
  // Words are evaluated only for these commands (a glob elsewhere is not expanded twice).
  const argv = (c: ReturnType<typeof simpleCommand>): Arg[] =>
    c?.name && OWN_PATH_COMMANDS.has(c.name.value)
      ? [c.name, ...c.args].flatMap((w) => (w.type === 'Word' ? evalWord(run, st, w) : [{ unknown: 'an assignment' }]))
      : [];
  if (node?.type === 'AndOr') {
    const [cd, pwd] = [simpleCommand(node.commands[0]), simpleCommand(node.commands[1])];
    const pwdArgv = argv(pwd);
    if (node.commands.length !== 2 || node.operators[0] !== '&&' || !/^pwd( -[LP])?$/.test(pwdArgv.join(' '))) return undefined;
    const cdArgv = argv(cd);
    if (cdArgv[0] !== 'cd' || pwd?.redirects.length) return undefined;
    if (run.pathAssigned) return { unknown: 'PATH was assigned' };
    // dash reads `cd X &>/dev/null` as `cd X &` (a child) and `>/dev/null`.
    if (st.dialect === 'posix' && cd?.redirects.some((r) => r.type === 'Redirect' && r.operator?.startsWith('&>')))
      return { unknown: 'sh runs cd &> in the background' };
    const inner = clone(st);
    changeDirectory(run, inner, 'cd', cdArgv.slice(1));
    const dir = pwdArgv[1] === '-P' ? inner.cwd : (inner.pwd ?? inner.cwd);
    return dir ?? { unknown: 'the directory cannot be determined' };
  }
  const words = argv(simpleCommand(node));
  const name = words[0];
  if (name !== 'dirname' && name !== 'realpath' && !(name === 'readlink' && words[1] === '-f')) return undefined;
  if (run.pathAssigned) return { unknown: 'PATH was assigned' };
  const operands = words.slice(name === 'readlink' ? 2 : 1).filter((w, i) => !(i === 0 && w === '--'));
  const x = operands[0];
  if (operands.length !== 1 || !isKnown(x) || (x.startsWith('-') && x !== '-')) return { unknown: 'its operand cannot be determined' };
  if (name === 'dirname') return path.posix.dirname(x);
  const abs = resolveIn(st, x);
  try {
    return abs === undefined ? { unknown: 'relative to a directory that cannot be determined' } : realpathSync(abs);
  } catch {
    return { unknown: `${x} does not exist` };
  }
}
