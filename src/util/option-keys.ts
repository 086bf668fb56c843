/**
 * The library refuses options it does not know: a misspelled key (`hook` for `hooks`) would
 * otherwise be dropped in silence and leave a guard with nothing to run.
 */
import { closest } from './did-you-mean.js';

/**
 * The known keys of an options interface, written `{ … } satisfies KnownKeys<Options>`: a key
 * added to the interface and not to the list (or listed and not in the interface) does not compile.
 */
export type KnownKeys<T> = Record<keyof T, true>;

/**
 * Throws a TypeError naming the first key of `value` that `known` lacks, with the closest known
 * key when one is near (`createHookEngine: unknown option "hook" (did you mean "hooks"?)`), else
 * the known ones. `prefix` names a nested object (`http.`). A value that is not an object is left
 * to the caller's own checks.
 */
export function checkKnownKeys(where: string, value: unknown, known: Readonly<Record<string, true>>, prefix = '', noun = 'option'): void {
  if (typeof value !== 'object' || value === null) return;
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(known, key)) continue;
    const names = Object.keys(known);
    const near = closest(key, names);
    const hint =
      near !== undefined ? `did you mean ${JSON.stringify(prefix + near)}?` : `known: ${names.map((k) => prefix + k).join(', ')}`;
    throw new TypeError(`${where}: unknown ${noun} ${JSON.stringify(prefix + key)} (${hint})`);
  }
}
