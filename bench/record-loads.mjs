// `node --import <this file> dist/index.js`: appends the URL of every file module node loads to the file named by
// RECORD_LOADS_TO, one a line, for bench/startup.ts (which files of dist/ an operation loads before its first
// request). On the main thread it registers itself as the module hooks; in the hooks' thread it is the hook.
import { appendFileSync } from 'node:fs'
import { register } from 'node:module'
import { isMainThread } from 'node:worker_threads'

export async function load(url, context, next) {
  if (url.startsWith('file:') && process.env.RECORD_LOADS_TO) appendFileSync(process.env.RECORD_LOADS_TO, `${url}\n`)
  return next(url, context)
}

if (isMainThread) register(import.meta.url)
