/** The working directory of the shell model (shell.ts): `cd` and `pushd`. */
import path from 'node:path';
import { forgetDirectory, hasDotDot, isDir, isKnown, realOr, resolveIn, type Arg, type Run, type State } from './model.js';

/**
 * `cd`/`pushd` as the shells do: by default (`-L`) the target is taken from `$PWD` as text, so
 * `cd lnk && cd ..` is back where it started; `-P` follows links first. Anything else (`cd -`,
 * `pushd -n`, two operands, a missing directory) makes the directory unknown.
 */
export function changeDirectory(run: Run, st: State, name: string, args: Arg[]): undefined {
  // dash has no pushd and takes only -L and -P (anything else fails and leaves the directory), but
  // the sh of macOS, Fedora or Arch is bash, where they work: under sh the directory is unknown.
  const posix = st.dialect === 'posix';
  const options = posix ? /^-[LP]+$/ : /^-[LPe@]+$/;
  let physical = false;
  let i = 0;
  for (; i < args.length && isKnown(args[i]) && options.test(args[i] as string); i++) {
    const letters = (args[i] as string).replace(/[^LP]/g, '');
    if (letters !== '') physical = letters.endsWith('P'); // the last of -L and -P wins
  }
  if (args[i] === '--') i++;
  const operands = args.slice(i);
  const target = operands.length === 0 ? run.ctx.homeDir : operands[0];
  const unknown = (): undefined => {
    forgetDirectory(st);
    return undefined;
  };
  if (posix && (name === 'pushd' || (isKnown(args[i]) && (args[i] as string).startsWith('-') && args[i] !== '-'))) return unknown();
  if (operands.length > 1 || !isKnown(target) || target === '-' || (name === 'pushd' && args.some((a) => a === '-n'))) return unknown();
  const from = st.pwd ?? st.cwd;
  if (!path.isAbsolute(target) && from === undefined) return unknown();
  const logical = path.resolve(from ?? '/', target);
  // bash's -L looks up each name before a `..` (`cd missing/../h` fails there); dash reads it as
  // text and moves. Under bash the cd fails; under sh (either of them) the directory is unknown.
  if (!physical && hasDotDot(target) && !namesBeforeDotDotExist(from ?? '/', target)) return unknown();
  const abs = physical ? resolveIn(st, target) : logical;
  if (abs === undefined || !isDir(abs)) return unknown();
  st.cwd = realOr(abs);
  if (!physical && logical !== st.cwd) st.pwd = logical;
  else delete st.pwd;
  return undefined;
}

/** Whether every name that a `..` in `target` goes up from is a directory, read from `from` as text. */
function namesBeforeDotDotExist(from: string, target: string): boolean {
  let cur = path.isAbsolute(target) ? '/' : from;
  const names = target.split('/');
  for (let i = 0; i < names.length; i++) {
    const n = names[i]!;
    if (n === '' || n === '.') continue;
    if (n === '..') {
      if (!isDir(cur)) return false;
      cur = path.dirname(cur);
    } else cur = path.join(cur, n);
  }
  return true;
}
