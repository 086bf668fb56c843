/** The working directory of the shell model (shell.ts): `cd` and `pushd`. */
import path from 'node:path';
import { isDir, isKnown, realOr, resolveIn, type Arg, type Run, type State } from './model.js';

/**
 * `cd`/`pushd` as the shells do: by default (`-L`) the target is taken from `$PWD` as text, so
 * `cd lnk && cd ..` is back where it started; `-P` follows links first. Anything else (`cd -`,
 * `pushd -n`, two operands, a missing directory) makes the directory unknown.
 */
export function changeDirectory(run: Run, st: State, name: string, args: Arg[]): undefined {
  let physical = false;
  let i = 0;
  for (; i < args.length && isKnown(args[i]) && /^-[LPe@]+$/.test(args[i] as string); i++) physical = (args[i] as string).includes('P');
  if (args[i] === '--') i++;
  const operands = args.slice(i);
  const target = operands.length === 0 ? run.ctx.homeDir : operands[0];
  const unknown = (): undefined => {
    st.cwd = undefined;
    delete st.pwd;
    return undefined;
  };
  if (operands.length > 1 || !isKnown(target) || target === '-' || (name === 'pushd' && args.some((a) => a === '-n'))) return unknown();
  const from = st.pwd ?? st.cwd;
  if (!path.isAbsolute(target) && from === undefined) return unknown();
  const logical = path.resolve(from ?? '/', target);
  const abs = physical ? resolveIn(st, target) : logical;
  if (abs === undefined || !isDir(abs)) return unknown();
  st.cwd = realOr(abs);
  if (!physical && logical !== st.cwd) st.pwd = logical;
  else delete st.pwd;
  return undefined;
}
