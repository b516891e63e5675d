import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from '@jest/globals'
import { ActionError } from '../src/common/errors.js'
import { Secrets } from '../src/common/secrets.js'
import { isPlainSegment, segment } from '../src/common/path-segment.js'
import { AgentApi } from '../src/service/agent-api.js'
import { ServiceClient, ServiceError } from '../src/service/client.js'
import { type Simulator, startSimulator } from '../simulator/server.js'
import { acceleratedClock } from './support/clock.js'
import { recordingLogger } from './support/fake-host.js'
import { startProxy, throughProxy } from './support/proxy.js'
import { unusedPort } from './support/temp.js'
import { untrustedTlsServer } from './support/tls.js'

let sim: Simulator | undefined
afterEach(async () => {
  await sim?.close()
  sim = undefined
})

function clientFor(baseUrl: string, apiKey = 'dsk_test_simulator', speed?: number) {
  const clock = acceleratedClock({ speed })
  const log = recordingLogger()
  const secrets = new Secrets()
  secrets.add(apiKey)
  const client = new ServiceClient({ baseUrl, apiKey, clock, log, secrets })
  return { client, clock, log, secrets }
}

const start = {
  method: 'POST',
  path: '/v1/static-export/jobs',
  body: { domain: 'docs.acme.com' },
  kind: 'once',
  what: 'start the export of docs.acme.com'
} as const

describe('ids as a path segment', () => {
  test('encoded for a request, or refused when the address would lead elsewhere', () => {
    expect(segment('exp 1/2')).toBe('exp%201%2F2')
    for (const id of ['', '.', '..']) expect(() => segment(id)).toThrow(/would lead elsewhere/)
  })

  test('usable as they are only when plain', () => {
    expect(isPlainSegment('exp_123')).toBe(true)
    for (const id of ['', '.', '..', 'a/b', 'a\\b', 'a\nb', 'a\u202eb']) expect(isPlainSegment(id)).toBe(false)
  })
})

