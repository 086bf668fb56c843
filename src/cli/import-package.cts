/**
 * import() of a package, for the CommonJS bundles of dispatch and `run`. Their files may be
 * compiled through node:vm to use a V8 code cache (./code-cache.cts), and code compiled there
 * has no import() on Node 20; this file is always compiled by Node itself. It sits in the
 * package next to the bundles, so a specifier resolves to the same node_modules as from them.
 */
export function importPackage(specifier: string): Promise<unknown> {
  return import(specifier);
}
