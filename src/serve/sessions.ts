/**
 * Where the panel's sessions come from, and what pausing one does.
 *
 * - Embedded in a host (`manager` given): the HookManager's bound sessions. Pause and resume call
 *   `manager.pause/resume`; a paused session's `run` returns the pass-through decision without
 *   reaching the engine.
 * - Standalone: the sessions the audit log has seen (what `agent-hooks dispatch --audit FILE`
 *   writes), plus those paused in the pause file (src/session/pause-file.ts). Pause and resume
 *   write the pause file; `agent-hooks dispatch` reads it on every call, so a paused session's
 *   hook calls get the agent's no-op answer and no hook runs.
 */
import type { HookManager } from '../session/manager.js';
import { readPauseFile, setSessionPaused } from '../session/pause-file.js';
import { auditSessions } from './audit.js';

export interface SessionView {
  id: string;
  /** host: a HookManager session; pause-file / audit: standalone. */
  source: 'host' | 'pause-file' | 'audit';
  projectDir?: string;
  worktreeDir?: string;
  paused: boolean;
  pausedAt?: string;
  /** From the audit log. */
  lastSeen?: string;
  runs?: number;
  blocked?: number;
  lastEvent?: string;
}

export interface SessionSource {
  mode: 'host' | 'pause-file';
  /** Where standalone pause state lives. */
  pauseFile?: string;
  list(): Promise<{ sessions: SessionView[]; warning?: string }>;
  /** False when the session is unknown (host mode only; the pause file takes any id). */
  setPaused(id: string, paused: boolean): Promise<boolean>;
}

export function hostSessions(manager: HookManager, auditFile?: string): SessionSource {
  return {
    mode: 'host',
    async list() {
      const seen = new Map((await auditSessions(auditFile)).map((s) => [s.id, s]));
      const sessions = manager.sessions().flatMap((id): SessionView[] => {
        const h = manager.session(id);
        if (!h) return [];
        const a = seen.get(id);
        return [
          {
            id,
            source: 'host',
            projectDir: h.projectDir,
            ...(h.worktreeDir ? { worktreeDir: h.worktreeDir } : {}),
            paused: h.paused,
            ...(a ? { lastSeen: a.lastSeen, runs: a.runs, blocked: a.blocked, lastEvent: a.lastEvent } : {}),
          },
        ];
      });
      return { sessions };
    },
    async setPaused(id, paused) {
      return paused ? manager.pause(id) : manager.resume(id);
    },
  };
}

export function pauseFileSessions(pauseFile: string, auditFile?: string): SessionSource {
  return {
    mode: 'pause-file',
    pauseFile,
    async list() {
      const { data, error } = readPauseFile(pauseFile);
      const out = new Map<string, SessionView>();
      for (const a of await auditSessions(auditFile)) {
        out.set(a.id, {
          id: a.id,
          source: 'audit',
          paused: false,
          lastSeen: a.lastSeen,
          runs: a.runs,
          blocked: a.blocked,
          lastEvent: a.lastEvent,
        });
      }
      for (const [id, rec] of Object.entries(data.sessions)) {
        const s = out.get(id) ?? { id, source: 'pause-file' as const, paused: true };
        out.set(id, { ...s, paused: true, pausedAt: rec.pausedAt, ...(rec.projectDir ? { projectDir: rec.projectDir } : {}) });
      }
      return { sessions: [...out.values()], ...(error ? { warning: error } : {}) };
    },
    async setPaused(id, paused) {
      await setSessionPaused(id, paused, { file: pauseFile });
      return true;
    },
  };
}
