/**
 * Where the `if`-rule functions of src/matching/if-rule.ts are found without importing it: that
 * module pulls in the shell parser (unbash) and picomatch, which the lean CLI paths (dispatch,
 * run) load only when a hook has an `if`. if-rule.ts fills the slot when it is evaluated, so a
 * process that imported it anywhere (the library entries, the host, sessions) has the functions
 * at once; otherwise the engine awaits ensureIfRules() (lazy-rules.ts) before planning.
 */

/** The two functions the plan stage needs, over if-rule.ts's own Rule type. */
export interface IfRules<R = unknown> {
  parseRule(text: string): { ok: true; rule: R } | { ok: false; error: string; unbounded?: true };
  matchRule(
    rule: R,
    toolName: string,
    toolInput: unknown,
    ctx: { cwd: string; homeDir?: string; projectDir?: string; foldCase?: boolean; ignoreCase?: boolean },
  ): boolean;
}

let rules: IfRules | undefined;

/** Called once by if-rule.ts when it is evaluated. */
export function provideIfRules<R>(r: IfRules<R>): void {
  rules = r as unknown as IfRules;
}

/** The loaded functions, or undefined while if-rule.ts has not been loaded. */
export function ifRules<R>(): IfRules<R> | undefined {
  return rules as IfRules<R> | undefined;
}
