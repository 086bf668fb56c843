/**
 * Random (version 4) UUIDs for firing, execution and record ids, without loading `node:crypto`:
 * its first `require` costs about 6 ms of wall time here, a tenth of what a dispatch with one hook
 * adds to `node -e 0` (docs/performance.md item 13), and the hook path needs nothing else from it.
 *
 * The bytes are the operating system's CSPRNG, as Node's own `randomUUID` uses: read from
 * `/dev/urandom` in blocks of 16 ids. Where that device cannot be read (Windows, a sandbox that
 * hides it) the ids come from Web Crypto's `randomUUID`, the global Node has without an import.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const IDS_PER_READ = 16;
const pool = Buffer.alloc(16 * IDS_PER_READ);
let offset = pool.length;
let device = process.platform !== 'win32';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Fills the pool from /dev/urandom; false when the device cannot be read in full. */
function refill(): boolean {
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

export function randomUUID(): string {
  if (offset >= pool.length && !(device && refill())) {
    device = false;
    return globalThis.crypto.randomUUID();
  }
  const b = pool.subarray(offset, offset + 16);
  offset += 16;
  // RFC 9562, section 5.4: version 4 in the high nibble of byte 6, variant 10 in byte 8.
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = (i: number) => HEX[b[i]!]!;
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
}
