/**
 * Every zod schema module, imported for the slot each fills (src/util/zod-slot.ts). The library's
 * entries import this module, so their synchronous functions (checkInput, parseExecution,
 * loadSettingsText, createMcpClientManager) have the schemas from the start; the lean paths
 * import the one schema module a check needs, when it needs zod.
 */
import '../events/schemas.js';
import '../config/schema.js';
import '../mcp/config.js';
