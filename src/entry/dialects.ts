/** agent-hooks/dialects: other agents' hook config formats and wire conventions (docs/dialects.md). */
export {
  DIALECTS,
  DIALECT_NAMES,
  getDialect,
  detectDialect,
  readDocument,
  isDialectName,
  type Dialect,
  type DialectName,
  type DispatchInput,
  type DispatchOutput,
  type Loss,
  type SerializeResult,
} from '../dialects/index.js';
export { loadForeignSettings } from '../dialects/load.js';
export { dispatch, type DispatchFlags } from '../dispatch/dispatch.js';
export { convertText, type ConvertResult } from '../dialects/convert.js';
