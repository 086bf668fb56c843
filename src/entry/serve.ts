/** agent-hooks/serve: `agent-hooks serve` as a library (docs/serve.md): the trust review panel and session API, mountable or listening on loopback. */
import './zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
export { createServeApp, type ServeApp, type ServeOptions } from '../serve/app.js';
export { startServe, type StartServeOptions, type RunningServe } from '../serve/server.js';
export type { WorkspaceView } from '../serve/workspaces.js';
export type { SessionView } from '../serve/sessions.js';
export {
  defaultPauseFilePath,
  isSessionPaused,
  readPauseFile,
  setSessionPaused,
  PAUSE_FILE_ENV,
  type PauseFileData,
  type PausedSession,
} from '../session/pause-file.js';
