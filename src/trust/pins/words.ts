/** Words of the shell model (pins.ts): expansion, tilde, field splitting and globbing as the shell does them. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { Word, WordPart } from 'unbash';
import { isKnown, MAX_GLOB_MATCHES, type Arg, type Run, type State } from './model.js';
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
    const v = part.prefix === undefined && part.index === undefined ? paramValue(run, st, part.parameter) : undefined;
    const op = part.operation;
    if (op === undefined && v !== undefined) return v;
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
