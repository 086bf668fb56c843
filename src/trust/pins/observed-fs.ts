/**
 * The file system as the pins model (pins.ts, pins/*) sees it: every read it makes goes through
 * here, and while a walk is recorded (`recorded`) each result is noted as a fingerprint (a
 * content read by its sha256). `unchanged` asks the same questions again: when every answer is
 * the same, a walk of the same inputs takes the same path and returns the same pins
 * (walk-cache.ts). Names and signatures follow node:fs, so a call site reads as before; no other
 * file of the model may import node:fs (test/trust/walk-cache.test.ts).
 */
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire as nodeRequire } from 'node:module';
import { isDir as kindDir, isFile as kindFile } from '../../util/file-kind.js';

// A bound on reading and walking one script (a megabyte of shell code parses in ~0.25 s here), far
// above any hook script; a bigger one makes the hook unpinned.
export const MAX_SCRIPT_BYTES = 16 * 1024 * 1024;

/** A script's text; `missing` for an absent file, and for a binary (a NUL in its first 512 bytes, no `#!`): nothing to model. */
export type ScriptText = { text: string } | { missing: true } | { problem: string };

interface Entry {
  name: string;
  kind: 'd' | 'l' | 'f' | 'o';
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** Each question the model asks, and the fingerprint of its answer. */
const PROBES = {
  exists: { ask: (p: string) => fs.existsSync(p), print: String },
  isDir: { ask: kindDir, print: String },
  isFile: { ask: kindFile, print: String },
  realpath: { ask: (p: string) => fs.realpathSync(p), print: String },
  isSymlink: { ask: (p: string) => fs.lstatSync(p).isSymbolicLink(), print: String },
  names: { ask: (p: string) => fs.readdirSync(p), print: (v: string[]) => JSON.stringify(v) },
  entries: { ask: readEntries, print: (v: Entry[]) => JSON.stringify(v) },
  text: { ask: (p: string) => fs.readFileSync(p, 'utf8'), print: sha256 },
  script: { ask: readScriptNow, print: (v: ScriptText) => ('text' in v ? sha256(v.text) : JSON.stringify(v)) },
  resolve: { ask: resolveNow, print: String },
} as const;

type Op = keyof typeof PROBES;
type Answer<K extends Op> = ReturnType<(typeof PROBES)[K]['ask']>;
/** One question and the fingerprint of its answer (`!CODE` when it threw). */
export type Observation = [op: Op, arg: string, seen: string];

let recording: Observation[] | undefined;

const thrown = (e: unknown): string => `!${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;

function observe<K extends Op>(op: K, arg: string): Answer<K> {
  const probe = PROBES[op] as unknown as { ask: (a: string) => Answer<K>; print: (v: Answer<K>) => string };
  if (recording === undefined) return probe.ask(arg);
  let value: Answer<K>;
  try {
    value = probe.ask(arg);
  } catch (e) {
    recording.push([op, arg, thrown(e)]);
    throw e;
  }
  recording.push([op, arg, probe.print(value)]);
  return value;
}

/** Run `walk`, noting every question it asks here. */
export function recorded<T>(walk: () => T): { result: T; observations: Observation[] } {
  const outer = recording;
  const observations: Observation[] = [];
  recording = observations;
  try {
    return { result: walk(), observations };
  } finally {
    recording = outer;
    outer?.push(...observations);
  }
}

/** Whether every question gets the answer it got when it was noted. */
export function unchanged(observations: readonly Observation[]): boolean {
  for (const [op, arg, seen] of observations) {
    // A walk read from a file (walk-cache.ts) may name anything.
    if (!Object.hasOwn(PROBES, op)) return false;
    const probe = PROBES[op] as { ask: (a: string) => unknown; print: (v: unknown) => string };
    let now: string;
    try {
      now = probe.print(probe.ask(arg));
    } catch (e) {
      now = thrown(e);
    }
    if (now !== seen) return false;
  }
  return true;
}

export const existsSync = (p: string): boolean => observe('exists', p);
export const isDir = (p: string): boolean => observe('isDir', p);
export const isFile = (p: string): boolean => observe('isFile', p);
export const realpathSync = (p: string): string => observe('realpath', p);
export const readFileSync = (p: string, _encoding: 'utf8'): string => observe('text', p);

/** lstat, of which the model asks only whether the path is a link. */
export function lstatSync(p: string): { isSymbolicLink(): boolean } {
  const link = observe('isSymlink', p);
  return { isSymbolicLink: () => link };
}

/** A directory's entries, with each one's kind (not following links). */
export interface Dirent {
  name: string;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

export function readdirSync(p: string): string[];
export function readdirSync(p: string, o: { withFileTypes: true }): Dirent[];
export function readdirSync(p: string, o?: { withFileTypes: true }): string[] | Dirent[] {
  if (o === undefined) return observe('names', p);
  return observe('entries', p).map(({ name, kind }) => ({
    name,
    isDirectory: () => kind === 'd',
    isFile: () => kind === 'f',
    isSymbolicLink: () => kind === 'l',
  }));
}

function readEntries(p: string): Entry[] {
  return fs.readdirSync(p, { withFileTypes: true }).map((e) => ({
    name: e.name,
    kind: e.isDirectory() ? 'd' : e.isSymbolicLink() ? 'l' : e.isFile() ? 'f' : 'o',
  }));
}

/** Node's resolver from a script: `resolve` observed; `resolve.paths` reads nothing. */
export function createRequire(from: string): { resolve: ((spec: string) => string) & { paths: (spec: string) => string[] | null } } {
  const resolve = (spec: string): string => observe('resolve', `${from}\0${spec}`);
  return { resolve: Object.assign(resolve, { paths: (spec: string) => nodeRequire(from).resolve.paths(spec) }) };
}

function resolveNow(fromAndSpec: string): string {
  const [from, spec] = fromAndSpec.split('\0') as [string, string];
  return nodeRequire(from).resolve(spec);
}

/**
 * A script's text, read through one descriptor: a regular file only (its real path opened without
 * following a link or blocking, as served.ts does), at most MAX_SCRIPT_BYTES.
 */
export const readScript = (file: string): ScriptText => observe('script', file);

function readScriptNow(file: string): ScriptText {
  let fd: number;
  try {
    fd = fs.openSync(realOr(file), fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { missing: true } : { problem: `cannot be read (${code})` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { problem: 'is not a regular file' };
    // A program run by path may be a binary (`/bin/bash x.sh`): its head says so before its size.
    const head = Buffer.alloc(Math.min(512, st.size));
    const n = fs.readSync(fd, head, 0, head.length, 0);
    if (head.subarray(0, n).includes(0) && !head.subarray(0, n).toString('latin1').startsWith('#!')) return { missing: true };
    if (st.size > MAX_SCRIPT_BYTES) return { problem: `is larger than ${MAX_SCRIPT_BYTES / 1024 / 1024} MiB` };
    return { text: fs.readFileSync(fd, 'utf8') };
  } catch (e) {
    return { problem: `cannot be read (${(e as NodeJS.ErrnoException).code})` };
  } finally {
    fs.closeSync(fd);
  }
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
