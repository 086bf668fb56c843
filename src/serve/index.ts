/** Public API of `agent-hooks serve`: the trust review panel and session API (docs/serve.md). */
export { createServeApp, type ServeApp, type ServeOptions } from './app.js';
export { startServe, isLoopback, type StartServeOptions, type RunningServe } from './server.js';
export { newToken, TOKEN_COOKIE } from './security.js';
export {
  queryAudit,
  auditSessions,
  groupFirings,
  readAuditEntries,
  type AuditQuery,
  type AuditResult,
  type AuditEntryView,
  type Firing,
  type TimelineBar,
  type AuditSession,
} from './audit.js';
export {
  assessWorkspace,
  workspaceView,
  type WorkspaceView,
  type HookView,
  type ScriptView,
  type RunView,
  type WorkspaceLoadOptions,
} from './workspaces.js';
export { hostSessions, pauseFileSessions, type SessionSource, type SessionView } from './sessions.js';
export { HIDDEN, redactHandler, showableRealScript, showableScript } from './redact.js';
export {
  defaultPauseFilePath,
  isSessionPaused,
  readPauseFile,
  setSessionPaused,
  PAUSE_FILE_ENV,
  type PauseFileData,
  type PausedSession,
} from '../session/pause-file.js';
