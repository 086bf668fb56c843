/**
 * Loads src/matching/if-rule.ts (and with it unbash and picomatch) on first need and remembers
 * the outcome: the engine awaits this before planning when its index holds an `if` it could not
 * parse yet (src/engine/hooks.ts readyIndex).
 */
import { ifRules } from './rule-slot.js';

let loading: Promise<string | undefined> | undefined;

/**
 * Resolves to undefined once the `if`-rule functions are in the slot, or to the reason they could
 * not load (never rejects; a failure is not kept, so the next firing tries again). `load` is for tests.
 */
export function ensureIfRules(load: () => Promise<unknown> = () => import('./if-rule.js')): Promise<string | undefined> {
  if (ifRules()) return Promise.resolve(undefined);
  loading ??= load().then(
    () => (ifRules() ? undefined : 'src/matching/if-rule.ts did not register its functions'),
    (err: unknown) => {
      loading = undefined;
      return err instanceof Error ? err.message : String(err);
    },
  );
  return loading;
}
