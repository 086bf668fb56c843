/**
 * Random (version 4) UUIDs for firing, execution and record ids, without loading `node:crypto`:
 * its first `require` costs about 6 ms of wall time here, a tenth of what a dispatch with one hook
 * adds to `node -e 0` (docs/performance.md item 13), and the hook path needs nothing else from it.
 *
 * The bytes are the operating system's CSPRNG, as Node's own `randomUUID` uses: read from
 * `/dev/urandom` in blocks (below). Where that device cannot be read (Windows, a sandbox that
 * hides it) the ids come from Web Crypto's `randomUUID`, the global Node has without an import.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * A block holds 16 ids at first, enough for a one-shot process (dispatch, `run`); each refill
 * doubles it, up to 4,096 ids (64 KiB), so a long-lived host opens the device once per
 * thousands of events rather than once per sixteen (the open, read and close were an eighth
 * of a function hook's cost per event).
 */
const FIRST_IDS_PER_READ = 16;
const MAX_IDS_PER_READ = 4096;
let pool = Buffer.alloc(16 * FIRST_IDS_PER_READ);
let offset = pool.length;
let refills = 0;
let device = process.platform !== 'win32';

/** Fills the pool from /dev/urandom; false when the device cannot be read in full. */
function refill(): boolean {
  if (refills++ > 0 && pool.length < 16 * MAX_IDS_PER_READ) pool = Buffer.alloc(pool.length * 2);
  // Nothing of the pool is handed out until it is read in full (a failed read leaves it spent).
  offset = pool.length;
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    let got = 0;
    while (got < pool.length) {
      const n = readSync(fd, pool, got, pool.length - got, null);
      if (n <= 0) return false;
      got += n;
    }
    offset = 0;
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The id's text is written here, then read as one string: one allocation per id. */
const text = Buffer.alloc(36);
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

export function randomUUID(): string {
  if (offset >= pool.length && !(device && refill())) {
    device = false;
    return globalThis.crypto.randomUUID();
  }
  const at = offset;
  offset += 16;
  // RFC 9562, section 5.4: version 4 in the high nibble of byte 6, variant 10 in byte 8.
  pool[at + 6] = (pool[at + 6]! & 0x0f) | 0x40;
  pool[at + 8] = (pool[at + 8]! & 0x3f) | 0x80;
  let j = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[j++] = 0x2d; // '-'
    const byte = pool[at + i]!;
    text[j++] = HEX_DIGITS[byte >> 4]!;
    text[j++] = HEX_DIGITS[byte & 0x0f]!;
  }
  return text.toString('latin1', 0, 36);
}
