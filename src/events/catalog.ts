/**
 * The event catalog: the single source of truth for every hook event. Two halves:
 * - facts.ts (zod-free): names, order, flags, matcher field, decision model, merge rules per
 *   output field, plan-mode and bypass behaviour, continuation caps, prompt-hook verdicts;
 * - schemas.ts: the input/output zod schemas keyed by the same names, and the types derived from them.
 * This module re-exports both; lean modules import facts.js directly so they never load zod.
 */
export * from './facts.js';
export * from './schemas.js';
