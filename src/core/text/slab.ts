// Typed arrays carved from shared chunks. Each typed array of its own has a backing store outside the heap, and
// allocating ten thousand of them (an embedding, word hashes and shingles per output of a large run) cost as much as
// computing them and pressed the collector; views of a chunk cost one small object each.

/** Chunk length in elements: small, so that a long-lived view keeps little else alive. */
const CHUNK = 4096;

/** A source of zeroed arrays of `make`'s type, taken from chunks of CHUNK elements (longer ones made alone). */
export function slab<T extends Float32Array | Uint32Array>(make: (length: number) => T): (length: number) => T {
  let chunk = make(0);
  let used = 0;
  return (length) => {
    if (length > CHUNK / 4) return make(length);
    if (used + length > chunk.length) {
      chunk = make(CHUNK);
      used = 0;
    }
    used += length;
    return chunk.subarray(used - length, used) as T;
  };
}
