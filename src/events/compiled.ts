/**
 * The compiled validators `npm run build` writes to dist/validators/ (scripts/gen-validators.mjs):
 * accept-first checks. A compiled validator never accepts what zod rejects
 * (test/events/compiled-validators.test.ts), so a caller that gets `true` may skip zod; on
 * `false`, or where none is available (run from the sources, a partial build), zod decides and
 * words the issues as before.
 */
export type CompiledCheck = (value: unknown) => boolean;

import { createRequire } from 'node:module';

// The validators are CommonJS files, so a process whose hook path is CommonJS (the CLI's
// bundles) loads them without starting Node's ES loader; a plain ES module requires them too.
const require = createRequire(import.meta.url);

const loaded = new Map<string, CompiledCheck | null>();

// Relative to this module: a bundle's directory, dist/cli/bundle*/, or dist/events/ (plain
// modules). The bundles' place first: they serve the one-shot processes, where a require that
// misses costs ~0.5 ms (Node probes the path and builds an error); a long-lived host using the
// plain modules misses once per validator, under the package's root, where no such folder is.
const BASES = ['../../validators/', '../validators/'];

/**
 * The validator (`input_<Event>`, `output_<Event>`, `settings`, `pluginHooks`), required on first
 * use and kept; null if none is available.
 */
export function compiledCheck(name: string): CompiledCheck | null {
  let check = loaded.get(name);
  if (check === undefined) {
    check = requireCompiled(name);
    loaded.set(name, check);
  }
  return check;
}

const inputChecks = new Map<string, CompiledCheck | null>();
const outputChecks = new Map<string, CompiledCheck | null>();

/**
 * The event's input (`input_<Event>`) or output (`output_<Event>`) validator, as compiledCheck.
 * Kept per event name apart: the engine asks on every firing, and a name built per call
 * (`input_${event}`) would be a new string to hash each time.
 */
export function eventCheck(kind: 'input' | 'output', event: string): CompiledCheck | null {
  const cache = kind === 'input' ? inputChecks : outputChecks;
  let check = cache.get(event);
  if (check === undefined) {
    check = compiledCheck(`${kind}_${event}`);
    cache.set(event, check);
  }
  return check;
}

function requireCompiled(name: string): CompiledCheck | null {
  for (const base of BASES) {
    try {
      const mod = require(`${base}${name}.cjs`) as { default?: unknown };
      if (typeof mod.default === 'function') return mod.default as CompiledCheck;
    } catch {
      // Not at this place: try the next, then zod alone.
    }
  }
  return null;
}
