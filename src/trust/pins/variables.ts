/** Builtins of the shell model (shell.ts) that set or unset variables, and what they mean for the pins. */
import { assignedName, isKnown, STEERING_VARIABLES, steeringAssignment, type Arg, type Run, type State } from './model.js';

/**
 * `export`/`declare`/`typeset`/`local`/`readonly`, `unset`, and the builtins that set the variables
 * they name (`read`, `printf -v`, `mapfile`, `getopts`): tracked, and a variable that steers what
 * runs unpins the hook. False for any other command (`printf` without `-v` runs as a program).
 */
export function variableBuiltin(run: Run, st: State, name: string, args: Arg[]): boolean {
  if (name === 'export' || name === 'declare' || name === 'typeset' || name === 'local' || name === 'readonly') {
    for (const a of args) {
      const assign = assignedName(a);
      if (assign !== undefined) {
        steeringAssignment(run, assign, name);
        st.vars.delete(assign);
        if (name === 'export') st.exported.add(assign);
        continue;
      }
      if (!isKnown(a) || a.startsWith('-')) continue;
      const eq = a.indexOf('=');
      const key = eq < 0 ? a : a.slice(0, eq);
      if (eq >= 0) steeringAssignment(run, key, name);
      if (eq >= 0) st.vars.set(key, a.slice(eq + 1));
      if (name === 'export') st.exported.add(key);
    }
    return true;
  }
  if (name === 'unset') {
    for (const a of args) {
      if (!isKnown(a)) continue;
      st.vars.delete(a);
      if (!a.startsWith('-')) steeringAssignment(run, a, 'unset');
    }
    return true;
  }
  // Builtins that set the variables they name (`read PATH`, `printf -v PATH`, `mapfile`, `getopts`).
  if (name === 'read' || name === 'readarray' || name === 'mapfile' || name === 'getopts' || (name === 'printf' && args.includes('-v'))) {
    for (const a of args) {
      if (!isKnown(a) || a.startsWith('-')) continue;
      st.vars.delete(a);
      if (STEERING_VARIABLES.has(a)) steeringAssignment(run, a, name);
    }
    return name !== 'printf';
  }
  return false;
}
