'use strict'
// @actions/http-client and @actions/github import undici at their top level, for fetch and for
// proxy dispatchers. This action needs undici only when it replies to a comment, yet loading it
// costs ~80 ms at every start, and bundling it into the main file costs ~40 ms more to compile.
// This stand-in forwards the names those packages import and loads the real undici (installed
// as `undici-real`) with a dynamic import, which the bundler splits into a chunk of its own.
// A test checks that every name the installed @actions and @octokit packages import from undici
// is forwarded here.
let real
let loading

/** Loads the real undici; call (and await) it before anything may construct a ProxyAgent. */
exports.preload = function preload() {
  loading ??= import('undici-real').then((module) => (real = module.default ?? module))
  return loading
}

exports.ProxyAgent = function ProxyAgent(options) {
  if (!real) throw new Error('undici is not loaded yet: await preload() from undici-lazy first')
  return new real.ProxyAgent(options)
}

exports.fetch = async function fetch(...args) {
  await exports.preload()
  return real.fetch(...args)
}
