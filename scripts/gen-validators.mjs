// Build step after tsc: compiles the zod schemas that accept hook input, hook output and settings
// files into standalone validators (dist/validators/<name>.cjs), so an accepting path can
// validate without evaluating zod (docs/performance.md, "Start-up with hooks to run"). zod stays the
// authority: a compiled validator may only accept what zod accepts; what it rejects goes to zod,
// which decides and words the diagnostics. test/events/compiled-validators.test.ts checks that
// on random and mutated values.
//
// Route: z.toJSONSchema() → a few rewrites where JSON Schema and zod differ (below) → ajv's
// standalone code (ESM) → esbuild inlines ajv's small runtime helpers, so the output needs no
// package at run time (ajv and esbuild are dev dependencies).
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Exported name of each validator: `input_<Event>`, `output_<Event>`, `settings`, `pluginHooks`, `trustStore`. */
export function validatorNames(eventNames) {
  return [...eventNames.flatMap((e) => [`input_${e}`, `output_${e}`]), 'settings', 'pluginHooks', 'trustStore'];
}

/**
 * Where JSON Schema would accept more than zod, the schema is narrowed (never widened):
 * - a record (`propertyNames` without `properties`): zod accepts plain objects only (not a Date
 *   or a class instance, which JSON Schema's "object" admits) → keyword `plainObject`;
 * - a `format` (z.url(): zod parses with `new URL()` and a protocol check JSON Schema cannot
 *   say) → always rejected, so such values are decided by zod;
 * - not a rewrite, ajv's own: a required key present with the value `undefined` counts as
 *   missing, while zod accepts it for a z.unknown() field (JSON text cannot give `undefined`).
 */
export function narrow(node) {
  if (Array.isArray(node)) return node.map(narrow);
  if (!node || typeof node !== 'object') return node;
  if (typeof node.format === 'string') return { not: {} };
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'const' || k === 'enum' ? v : narrow(v);
  if (out.propertyNames && !out.properties) out.plainObject = true;
  return collapse(out);
}

/**
 * A strict object whose optional properties all share one schema (the settings' `hooks`: one key
 * per event, each an array of matcher groups) → the same constraint as a key enumeration, so
 * the code checks the shared schema once instead of once per event (a third of the size).
 * Narrower only for a key present with the value `undefined` (zod: absent), which JSON text
 * cannot give; settings files are only ever read from JSON.
 */
function collapse(node) {
  const keys = node.properties ? Object.keys(node.properties) : [];
  if (node.additionalProperties !== false || keys.length < 2 || (node.required?.length ?? 0) > 0) return node;
  const first = JSON.stringify(node.properties[keys[0]]);
  if (!keys.every((k) => JSON.stringify(node.properties[k]) === first)) return node;
  const { properties, additionalProperties, required, ...rest } = node;
  return { ...rest, propertyNames: { enum: keys }, additionalProperties: properties[keys[0]] };
}

