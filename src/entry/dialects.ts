/** agent-hooks/dialects: other agents' hook config formats and wire conventions (docs/dialects.md). */
import './zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
export {
  DIALECTS,
  DIALECT_NAMES,
  getDialect,
  detectDialect,
  readDocument,
  isDialectName,
  WIRE,
  type Dialect,
  type DialectName,
  type DispatchInput,
  type DispatchOutput,
  type Loss,
  type SerializeResult,
  type WireAdapter,
} from '../agents/all.js';
export { parseDialect, serializeDialect } from '../agents/registry.js';
export { loadForeignSettings } from '../agents/shared/foreign-settings.js';
export { dispatch, type DispatchFlags } from '../dispatch/dispatch.js';
export { convertText, type ConvertResult } from '../agents/shared/convert.js';
