/**
 * Zod schemas of the Claude-style settings file and of a plugin's hooks/hooks.json.
 * Hook handlers, matcher groups and the `hooks` object are strict (an unknown key is
 * an error); the settings file itself is loose because other features share it.
 * Event names come from the catalog at runtime, so schemas are built lazily.
 */
import { z } from 'zod';
import { EVENT_NAMES } from '../events/facts.js';
import { DIALECT_NAMES } from '../agents/types.js';
import { auditSettingsSchema } from '../audit/sinks.js';
import { provideConfigSchemas } from '../util/zod-slot.js';

const behavior = z.enum(['ignore', 'ask', 'deny']);

const commonHandlerShape = {
  if: z.string().optional().describe('Permission-rule condition, e.g. "Bash(git *)"; tool events only.'),
  timeout: z.number().positive().optional().describe('Seconds before the hook is cancelled.'),
  statusMessage: z.string().optional(),
  once: z.boolean().optional().describe('Run once per session (honoured in skill frontmatter only).'),
  enabled: z
    .boolean()
    .optional()
    .describe('false: the hook stays in the file but never runs (agent-hooks only: an agent running this file itself ignores the key).'),
  failureBehavior: behavior.optional(),
  timeoutBehavior: behavior.optional(),
};

export const commandHandlerSchema = z.strictObject({
  type: z.literal('command'),
  command: z.string().min(1).describe('Shell command, or the executable when `args` is set.'),
  args: z.array(z.string()).optional().describe('Exec form: argument vector, no shell involved.'),
  async: z.boolean().optional(),
  asyncRewake: z.boolean().optional(),
  shell: z.enum(['bash', 'sh', 'powershell']).optional(),
  env: z.record(z.string(), z.string()).optional(),
  ...commonHandlerShape,
});

export const httpHandlerSchema = z.strictObject({
  type: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  allowedHosts: z
    .array(z.string().min(1))
    .optional()
    .describe('Hosts exempt from the https requirement and the private/loopback address checks (explicit opt-out).'),
  allowInsecureTLS: z.boolean().optional().describe('Skip TLS certificate verification for this hook only.'),
  ...commonHandlerShape,
});

export const mcpToolHandlerSchema = z.strictObject({
  type: z.literal('mcp_tool'),
  server: z.string().min(1),
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()).optional(),
  ...commonHandlerShape,
});

const promptShape = {
  prompt: z.string().min(1),
  model: z.string().optional(),
  ...commonHandlerShape,
};
export const promptHandlerSchema = z.strictObject({
  type: z.literal('prompt'),
  ...promptShape,
  continueOnBlock: z.boolean().optional().describe('On ok:false, feed the reason back and continue instead of ending the turn.'),
});
export const agentHandlerSchema = z.strictObject({ type: z.literal('agent'), ...promptShape });

const handlerSchema = z.discriminatedUnion('type', [
  commandHandlerSchema,
  httpHandlerSchema,
  mcpToolHandlerSchema,
  promptHandlerSchema,
  agentHandlerSchema,
]);

export const matcherGroupSchema = z.strictObject({
  matcher: z.string().optional().describe('Tool name, exact list (A|B) or regular expression; "*" or omitted = all.'),
  hooks: z.array(handlerSchema),
});
type MatcherGroupConfig = z.infer<typeof matcherGroupSchema>;

export const agentHooksOptionsSchema = z.strictObject({
  failureBehavior: behavior.optional(),
  timeoutBehavior: behavior.optional(),
  maxConcurrentHooks: z.number().int().min(1).optional(),
  stopHookMaxConsecutiveBlocks: z.number().int().min(0).optional(),
  stdinLimitBytes: z.number().int().min(1).optional(),
  outputLimitBytes: z.number().int().min(1).optional(),
  /** Other agents' hook files to discover (docs/dialects.md "Discovery"); honoured in user, managed and --settings files. */
  discoverDialects: z.union([z.literal('all'), z.array(z.enum(DIALECT_NAMES))]).optional(),
  /** Audit sinks (docs/teams.md); managed settings' value wins, so a team can require one. */
  auditSinks: auditSettingsSchema.shape.sinks.optional(),
  /** Host variables command hooks inherit by name (docs/security.md); honoured in user, managed and --settings files. */
  passEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name')).optional(),
  /** Run command hooks under bubblewrap (docs/security.md); "bwrap" in any settings file wins. */
  sandbox: z.enum(['bwrap', 'view', 'none']).optional(),
  /** The engine's own hooks, each off by default (docs/presets.md "code-review"). */
  builtinHooks: z
    .strictObject({
      codeReview: z
        .boolean()
        .optional()
        .describe("Blade's code-review prompt hook on PostToolUse, while no PostToolUse hook is configured."),
    })
    .optional(),
});
export type AgentHooksOptions = z.infer<typeof agentHooksOptionsSchema>;

