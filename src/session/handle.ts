/** A bound session's handle: what a host holds (env, snapshot, run, pause, skills, subagents). */
import path from 'node:path';
import { runEvent } from './run.js';
import { frontmatterFor } from './snapshot.js';
import { live, recompose, unspent, type ManagerState, type SessionState } from './state.js';
import type { AgentScope, SessionHandle } from './types.js';

async function enterAgent(m: ManagerState, s: SessionState, file: string): Promise<AgentScope> {
  const reg = await frontmatterFor(m, live(s), file, 'agent');
  live(s).agents.add(reg);
  recompose(s);
  return {
    ...reg,
    exit() {
      if (s.agents.delete(reg) && !s.disposed) recompose(s);
    },
  };
}

export function makeHandle(m: ManagerState, s: SessionState): SessionHandle {
  return {
    id: s.id,
    projectDir: s.projectDir,
    ...(s.worktreeDir ? { worktreeDir: s.worktreeDir } : {}),
    get env() {
      return s.env;
    },
    ...(s.model !== undefined ? { model: s.model } : {}),
    get snapshot() {
      return s.snapshot;
    },
    get paused() {
      return s.paused;
    },
    get disposed() {
      return s.disposed;
    },
    hooks: (event) => unspent(s, event ? s.effective.filter((h) => h.event === event) : s.effective),
    run: (event, input, ctx) => runEvent(m, s, event, input, ctx),
    pause() {
      live(s).paused = true;
    },
    resume() {
      live(s).paused = false;
    },
    register: (reg) => live(s).engine.register(reg),
    async addSkill(file) {
      const existing = live(s).skills.get(path.resolve(s.worktreeDir ?? s.projectDir, file));
      if (existing) return existing;
      const reg = await frontmatterFor(m, s, file, 'skill');
      live(s);
      if (!s.skills.has(reg.file)) {
        s.skills.set(reg.file, reg);
        recompose(s);
      }
      return s.skills.get(reg.file)!;
    },
    enterAgent: (file) => enterAgent(m, s, file),
    async withAgent(file, fn) {
      const scope = await enterAgent(m, s, file);
      try {
        return await fn(scope);
      } finally {
        scope.exit();
      }
    },
    drain: () => s.engine.drain(),
  };
}
