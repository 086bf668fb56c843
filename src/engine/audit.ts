/**
 * Audit log: one JSON line per hook execution. Append-only; a failing sink never
 * fails the event (the error is reported once through onError).
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { HookRecord } from '../reduce/reduce.js';

export interface AuditEntry extends HookRecord {
  ts: string;
  session_id: string;
  /** The engine's project directory. */
  project?: string;
  hook_execution_id?: string;
  tool_name?: string;
}

export type AuditSink = (entry: AuditEntry) => void;

export interface FileAuditSink {
  write: AuditSink;
  close: () => Promise<void>;
}

export function fileAuditSink(path: string, onError?: (err: Error) => void): FileAuditSink {
  let stream: WriteStream | undefined;
  let failed = false;
  const open = () => {
    mkdirSync(dirname(path), { recursive: true });
    const s = createWriteStream(path, { flags: 'a', mode: 0o600 });
    s.on('error', (err) => {
      if (!failed) onError?.(err);
      failed = true;
    });
    return s;
  };
  return {
    write(entry) {
      if (failed) return;
      try {
        stream ??= open();
        stream.write(`${JSON.stringify(entry)}\n`);
      } catch (err) {
        failed = true;
        onError?.(err as Error);
      }
    },
    close() {
      const s = stream;
      stream = undefined;
      if (!s) return Promise.resolve();
      return new Promise<void>((resolve) => s.end(() => resolve()));
    },
  };
}