type HooksObjectSchema = z.ZodObject<Record<string, z.ZodOptional<z.ZodArray<typeof matcherGroupSchema>>>, z.core.$strict>;

// Built on first use rather than at import so the catalog is complete whatever the import order.
let hooksObject: HooksObjectSchema | undefined;
export function hooksObjectSchema(): HooksObjectSchema {
  if (!hooksObject) {
    const shape: Record<string, z.ZodOptional<z.ZodArray<typeof matcherGroupSchema>>> = {};
    for (const event of EVENT_NAMES) shape[event] = z.array(matcherGroupSchema).optional();
    hooksObject = z.strictObject(shape);
  }
  return hooksObject;
}
export type HooksConfig = Partial<Record<string, MatcherGroupConfig[]>>;

function buildSettingsSchema() {
  return z.looseObject({
    hooks: hooksObjectSchema().optional(),
    disableAllHooks: z.boolean().optional(),
    allowManagedHooksOnly: z.boolean().optional().describe('Managed settings only: run only managed hooks.'),
    allowedHttpHookUrls: z.array(z.string()).optional(),
    httpHookAllowedEnvVars: z.array(z.string()).optional(),
    agentHooks: agentHooksOptionsSchema.optional().describe('agent-hooks engine options.'),
  });
}
let settingsSchema: ReturnType<typeof buildSettingsSchema> | undefined;
export function settingsFileSchema(): ReturnType<typeof buildSettingsSchema> {
  settingsSchema ??= buildSettingsSchema();
  return settingsSchema;
}
export type SettingsFile = z.infer<ReturnType<typeof buildSettingsSchema>>;

function buildPluginHooksSchema() {
  return z.strictObject({ description: z.string().optional(), hooks: hooksObjectSchema() });
}
let pluginSchema: ReturnType<typeof buildPluginHooksSchema> | undefined;
export function pluginHooksFileSchema(): ReturnType<typeof buildPluginHooksSchema> {
  pluginSchema ??= buildPluginHooksSchema();
  return pluginSchema;
}

/** `$id` of the published settings schema (schema/settings.schema.json in the package). */
const SETTINGS_SCHEMA_ID = 'urn:agent-hooks:schema:settings';

/** Names of the shared parts in `$defs`: each appears once and is referenced from every event. */
const SCHEMA_DEFS: [z.ZodType, string][] = [
  [matcherGroupSchema, 'matcherGroup'],
  [handlerSchema, 'hook'],
  [commandHandlerSchema, 'commandHook'],
  [httpHandlerSchema, 'httpHook'],
  [mcpToolHandlerSchema, 'mcpToolHook'],
  [promptHandlerSchema, 'promptHook'],
  [agentHandlerSchema, 'agentHook'],
];

/**
 * JSON Schema (draft 2020-12) of a settings file, derived from the zod schema above: compact
 * (`$defs`/`$ref`, not one copy of the handlers per event), other top-level keys allowed (the
 * file is Claude Code's settings.json), and handler variants chosen by `type` with if/then, so a
 * validator reports the chosen variant's problems only (a command hook missing `command` is
 * not told it lacks `url`, as with anyOf/oneOf).
 */
export function settingsJsonSchema(): Record<string, unknown> {
  // Ids in the global registry, where .describe() keeps the descriptions too.
  for (const [schema, id] of SCHEMA_DEFS) if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });
  const json = z.toJSONSchema(settingsFileSchema(), { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown> & {
    $defs: Record<string, unknown>;
  };
  const variants = handlerSchema.options.map((o) => [o.shape.type.value, SCHEMA_DEFS.find(([s]) => s === o)![1]] as const);
  json.$defs.hook = {
    type: 'object',
    description: 'A hook handler; its "type" picks the variant.',
    required: ['type'],
    properties: { type: { enum: variants.map(([t]) => t) } },
    allOf: variants.map(([type, id]) => ({
      if: { properties: { type: { const: type } }, required: ['type'] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, not a thenable
      then: { $ref: `#/$defs/${id}` },
    })),
  };
  const { $schema, ...rest } = json;
  return { $schema, $id: SETTINGS_SCHEMA_ID, title: 'agent-hooks settings (Claude Code settings.json dialect)', ...rest };
}

/** JSON Schema of a plugin's hooks/hooks.json. */
export function pluginHooksJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(pluginHooksFileSchema(), { target: 'draft-2020-12', io: 'input' }),
    title: 'agent-hooks plugin hooks/hooks.json',
  };
}

provideConfigSchemas({ settingsFileSchema });