describe('ServiceClient against the simulator', () => {
  test('sends the bearer key and JSON, under a path prefix', async () => {
    sim = await startSimulator({ pathPrefix: '/docs-api' })
    const { client } = clientFor(sim.apiUrl)
    const body = (await client.request(start)) as { jobId: string }
    client.dispose()
    expect(body.jobId).toEqual(expect.any(String))
    const [request] = sim.requests
    expect(request?.path).toBe('/docs-api/v1/static-export/jobs')
    expect(request?.headers.authorization).toBe('Bearer dsk_test_simulator')
    expect(request?.headers['content-type']).toBe('application/json')
    expect(request?.body).toEqual({ domain: 'docs.acme.com' })
  })

  test('retries a GET on 500, 502 and a dropped connection, honouring Retry-After', async () => {
    sim = await startSimulator()
    const { client, clock } = clientFor(sim.apiUrl)
    const body = (await client.request(start)) as { jobId: string }
    sim.addFault({ route: 'export-status', status: 500 })
    sim.addFault({ route: 'export-status', status: 502, retryAfter: '2' })
    sim.addFault({ route: 'export-status', drop: true })
    const answer = (await client.request({
      method: 'GET',
      path: `/v1/static-export/jobs/${body.jobId}`,
      kind: 'idempotent',
      what: 'read'
    })) as { status: string }
    client.dispose()
    expect(answer.status).toEqual(expect.any(String))
    expect(sim.count('export-status')).toBe(4)
    expect(clock.sleeps).toContain(2000)
  })

  test('an IPv6 literal base-url is reached: its brackets are no part of the host name', async () => {
    sim = await startSimulator({ host: '::1' })
    expect(sim.apiUrl).toMatch(/^http:\/\/\[::1\]:\d+$/)
    const { client } = clientFor(sim.apiUrl)
    const body = (await client.request(start)) as { jobId: string }
    client.dispose()
    expect(body.jobId).toEqual(expect.any(String))
    expect(sim.requests[0]?.headers.host).toBe(new URL(sim.apiUrl).host)
  })

  test('an IPv6 literal base-url is reached through a proxy: CONNECT names it in brackets', async () => {
    // A documentation address (no loopback, which http-client never sends through a proxy) that the proxy reaches as
    // the simulator.
    sim = await startSimulator()
    const port = new URL(sim.apiUrl).port
    const proxy = await startProxy({ '[2001:db8::1]': '127.0.0.1' })
    try {
      const body = await throughProxy(proxy, async () => {
        const { client } = clientFor(`http://[2001:db8::1]:${port}`)
        try {
          return (await client.request(start)) as { jobId: string }
        } finally {
          client.dispose()
        }
      })
      expect(body.jobId).toEqual(expect.any(String))
      expect(proxy.connects).toEqual([`[2001:db8::1]:${port}`])
    } finally {
      await proxy.close()
    }
  })

  test('the start POST is retried on 429 and 503 only', async () => {
    sim = await startSimulator()
    const { client } = clientFor(sim.apiUrl)
    sim.addFault({ route: 'export-start', status: 429, retryAfter: '0' })
    sim.addFault({ route: 'export-start', status: 503 })
    await client.request(start)
    expect(sim.count('export-start')).toBe(3)
    expect(sim.exportJobs.size).toBe(1)
    client.dispose()
  })

  test.each([
    [{ status: 500, process: true }, /answered HTTP 500.*may have processed the request, so it was not sent again/s],
    [{ drop: true, process: true }, /connection failed after the request was sent.*not sent again/s],
    [{ status: 504 }, /answered HTTP 504/]
  ])('the start POST is never repeated after an ambiguous failure (%o)', async (fault, message) => {
    sim = await startSimulator()
    const { client } = clientFor(sim.apiUrl)
    sim.addFault({ route: 'export-start', ...fault })
    const error = await client.request(start).catch((e: unknown) => e)
    client.dispose()
    expect(error).toBeInstanceOf(ServiceError)
    expect(String(error)).toMatch(message)
    expect((error as Error).message).toContain('start the export of docs.acme.com')
    expect(sim.count('export-start')).toBe(1)
  })

  test('the start POST is retried when the connection is refused', async () => {
    const port = await unusedPort()
    const { client, clock } = clientFor(`http://127.0.0.1:${port}`)
    // The service comes up during the first retry wait.
    const sleep = clock.sleep
    clock.sleep = async (ms, signal) => {
      if (!sim) sim = await startSimulator({ apiPort: port })
      return sleep(ms, signal)
    }
    const body = (await client.request(start)) as { jobId: string }
    client.dispose()
    expect(body.jobId).toEqual(expect.any(String))
    expect(sim?.count('export-start')).toBe(1)
  })

  test('the start POST is retried when the host name does not resolve: it was never sent', async () => {
    // `.invalid` never resolves (RFC 6761): ENOTFOUND, or EAI_AGAIN where there is no resolver at all.
    const { client, log } = clientFor('https://docs-api.invalid')
    const error = (await client.request(start).catch((e: unknown) => e)) as ServiceError
    client.dispose()
    expect(error).toBeInstanceOf(ServiceError)
    expect(error.mayHaveBeenProcessed).toBe(false)
    expect(error.attempts).toBe(5)
    expect(error.message).toMatch(
      /^Could not start the export of docs\.acme\.com: network error (ENOTFOUND|EAI_AGAIN): .* after 5 attempts\.$/
    )
    expect(log.text()).toMatch(/retry 1 in/)
  })

  test('an untrusted certificate fails at once, named; nothing sent, so nothing may have been processed', async () => {
    const server = await untrustedTlsServer()
    try {
      const { client } = clientFor(server.url)
      const error = (await client.request(start).catch((e: unknown) => e)) as ServiceError
      client.dispose()
      expect(error).toBeInstanceOf(ServiceError)
      // Node 24 adds a hint of its own after its message (`; if the root CA is installed locally, ...`).
      expect(error.message).toMatch(
        new RegExp(
          /^Could not start the export of docs\.acme\.com: the TLS handshake failed, so nothing was sent /.source +
            /\(DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate(; [^()]+)?\)\.$/.source
        )
      )
      expect(error.mayHaveBeenProcessed).toBe(false)
      expect(error.attempts).toBe(1)
      expect(server.requestBytes()).toBe(0)
    } finally {
      await server.close()
    }
  })

  test("a redirect from the API is not followed: the key never leaves base-url's origin", async () => {
    sim = await startSimulator()
    const seen: Array<string | undefined> = []
    const elsewhere = createServer((request, response) => {
      seen.push(request.headers.authorization)
      response.end('{}')
    })
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve))
    const { port } = elsewhere.address() as AddressInfo
    try {
      sim.addFault({
        route: 'export-start',
        status: 307,
        headers: { location: `http://127.0.0.1:${port}/v1/static-export/jobs` }
      })
      const { client } = clientFor(sim.apiUrl)
      const error = await client.request(start).catch((e: unknown) => e)
      client.dispose()
      expect(String(error)).toContain('HTTP 307')
      expect(seen).toEqual([])
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve))
    }
  })

  test('a refused key names the input at fault and is not retried', async () => {
    sim = await startSimulator()
    const { client } = clientFor(sim.apiUrl, 'dsk_wrong')
    const error = await client
      .request({ method: 'GET', path: '/v1/static-export/jobs/x', kind: 'idempotent', what: 'read' })
      .catch((e: Error) => e)
    client.dispose()
    expect((error as Error).message).toBe(
      'Could not read: the service did not accept the key (HTTP 401: invalid API key). `api-key` is wrong or has ' +
        "expired: check the secret, or make a new admin key on the API keys page of the organization's settings."
    )
    expect(sim.count('export-status')).toBe(1)
  })

  test("gives the service's error text and the attempts made", async () => {
    sim = await startSimulator()
    const { client } = clientFor(sim.apiUrl)
    sim.addFault({ route: 'export-status', status: 503, body: { error: 'maintenance window' }, times: 10 })
    const error = (await client
      .request({ method: 'GET', path: '/v1/static-export/jobs/x', kind: 'idempotent', what: 'read the job' })
      .catch((e) => e)) as ServiceError
    client.dispose()
    expect(error.message).toBe('Could not read the job: HTTP 503: maintenance window after 5 attempts.')
    expect(error.status).toBe(503)
    expect(sim.count('export-status')).toBe(5)
  })

  test('a once-only POST refused with 503 every time was never processed, and the message says so', async () => {
    sim = await startSimulator()
    const { client } = clientFor(sim.apiUrl)
    sim.addFault({ route: 'export-start', status: 503, times: 10 })
    const error = (await client.request(start).catch((e) => e)) as ServiceError
    client.dispose()
    expect(sim.count('export-start')).toBe(5)
    expect(error.mayHaveBeenProcessed).toBe(false)
    expect(error.message).toBe('Could not start the export of docs.acme.com: HTTP 503: simulated 503 after 5 attempts.')
    expect(sim.exportJobs.size).toBe(0)
  })

  test('a byte order mark before the JSON is no fault', async () => {
    sim = await startSimulator()
    const { client, log } = clientFor(sim.apiUrl)
    sim.addFault({ route: 'export-start', status: 200, body: '\ufeff{"jobId":"exp_bom","status":"queued"}' })
    expect(await client.request(start)).toEqual({ jobId: 'exp_bom', status: 'queued' })
    client.dispose()
    expect(sim.count('export-start')).toBe(1)
    expect(log.text()).not.toContain('retry')
  })

  test("a broken answer's preview never shows an address's query (a bundle link's signature)", async () => {
    sim = await startSimulator()
    const { client, log } = clientFor(sim.apiUrl)
    const broken = '{"bundleUrl":"https://storage.example/b/site.tar.gz?X-Amz-Signature=SECRET123&X-Amz-Expires=900'
    sim.addFault({ route: 'export-start', status: 200, body: broken, times: 10 })
    const error = (await client.request(start).catch((e: unknown) => e)) as ServiceError
    client.dispose()
    expect(error.message).toContain('not JSON: {"bundleUrl":"https://storage.example/b/site.tar.gz?…')
    expect(`${error.message}\n${log.text()}`).not.toContain('SECRET123')
  })

  test('an answer that is not JSON is an error, not a crash', async () => {
    sim = await startSimulator()
    const { client } = clientFor(sim.apiUrl)
    sim.addFault({ route: 'export-start', status: 200, body: '<html>proxy login</html>' })
    await expect(client.request(start)).rejects.toThrow(
      /answered HTTP 200, but its answer was unusable \(not JSON: <html>proxy login<\/html>\)/
    )
    client.dispose()
  })
})