/** JSON Schemas, by validator name, derived from the zod schemas (src/events/schemas.ts, src/config/schema.ts). */
export function validatorSchemas({
  z,
  eventNames,
  inputSchema,
  outputSchema,
  settingsJsonSchema,
  pluginHooksJsonSchema,
  trustStoreSchema,
}) {
  const strip = ({ $schema, $id, title, ...rest }) => narrow(rest);
  const out = {};
  for (const e of eventNames) {
    out[`input_${e}`] = strip(z.toJSONSchema(inputSchema(e), { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }));
    out[`output_${e}`] = strip(z.toJSONSchema(outputSchema(e), { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }));
  }
  // The published derivations: shared parts once in `$defs`, handlers chosen by `type` (the
  // same accept/reject as zod's discriminated union; the differential test checks it).
  out.settings = strip(settingsJsonSchema());
  out.pluginHooks = strip(pluginHooksJsonSchema());
  // The trust store's objects strip unknown keys in zod; its output form closes them, so the
  // compiled validator accepts only what zod accepts and returns unchanged (src/trust/store.ts
  // uses the document as it is when accepted).
  out.trustStore = strip(z.toJSONSchema(trustStoreSchema(), { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' }));
  return out;
}

/**
 * `plainObject`: what zod's records accept (util.isPlainObject), narrowed to what is cheap to
 * check: prototype Object.prototype or null, and no own function-valued `constructor`.
 */
function plainObjectKeyword(_) {
  return {
    keyword: 'plainObject',
    type: 'object',
    schemaType: 'boolean',
    code(cxt) {
      const d = cxt.data;
      cxt.fail(
        _`(Object.getPrototypeOf(${d}) !== Object.prototype && Object.getPrototypeOf(${d}) !== null) || (Object.prototype.hasOwnProperty.call(${d}, "constructor") && typeof ${d}.constructor === "function")`,
      );
    },
  };
}

/** sha256 of each validator's JSON Schema, by name. */
export function schemaDigests(schemas) {
  return Object.fromEntries(Object.entries(schemas).map(([n, s]) => [n, createHash('sha256').update(JSON.stringify(s)).digest('hex')]));
}

/** An ajv instance with the options the generated code uses (the test compiles with the same). */
export async function createAjv({ standalone }) {
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const { _ } = await import('ajv');
  const ajv = new Ajv2020({
    // zod rejects NaN and ±Infinity as numbers.
    strictNumbers: true,
    allowUnionTypes: true,
    strict: true,
    allErrors: false,
    // Shared parts ($defs: matcher group, handlers) compiled once, not once per event.
    inlineRefs: false,
    validateFormats: false,
    code: standalone ? { source: true, esm: true, optimize: true } : { optimize: true },
  });
  ajv.addKeyword(plainObjectKeyword(_));
  return ajv;
}

/** A standalone module's source (before bundling): its default export validates `schema`. */
export async function standaloneSource(schema) {
  const ajv = await createAjv({ standalone: true });
  const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
  return standaloneCode(ajv, ajv.compile(schema));
}

/**
 * The settings validator in two files: `settings-core` checks everything but the value of
 * `agentHooks` (any value there passes), `settings-agentHooks` checks that value alone. Few
 * settings files set engine options, and the options' part (audit sinks, limits, dialects) is
 * 40 % of the code, which every dispatch with a hook to run compiled (docs/performance.md, item 9).
 */
export function splitSettings(settings) {
  const { agentHooks, ...props } = settings.properties;
  if (!agentHooks) throw new Error('settings schema: no agentHooks property to split off');
  const usesDefs = JSON.stringify(agentHooks).includes('"$ref"');
  return {
    'settings-core': { ...settings, properties: { ...props, agentHooks: {} } },
    'settings-agentHooks': usesDefs ? { ...agentHooks, $defs: settings.$defs } : agentHooks,
  };
}

/** dist/validators/settings.cjs: both parts as the one settings validator, the second required only when needed. */
const SETTINGS_VALIDATOR = `"use strict";
// Written by scripts/gen-validators.mjs: the settings file's validator, in two parts (splitSettings).
Object.defineProperty(exports, "__esModule", { value: true });
const core = require("./settings-core.cjs").default;
let agentHooks;
exports.default = function validate(doc) {
  if (!core(doc)) return false;
  if (doc.agentHooks === undefined) return true;
  agentHooks ??= require("./settings-agentHooks.cjs").default;
  return agentHooks(doc.agentHooks);
};
`;

async function main() {
  const dist = new URL('../dist/', import.meta.url);
  const { z } = await import('zod');
  const { EVENT_NAMES } = await import(new URL('events/facts.js', dist).href);
  const { inputSchema, outputSchema } = await import(new URL('events/schemas.js', dist).href);
  const { settingsJsonSchema, pluginHooksJsonSchema } = await import(new URL('config/schema.js', dist).href);
  const { trustStoreSchema } = await import(new URL('trust/store-schema.js', dist).href);
  const schemas = validatorSchemas({
    z,
    eventNames: EVENT_NAMES,
    inputSchema,
    outputSchema,
    settingsJsonSchema,
    pluginHooksJsonSchema,
    trustStoreSchema,
  });
  const outDir = new URL('validators/', dist);
  const tmp = new URL('.src/', outDir);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const entryPoints = {};
  const { settings, ...others } = schemas;
  for (const [name, schema] of Object.entries({ ...others, ...splitSettings(settings) })) {
    const file = fileURLToPath(new URL(`${name}.mjs`, tmp));
    writeFileSync(file, await standaloneSource(schema));
    entryPoints[name] = file;
  }
  const { build } = await import('esbuild');
  // One CommonJS file per validator (a process loads the one or three it needs), required
  // synchronously (src/events/compiled.ts) so a CommonJS hook path never starts the ES loader.
  // ajv's runtime helpers (ucs2length, deep equal; under 1 KB) are inlined into each file.
  await build({
    entryPoints,
    outdir: fileURLToPath(outDir),
    outExtension: { '.js': '.cjs' },
    nodePaths: [fileURLToPath(new URL('../node_modules/', import.meta.url))],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.10',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(new URL('settings.cjs', outDir), SETTINGS_VALIDATOR);
  // What the validators were generated from: a test compares it with the current schemas.
  writeFileSync(new URL('manifest.json', outDir), `${JSON.stringify(schemaDigests(schemas), null, 1)}\n`);
  // The package scope of a validator's require() (Node reads the nearest package.json on each
  // process's first one): this, not the package's own, which took ~1 M instructions to parse
  // (docs/performance.md, item 22).
  writeFileSync(new URL('package.json', outDir), '{ "type": "commonjs" }\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
