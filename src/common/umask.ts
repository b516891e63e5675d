import { readFileSync } from 'node:fs'

/**
 * The process's file mode creation mask, read once when this module loads (before any writer
 * thread runs). A mode given to `open` is masked by it, a mode given to `chmod` is not: whoever
 * sets a mode after creating a file masks it with this, or the file ends up more open than one
 * created with the same mode (a zip's `0666` page world-writable).
 *
 * Linux shows the mask in /proc without touching it. Elsewhere `process.umask()` is the only way,
 * and it sets the mask twice (to 0 and back), so a thread creating a file at that moment would
 * get mode bits nobody asked for: hence once, at load.
 */
export const UMASK: number = readUmask()

function readUmask(): number {
  try {
    const found = /^Umask:\s*([0-7]+)\s*$/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (found !== null) return parseInt(found[1] as string, 8)
  } catch {
    // No /proc: not Linux.
  }
  return process.umask()
}
