import * as core from '@actions/core'

/**
 * The few logging calls the flows need. Flows take a Logger instead of calling @actions/core so
 * that tests can record what would be printed (and check that no secret ever is).
 */
export interface Logger {
  debug(message: string): void
  info(message: string): void
  warning(message: string): void
  /** Runs `fn` inside a collapsible log group. */
  group<T>(title: string, fn: () => Promise<T>): Promise<T>
}

export const actionsLogger: Logger = {
  debug: (message) => core.debug(message),
  info: (message) => core.info(message),
  warning: (message) => core.warning(message),
  group: (title, fn) => core.group(title, fn)
}

export interface RecordingLogger extends Logger {
  readonly lines: string[]
  /** Everything logged so far, one line each, prefixed with its level. */
  text(): string
}

export function recordingLogger(): RecordingLogger {
  const lines: string[] = []
  return {
    lines,
    debug: (message) => void lines.push(`debug: ${message}`),
    info: (message) => void lines.push(`info: ${message}`),
    warning: (message) => void lines.push(`warning: ${message}`),
    group: async (title, fn) => {
      lines.push(`group: ${title}`)
      return fn()
    },
    text: () => lines.join('\n')
  }
}
