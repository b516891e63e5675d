/** Reading one archive entry's content, for the tar and zip readers alike. */
import { corrupt } from './errors.js'

/** The minimal readable both tar-stream (streamx) and yauzl (node) entry streams offer. */
export interface EntryStream extends AsyncIterable<unknown> {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown
  on(event: 'end' | 'close', listener: () => void): unknown
  on(event: 'error', listener: (error: unknown) => void): unknown
  resume(): unknown
  destroy(error?: Error): unknown
}

/**
 * The whole content of a small entry, as the chunks it arrived in (no copy: the writer hands
 * them to one writev). Errors of the stream mean the archive data is bad: they become
 * CorruptArchiveError; so does content longer than `maxBytes` (what the entry declared), which
 * is never held in memory.
 */
export function readEntry(stream: EntryStream, maxBytes: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let bytes = 0
    let ended = false
    stream.on('data', (chunk) => {
      bytes += chunk.length
      if (bytes <= maxBytes) return void chunks.push(chunk)
      const error = corrupt(new Error(`the entry holds more than the ${maxBytes} bytes it declares`))
      reject(error)
      stream.destroy(error)
    })
    stream.on('end', () => {
      ended = true
      resolve(chunks)
    })
    stream.on('error', (error) => reject(corrupt(error)))
    // Destroyed from outside (the extraction was stopped) without an error of its own.
    stream.on('close', () => {
      if (!ended) reject(corrupt(new Error('the entry ended early')))
    })
  })
}

/** Reads and drops an entry's content (tar needs it consumed to go on). */
export function skipEntry(stream: EntryStream): Promise<void> {
  return new Promise((resolve, reject) => {
    let ended = false
    stream.on('end', () => {
      ended = true
      resolve()
    })
    stream.on('error', (error) => reject(corrupt(error)))
    stream.on('close', () => {
      if (!ended) reject(corrupt(new Error('the entry ended early')))
    })
    stream.resume()
  })
}

/**
 * The entry's chunks, with read errors turned into CorruptArchiveError (write errors stay as they
 * are). Listens for errors at once: the writer may ask for the first chunk only later (it waits
 * for a free slot), and an error emitted with no listener would crash the process.
 */
export function entryChunks(stream: EntryStream): AsyncIterable<Buffer> {
  let failure: unknown
  stream.on('error', (error) => void (failure ??= error))
  return (async function* () {
    try {
      for await (const chunk of stream) yield chunk as Buffer
    } catch (error) {
      throw corrupt(failure ?? error)
    }
  })()
}
