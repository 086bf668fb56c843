/** Interpreters and package runners of the shell model (pins.ts): which script each one runs. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Redirection } from 'unbash';
import { isDir, isKnown, pinFile, pinScript, pinTree, referencedArgs, unpin, type Arg, type Run, type State } from './model.js';
import { evalWord } from './words.js';

/** An interpreter without a script reads it from stdin: follow `< file` and literal here-docs. */
export function stdinScript(
  run: Run,
  st: State,
  base: string,
  redirects: readonly Redirection[],
  depth: number,
  literal?: (text: string) => void,
): void {
  void depth;
  const input = redirects.find(
    (r) =>
      (r.type === 'Redirect' &&
        r.operator === '<' &&
        (r.descriptor === undefined || (r.descriptor.type === 'FileDescriptor' && r.descriptor.value === 0))) ||
      r.type === 'HereDoc' ||
      r.type === 'HereString',
  );
  if (!input) return; // stdin is the hook payload (JSON), or a pipe (see Pipeline)
  if (input.type === 'Redirect') {
    const target = input.target;
    const v = target ? evalWord(run, st, target) : [];
    if (v.length !== 1 || !isKnown(v[0])) {
      unpin(run, `${base} reads its script from a file that cannot be determined`);
      return;
    }
    pinScript(run, st, v[0], base);
    return;
  }
  if (input.type === 'HereDoc' && literal && (input.delimiter?.quoted || !input.body.parts?.some((p) => p.type !== 'Literal'))) {
    literal(input.body.text);
    return;
  }
  unpin(run, `${base} reads its script from a here-document or here-string that is not modelled`);
}

export function modelPython(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) {
      unpin(run, `${base} is given an argument that cannot be determined (${a.unknown})`);
      return;
    }
    if (a === '-c' || (a.startsWith('-c') && !a.startsWith('--'))) {
      referencedArgs(run, st, args.slice(i + 2));
      return; // inline code: it is in the config itself
    }
    if (a === '-m') {
      const mod = args[i + 1];
      if (!isKnown(mod)) {
        unpin(run, `${base} -m runs a module that cannot be determined`);
        return;
      }
      // sys.path[0] is the current directory for -m: a module there is the one that runs.
      if (st.cwd === undefined) {
        unpin(run, `${base} -m ${mod}: the directory it searches cannot be determined`);
        return;
      }
      const rel = mod.split('.').join('/');
      const asDir = path.resolve(st.cwd, rel);
      const asFile = path.resolve(st.cwd, `${rel}.py`);
      if (isDir(asDir)) pinTree(run, asDir);
      else pinFile(run, asFile); // recorded even when missing: creating it changes what runs
      referencedArgs(run, st, args.slice(i + 2));
      return;
    }
    if (a === '-W' || a === '-X' || a === '-Q') {
      i++;
      continue;
    }
    if (a === '-') {
      unpin(run, `${base} - reads its script from stdin`);
      return;
    }
    if (a.startsWith('-')) continue;
    pinScript(run, st, a, base);
    referencedArgs(run, st, args.slice(i + 1));
    return;
  }
  stdinScript(run, st, base, redirects, 0);
}

export function modelNode2(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) {
      unpin(run, `${base} is given an argument that cannot be determined (${a.unknown})`);
      return;
    }
    if (a === '-e' || a === '--eval' || a === '-p' || a === '--print') {
      referencedArgs(run, st, args.slice(i + 2));
      return;
    }
    if (a === '-r' || a === '--require' || a === '--import' || a === '--loader' || a === '--experimental-loader' || a === '--preload') {
      const m = args[i + 1];
      if (!isKnown(m)) {
        unpin(run, `${base} ${a} loads a module that cannot be determined`);
        return;
      }
      if (m.startsWith('.') || m.startsWith('/')) pinScript(run, st, m, base);
      i++;
      continue;
    }
    if (a === '-') {
      unpin(run, `${base} - reads its script from stdin`);
      return;
    }
    if (a.startsWith('-')) continue;
    pinScript(run, st, a, base);
    referencedArgs(run, st, args.slice(i + 1));
    return;
  }
  stdinScript(run, st, base, redirects, 0);
}

export function modelScripted(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  const awk = base === 'awk' || base === 'gawk';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!isKnown(a)) {
      unpin(run, `${base} is given an argument that cannot be determined (${a.unknown})`);
      return;
    }
    if (awk) {
      if (a === '-f') {
        const f = args[i + 1];
        if (!isKnown(f)) {
          unpin(run, `${base} -f of a file that cannot be determined`);
          return;
        }
        pinScript(run, st, f, base);
        i++;
        continue;
      }
      if (a === '-v' || a === '-F') {
        i++;
        continue;
      }
      if (a.startsWith('-')) continue;
      referencedArgs(run, st, args.slice(i + 1)); // program text inline, then input files
      return;
    }
    if (a === '-e' || a === '-E' || a === '-r') {
      referencedArgs(run, st, args.slice(i + 2));
      return;
    }
    if (a === '-I') {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    pinScript(run, st, a, base);
    referencedArgs(run, st, args.slice(i + 1));
    return;
  }
  if (!awk) stdinScript(run, st, base, redirects, 0);
}

export function modelNpx(run: Run, st: State, base: string, args: Arg[]): void {
  let i = 0;
  while (isKnown(args[i]) && (args[i] as string).startsWith('-')) i += args[i] === '-p' || args[i] === '--package' ? 2 : 1;
  const bin = args[i];
  if (!isKnown(bin)) {
    unpin(run, `${base} runs a package that cannot be determined`);
    return;
  }
  if (bin.includes('/')) {
    pinScript(run, st, bin, base);
    return;
  }
  if (st.cwd === undefined) {
    unpin(run, `${base} ${bin}: the directory it searches cannot be determined`);
    return;
  }
  // npx looks in node_modules/.bin of the current directory and its parents within the package.
  for (let dir = st.cwd; ; dir = path.dirname(dir)) {
    const cand = path.join(dir, 'node_modules', '.bin', bin);
    if (existsSync(cand)) {
      pinFile(run, cand);
      referencedArgs(run, st, args.slice(i + 1));
      return;
    }
    if (path.dirname(dir) === dir || (run.ctx.gitTopLevel !== undefined && dir === run.ctx.gitTopLevel) || dir === run.ctx.projectDir)
      break;
  }
  pinFile(run, path.join(st.cwd, 'node_modules', '.bin', bin)); // creating it would change what runs
  unpin(run, `${base} ${bin} is not installed in the workspace: it would run a package fetched or found elsewhere`);
}

export function modelPackageRunner(run: Run, st: State, base: string, args: Arg[]): void {
  const sub = args.find((a) => !(isKnown(a) && a.startsWith('-')));
  if (st.cwd !== undefined) pinFile(run, path.join(st.cwd, 'package.json'));
  if (isKnown(sub) && (sub === 'exec' || sub === 'dlx' || sub === 'x'))
    modelNpx(run, st, `${base} ${sub}`, args.slice(args.indexOf(sub) + 1));
  else unpin(run, `${base} ${isKnown(sub) ? sub : '…'} runs what package.json (or the package manager) says; that is not modelled`);
}
