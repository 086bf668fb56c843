/** The plain state record of a tool pipeline (tool-pipeline.ts), shared by its approval and call modules. */
import type { PermissionEngine } from './permissions.js';
import type { RuntimeSlots } from './runtime-slots.js';
import type { PipelineOptions } from './pipeline-types.js';
import type { ToolRegistry } from './types.js';

export interface PipelineState {
  readonly options: PipelineOptions;
  readonly tools: ToolRegistry;
  readonly permissions: PermissionEngine;
  readonly slots: RuntimeSlots;
  /** One prompt at a time (createMutex). */
  readonly approvals: <T>(fn: () => Promise<T>) => Promise<T>;
  readonly warn: (message: string) => void;
  readonly sessionCwd: () => string;
  readonly roots: () => readonly string[];
  /** The abort signal of each call's beforeTool event (the user prompt is cancelled with it). */
  readonly signals: WeakMap<object, AbortSignal>;
}

/** One prompt at a time: concurrent approvals (PermissionRequest hooks and the user) wait in line. */
export function createMutex() {
  let tail: Promise<void> = Promise.resolve();
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    const prev = tail;
    let release!: () => void;
    tail = new Promise<void>((r) => (release = r));
    await prev;
    try {
      return await fn();
    } finally {
      release();
    }
  };
}
