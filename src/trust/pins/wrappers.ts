/** Wrappers of the shell model (pins.ts): the command `exec`, `env`, `timeout`, `nice`… run. */
import { isKnown, type Arg } from './model.js';

/** The command a wrapper runs, or undefined when its options cannot be followed. */
export function unwrap(base: string, args: Arg[], env: Map<string, Arg>): Arg[] | undefined {
  let i = 0;
  const opt = (a: Arg | undefined) => isKnown(a) && a.startsWith('-') && a !== '-' && a !== '--';
  const skipDashDash = () => {
    if (args[i] === '--') i++;
  };
  switch (base) {
    case 'exec':
      while (opt(args[i])) i += args[i] === '-a' ? 2 : 1;
      break;
    case 'command':
      if (args.some((a) => a === '-v' || a === '-V')) return [];
      while (opt(args[i])) i++;
      break;
    case 'builtin':
    case 'nohup':
    case 'chronic':
      skipDashDash();
      break;
    case 'time':
      while (opt(args[i])) i += args[i] === '-f' || args[i] === '-o' ? 2 : 1;
      break;
    case 'nice':
    case 'ionice':
      while (opt(args[i])) i += /^-[nct]$/.test(args[i] as string) ? 2 : 1;
      skipDashDash();
      break;
    case 'stdbuf':
      while (opt(args[i])) i += /^-[ioe]$/.test(args[i] as string) ? 2 : 1;
      skipDashDash();
      break;
    case 'timeout':
      while (opt(args[i])) i += args[i] === '-s' || args[i] === '-k' ? 2 : 1;
      skipDashDash();
      i++; // the duration
      break;
    case 'env':
      for (;;) {
        const a = args[i];
        if (a === undefined) break;
        if (!isKnown(a)) {
          if ((a as { assign?: string }).assign !== undefined) {
            env.set((a as { assign?: string }).assign!, a);
            i++;
            continue;
          }
          break;
        }
        if (a === '-u' || a === '-C') {
          if (a === '-C') return undefined; // a different directory
          i += 2;
        } else if (a === '-S' || a.startsWith('--split-string')) return undefined;
        else if (opt(a)) i++;
        else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
          const eq = a.indexOf('=');
          env.set(a.slice(0, eq), a.slice(eq + 1));
          i++;
        } else break;
      }
      skipDashDash();
      break;
  }
  return args.slice(i);
}
