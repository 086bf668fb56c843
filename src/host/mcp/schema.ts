/**
 * Validation of elicitation answers against the server's `requestedSchema`.
 *
 * MCP restricts that schema to a flat object of primitive properties (string with
 * minLength/maxLength/format, enums single or multi-select, number/integer with
 * minimum/maximum, boolean) plus `required`. We first check the schema against the SDK's own
 * definition of that subset (which also drops keywords outside it), then let zod build the
 * validator (`z.fromJSONSchema`) from what remains, closed to extra properties: an answer may
 * carry only the fields the server asked for, so a hook cannot smuggle data to a server.
 *
 * The SDK is imported lazily (an optional peer dependency, src/mcp/sdk.ts): loading it costs
 * ~80 ms and most users of the package never meet an elicitation.
 */
import { z } from 'zod';
import { formatZodIssues } from '../../parse/output.js';
import { loadMcpTypes } from '../../mcp/sdk.js';

/** A value an elicitation answer may hold (MCP: string, number, boolean, or a list of strings). */
type ElicitValue = string | number | boolean | string[];
export type ElicitContent = Record<string, ElicitValue>;

type ContentCheck = { ok: true; content: ElicitContent } | { ok: false; error: string };

export interface CompiledElicitationSchema {
  /** The schema as checked (keywords outside MCP's subset removed). */
  schema: Record<string, unknown>;
  validate(content: unknown): ContentCheck;
}

export type CompileResult = { ok: true; compiled: CompiledElicitationSchema } | { ok: false; error: string };

let subsetSchema: Promise<z.ZodType> | undefined;
function loadSubsetSchema(): Promise<z.ZodType> {
  subsetSchema ??= loadMcpTypes('MCP elicitation').then(
    (t) => t.ElicitRequestFormParamsSchema.shape.requestedSchema as unknown as z.ZodType,
  );
  const p = subsetSchema;
  p.catch(() => {
    if (subsetSchema === p) subsetSchema = undefined; // not cached: the SDK may be installed later
  });
  return p;
}

/** Check a requested schema against MCP's elicitation subset and build its validator. Never throws. */
export async function compileElicitationSchema(requestedSchema: unknown): Promise<CompileResult> {
  let subset: z.ZodType;
  try {
    subset = await loadSubsetSchema();
  } catch (err) {
    return { ok: false, error: (err as Error).message }; // the SDK is not installed: declined, fail closed
  }
  const checked = subset.safeParse(requestedSchema);
  if (!checked.success) {
    return {
      ok: false,
      error: `the requested schema is not a flat object of primitive fields (MCP's elicitation subset): ${formatZodIssues(checked.error)}`,
    };
  }
  const schema = checked.data as Record<string, unknown>;
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema({ ...schema, additionalProperties: false } as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (err) {
    return { ok: false, error: `the requested schema cannot be turned into a validator: ${(err as Error).message}` };
  }
  return {
    ok: true,
    compiled: {
      schema,
      validate(content) {
        if (typeof content !== 'object' || content === null || Array.isArray(content)) {
          return { ok: false, error: 'content must be an object' };
        }
        const r = validator.safeParse(content);
        if (!r.success) return { ok: false, error: formatZodIssues(r.error) };
        return { ok: true, content: content as ElicitContent };
      },
    },
  };
}
