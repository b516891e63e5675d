/**
 * The bytes an archive reader has been handed and not yet consumed, as the chunks they came in.
 * Taking bytes copies nothing unless they span chunks, so a small file's content can stay a view
 * of the chunk it arrived in.
 */
export class ByteQueue {
  private chunks: Buffer[] = []
  /** Bytes held. */
  length = 0
  /** Bytes consumed since the start: the archive offset of the first byte held. */
  position = 0

  push(chunk: Buffer): void {
    this.chunks.push(chunk)
    this.length += chunk.length
  }

  /** Drops every byte held (they count as consumed). */
  clear(): void {
    this.position += this.length
    this.chunks = []
    this.length = 0
  }

  /** The first `bytes` held bytes (at least that many must be held), without consuming them. */
  peek(bytes: number): Buffer {
    const first = this.chunks[0] as Buffer
    return first.length >= bytes ? first : Buffer.concat(this.chunks, bytes)
  }

  /** Consumes exactly `bytes` held bytes (at least that many must be held). */
  take(bytes: number): Buffer {
    // (Nothing may be held at all when nothing is asked for.)
    if (bytes === 0) return EMPTY
    if ((this.chunks[0] as Buffer).length >= bytes) return this.takeUpTo(bytes)
    const parts: Buffer[] = []
    for (let left = bytes; left > 0;) {
      const part = this.takeUpTo(left)
      parts.push(part)
      left -= part.length
    }
    return Buffer.concat(parts, bytes)
  }

  /** Consumes up to `bytes` held bytes, from the first chunk only. */
  takeUpTo(bytes: number): Buffer {
    if (bytes === 0 || this.length === 0) return EMPTY
    const first = this.chunks[0] as Buffer
    const piece = first.length <= bytes ? first : first.subarray(0, bytes)
    if (piece === first) this.chunks.shift()
    else this.chunks[0] = first.subarray(bytes)
    this.length -= piece.length
    this.position += piece.length
    return piece
  }
}

const EMPTY = Buffer.alloc(0)