describe('an answer that breaks off or is unusable', () => {
  const read = (jobId: string, deadline?: number) =>
    ({
      method: 'GET',
      path: `/v1/static-export/jobs/${jobId}`,
      kind: 'idempotent',
      what: `read export job ${jobId}`,
      deadline
    }) as const

  /** A started job to read, and a client whose clock runs 1000 times faster: a minute's bound takes 60 ms. */
  /**
   * A started job, and a client whose clock runs `speed` times faster than real time: the minute
   * one request may take is 300 ms, which a loaded machine does not outrun on a quick fault.
   */
  async function startedJob(speed = 200) {
    sim = await startSimulator()
    const setup = clientFor(sim.apiUrl)
    const { jobId } = (await setup.client.request(start)) as { jobId: string }
    setup.client.dispose()
    return { jobId, ...clientFor(sim.apiUrl, sim.apiKey, speed) }
  }

  test.each([
    ['cut in the middle of the body', { truncateAt: 10 }],
    ['stalled in the middle of the body', { stallAt: 10 }],
    ['sent one byte at a time', { trickleMs: 200 }],
    ['never answered', { hang: true }],
    ['a 200 that is not JSON', { status: 200, body: '{"status": "runn' }],
    ['larger than any answer', { status: 200, body: { status: 'running', pad: 'x'.repeat(5 * 1024 * 1024) } }]
  ])('a GET %s is tried again', async (_, fault) => {
    const { jobId, client, log } = await startedJob()
    sim?.addFault({ route: 'export-status', ...fault })
    const answer = (await client.request(read(jobId))) as { status: string }
    client.dispose()
    expect(answer.status).toEqual(expect.any(String))
    expect(sim?.count('export-status')).toBe(2)
    expect(log.text()).toMatch(/Could not read export job .*; retry 1 in \d+\.\d s\./)
  })

  test.each([
    ['cut in the middle of the body', { truncateAt: 5 }, /the connection broke off after 5 bytes of the answer/],
    ['stalled in the middle of the body', { stallAt: 5 }, /no complete answer within 1m 00s/],
    ['not JSON', { status: 200, body: 'OK' }, /not JSON: OK/]
  ])(
    'a start POST whose 200 answer is %s fails as "may have been processed", and is not sent again',
    async (_, fault, why) => {
      sim = await startSimulator()
      const { client } = clientFor(sim.apiUrl, sim.apiKey, 200)
      sim.addFault({ route: 'export-start', process: true, ...fault })
      const error = (await client.request(start).catch((e: unknown) => e)) as ServiceError
      client.dispose()
      expect(error).toBeInstanceOf(ServiceError)
      expect(error.message).toMatch(/answered HTTP 20\d, but its answer was unusable/)
      expect(error.message).toMatch(why)
      expect(error.message).toContain('The service may have processed the request, so it was not sent again')
      expect(error.mayHaveBeenProcessed).toBe(true)
      expect(sim.count('export-start')).toBe(1)
    }
  )

  test('an oversized answer is refused after the cap, without reading it all', async () => {
    // Reading 4 MiB takes real time: at 1000x, a loaded machine ran past the minute one request may take (60 ms).
    const { jobId, client } = await startedJob(50)
    sim?.addFault({ route: 'export-status', status: 200, body: { pad: 'x'.repeat(5 * 1024 * 1024) }, times: 5 })
    const error = (await client.request(read(jobId)).catch((e: unknown) => e)) as ServiceError
    client.dispose()
    expect(error.message).toMatch(/unusable answer: the answer is larger than 4194304 bytes after 5 attempts/)
  })

  test('a create request past the deadline and its grace is not sent, nor said to be possibly processed', async () => {
    sim = await startSimulator()
    const { client, clock } = clientFor(sim.apiUrl)
    const error = (await client
      .request({ ...start, deadline: clock.now() - 2500 })
      .catch((e: unknown) => e)) as ServiceError
    client.dispose()
    expect(error.message).toBe(
      'Could not start the export of docs.acme.com: it was not sent; no time is left within `timeout` for another try.'
    )
    expect(error.mayHaveBeenProcessed).toBe(false)
    expect(sim.count('export-start')).toBe(0)
  })

  test('a wait the service asks for that `timeout` does not leave: the error says until when', async () => {
    sim = await startSimulator()
    sim.addFault({ route: 'export-start', status: 429, retryAfter: '120' })
    const { client, clock } = clientFor(sim.apiUrl)
    const error = (await client
      .request({ ...start, deadline: clock.now() + 20_000 })
      .catch((e: unknown) => e)) as ServiceError
    client.dispose()
    expect(error.message).toMatch(
      /^Could not start the export of docs\.acme\.com: HTTP 429.*; no time is left within `timeout` for another try\./
    )
    expect(error.message).toMatch(/ The service asked to wait until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(2m 00s\)\.$/)
    const [, day, time] = /until (\S+) (\S+) UTC/.exec(error.message)!
    const until = Date.parse(`${day}T${time}Z`)
    expect(Math.abs(until - (clock.now() + 120_000))).toBeLessThan(60_000)
    expect(sim.count('export-start')).toBe(1)
  })

  test('a wait longer than any step (past what a Date holds) is said as a week "or later", not a crash', async () => {
    sim = await startSimulator()
    sim.addFault({ route: 'export-start', status: 503, retryAfter: '99999999999999' })
    const { client, clock } = clientFor(sim.apiUrl)
    const error = (await client
      .request({ ...start, deadline: clock.now() + 20_000 })
      .catch((e: unknown) => e)) as ServiceError
    client.dispose()
    expect(error).toBeInstanceOf(ServiceError)
    expect(error.stoppedByDeadline).toBe(true)
    expect(error.message).toMatch(
      /; no time is left within `timeout` for another try\. The service asked to wait until \d{4}-\d\d-\d\d /
    )
    expect(error.message).toMatch(/ \d\d:\d\d:\d\d UTC or later \(168h 00m or more\)\.$/)
    expect(sim.count('export-start')).toBe(1)
  })

  test("an agent message's rate limit with such a wait says when to try again, not a crash", async () => {
    sim = await startSimulator()
    sim.addFault({ route: 'agent-message', status: 429, retryAfter: '99999999999999' })
    const { client, clock } = clientFor(sim.apiUrl)
    const error = await new AgentApi(client, () => clock.now())
      .message('proj_123', 'job_1', 'hello', clock.now() + 20_000)
      .catch((e: unknown) => e)
    client.dispose()
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toMatch(
      /limit on sending messages, 100 uses an hour per project, is reached for project proj_123 \(HTTP 429.*\)\. /
    )
    expect((error as Error).message).toMatch(
      /\. Waiting for it would pass `timeout`, so it was not tried again\. Try again after \d{4}-[\d-]+ [\d:]+ UTC /
    )
    expect((error as Error).message).toMatch(/ UTC or later \(in 168h 00m or more\)\.$/)
    expect(sim.count('agent-message')).toBe(1)
  })

  test('each attempt ends with the step: a hung request fails soon after the deadline, naming `timeout`', async () => {
    const { jobId } = await startedJob()
    const { client, clock } = clientFor(sim?.apiUrl as string)
    sim?.addFault({ route: 'export-status', hang: true, times: 5 })
    const deadline = clock.now() + 5000
    const error = (await client.request(read(jobId, deadline)).catch((e: unknown) => e)) as ServiceError
    client.dispose()
    expect(error.message).toMatch(
      /no complete answer before `timeout` ran out; no time is left within `timeout` for another try/
    )
    // The deadline, plus the grace the last request has to be answered in (and 15 s of test clock,
    // 0.15 s of real time, for a loaded machine); unbounded, the request alone would take 60 s.
    expect(clock.now()).toBeLessThan(deadline + 2000 + 15_000)
    expect(sim?.count('export-status')).toBe(1)
  })
})
