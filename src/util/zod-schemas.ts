/**
 * Every zod schema module, imported for the slot each fills (src/util/zod-slot.ts). The library's
 * entries import this module, so their synchronous functions (checkInput, parseExecution,
 * loadSettingsText, createMcpClientManager) have the schemas from the start; the lean CLI paths
 * import it only when a check needs zod (loadZodSchemas).
 */
import '../events/schemas.js';
import '../config/schema.js';
import '../mcp/config.js';
