// A stand-in for the AWS CLI, for running the examples' scripts in tests: `aws s3 sync <folder> s3://<bucket>/`
// applied to a bucket kept as a JSON file, with the rules of the real command (a file is uploaded when its key is
// missing, its size differs or, without --size-only, it changed since the upload; --delete removes the keys under
// the prefix that the folder lacks; --exclude and --include patterns, in order, the last that matches deciding,
// keep a file or key out of both; a type from --content-type, else guessed from the name as the AWS CLI guesses
// it). `aws cloudfront create-invalidation` is recorded. Any other command or option fails, so that a script
// cannot rely on something this stand-in does not model.
//   FAKE_AWS_STATE: the folder of the buckets (`s3/<bucket>.json`) and of the calls made (`calls.jsonl`).
import { createHash } from 'node:crypto'
import { appendFileSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import * as path from 'node:path'

const state = process.env.FAKE_AWS_STATE
if (!state) fail('FAKE_AWS_STATE is not set')
const [service, command, ...rest] = process.argv.slice(2)
const call = { args: process.argv.slice(2), uploads: [], deletes: [] }
if (service === 's3' && command === 'sync') sync(rest)
else if (service === 'cloudfront' && command === 'create-invalidation') console.log('{"Invalidation": {}}')
else fail(`unsupported command: ${service} ${command}`)
appendFileSync(path.join(state, 'calls.jsonl'), `${JSON.stringify(call)}\n`)

function sync(args) {
  const options = { delete: false, sizeOnly: false, contentType: undefined }
  const places = []
  /** `[include, pattern]`, in the order given. */
  const filters = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '--delete') options.delete = true
    else if (arg === '--size-only') options.sizeOnly = true
    else if (arg === '--content-type' && i + 1 < args.length) options.contentType = args[++i]
    else if ((arg === '--exclude' || arg === '--include') && i + 1 < args.length)
      filters.push([arg === '--include', patternOf(args[++i])])
    else if (arg.startsWith('--')) fail(`unsupported option: ${arg}`)
    else places.push(arg)
  }
  const [from, to] = places
  const target = /^s3:\/\/([^/]+)\/(.*)$/.exec(to ?? '')
  if (places.length !== 2 || target === null || from.startsWith('s3://')) fail('only `sync <folder> s3://<bucket>/`')
  const [, bucket, prefix] = target
  // A pattern is matched against the whole name below the folder or the prefix; the last one that matches decides.
  const chosen = (name) => filters.reduce((keep, [include, pattern]) => (pattern.test(name) ? include : keep), true)
  const file = path.join(state, 's3', `${bucket}.json`)
  let keys = {}
  try {
    keys = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    // A new bucket.
  }
  const local = new Set()
  for (const relative of filesOf(from).filter(chosen)) {
    const key = `${prefix}${relative}`
    local.add(key)
    const info = statSync(path.join(from, relative))
    const kept = keys[key]
    const changed = kept === undefined || kept.size !== info.size || (!options.sizeOnly && info.mtimeMs > kept.modified)
    if (!changed) continue
    const body = readFileSync(path.join(from, relative))
    keys[key] = {
      size: info.size,
      sha256: createHash('sha256').update(body).digest('hex'),
      type: options.contentType ?? guessType(key),
      modified: Date.now()
    }
    call.uploads.push(key)
    console.log(`upload: ${path.join(from, relative)} to s3://${bucket}/${key}`)
  }
  if (options.delete) {
    for (const key of Object.keys(keys)) {
      if (!key.startsWith(prefix) || local.has(key) || !chosen(key.slice(prefix.length))) continue
      delete keys[key]
      call.deletes.push(key)
      console.log(`delete: s3://${bucket}/${key}`)
    }
  }
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(keys, null, 2))
}

/** Every file under `folder`, as a key names it (`/` between names), symlinks followed as the AWS CLI does. */
function filesOf(folder, under = '') {
  return readdirSync(path.join(folder, under)).flatMap((name) => {
    const relative = under === '' ? name : `${under}/${name}`
    return statSync(path.join(folder, relative)).isDirectory() ? filesOf(folder, relative) : [relative]
  })
}

/** A filter's pattern as the AWS CLI reads it (Python's fnmatch): `*` is any text, `/` too; `?` one character. */
function patternOf(glob) {
  let source = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    const close = c === '[' ? glob.indexOf(']', i + 2) : -1
    if (c === '*') source += '.*'
    else if (c === '?') source += '.'
    else if (close > 0) {
      const set = glob.slice(i + 1, close)
      source += `[${set.startsWith('!') ? `^${set.slice(1)}` : set}]`
      i = close
    } else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  return new RegExp(`^${source}$`, 's')
}

/** What the AWS CLI (Python's mimetypes) makes of a name; S3 stores binary/octet-stream for no type at all. */
function guessType(key) {
  const types = {
    html: 'text/html',
    css: 'text/css',
    js: 'text/javascript',
    txt: 'text/plain',
    json: 'application/json'
  }
  const extension = /\.([^./]+)$/.exec(key)?.[1]?.toLowerCase()
  return (extension && types[extension]) || 'binary/octet-stream'
}

function fail(message) {
  console.error(`fake aws: ${message}`)
  process.exit(252)
}
