// The paced link's check on node's side (bench/link-probe.ts): `node node-download.mjs URL` fetches the link with
// node:http, as @actions/http-client does for the action and the peer, reads it to the end and prints, as JSON, the
// ms from the request to the response's head and to its last byte, and the bytes read.
import http from 'node:http'

const started = performance.now()
http
  .get(process.argv[2], (response) => {
    const headMs = performance.now() - started
    let bytes = 0
    response.on('data', (chunk) => (bytes += chunk.length))
    response.on('end', () => {
      const totalMs = performance.now() - started
      process.stdout.write(JSON.stringify({ status: response.statusCode, headMs, totalMs, bytes }))
    })
  })
  .on('error', (error) => {
    process.stderr.write(`${error.message}\n`)
    process.exitCode = 1
  })
