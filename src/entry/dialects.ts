/** agent-hooks/dialects: other agents' hook config formats and wire conventions (docs/dialects.md). */
import '../util/zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
export {
  DIALECTS,
  DIALECT_NAMES,
  getDialect,
  detectDialect,
  readDocument,
  isDialectName,
  type Dialect,
  type DialectName,
} from '../dialects/index.js';
export { parseDialect, serializeDialect, type Loss, type SerializeResult } from '../config/readers/index.js';
export { WIRE, type DispatchInput, type DispatchOutput, type WireAdapter } from '../dispatch/wire/index.js';
export { loadForeignSettings } from '../config/readers/load.js';
export { dispatch, type DispatchFlags } from '../dispatch/dispatch.js';
export { convertText, type ConvertResult } from '../config/readers/convert.js';
