/**
 * A self-signed certificate for a TLS server on 127.0.0.1, made in the test itself (no key in the
 * repository, no openssl): an ECDSA P-256 key and a minimal X.509 v3 certificate, valid from a
 * day before to a day after now, for `127.0.0.1` and `localhost`. No client trusts it unless told
 * to, which is the point of some tests.
 */
import { generateKeyPairSync, sign } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'

export interface TestCertificate {
  /** PEM. */
  key: string
  /** PEM. */
  cert: string
}

export function selfSignedCertificate(now = Date.now()): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'))
  const name = sequence(set(sequence(oid('2.5.4.3'), tagged(0x0c, Buffer.from('127.0.0.1')))))
  const day = 24 * 3600 * 1000
  const subjectAltName = sequence(tagged(0x87, Buffer.from([127, 0, 0, 1])), tagged(0x82, Buffer.from('localhost')))
  const extensions = tagged(0xa3, sequence(sequence(oid('2.5.29.17'), tagged(0x04, subjectAltName))))
  const tbs = sequence(
    tagged(0xa0, integer(Buffer.from([2]))),
    integer(Buffer.from([1, 2, 3, 4])),
    ecdsaWithSha256,
    name,
    sequence(utcTime(now - day), utcTime(now + day)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions
  )
  const signature = sign('sha256', tbs, privateKey)
  const certificate = sequence(tbs, ecdsaWithSha256, tagged(0x03, Buffer.concat([Buffer.from([0]), signature])))
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert: pem('CERTIFICATE', certificate) }
}

/** DER: a tag, its length (short or long form), its content. */
function tagged(tag: number, content: Buffer): Buffer {
  const length = content.length
  const lengthBytes = length < 0x80 ? Buffer.from([length]) : lengthInBytes(length)
  return Buffer.concat([Buffer.from([tag]), lengthBytes, content])
}

function lengthInBytes(length: number): Buffer {
  const bytes: number[] = []
  for (let left = length; left > 0; left = Math.floor(left / 256)) bytes.unshift(left % 256)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

function sequence(...items: Buffer[]): Buffer {
  return tagged(0x30, Buffer.concat(items))
}

function set(...items: Buffer[]): Buffer {
  return tagged(0x31, Buffer.concat(items))
}

/** A positive INTEGER of these big-endian bytes. */
function integer(bytes: Buffer): Buffer {
  return tagged(0x02, (bytes[0] ?? 0) >= 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes)
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number)
  const bytes = [40 * first + second]
  for (const arc of rest) {
    const base128: number[] = []
    for (let left = arc; ; left = Math.floor(left / 128)) {
      base128.unshift((left % 128) | (base128.length === 0 ? 0 : 0x80))
      if (left < 128) break
    }
    bytes.push(...base128)
  }
  return tagged(0x06, Buffer.from(bytes))
}

/** UTCTime `YYMMDDHHMMSSZ` (years 1950-2049). */
function utcTime(ms: number): Buffer {
  const iso = new Date(ms).toISOString()
  const text =
    `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}` +
    `${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`
  return tagged(0x17, Buffer.from(text))
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? []
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`
}

/**
 * A TLS server on 127.0.0.1 with a certificate no client trusts; it counts the handshakes clients
 * began (refused or not) and the request bytes that reached it.
 */
export async function untrustedTlsServer(): Promise<{
  url: string
  handshakes: () => number
  requestBytes: () => number
  close: () => Promise<void>
}> {
  let handshakes = 0
  let requestBytes = 0
  const server = createTlsServer(selfSignedCertificate(), (socket) => {
    handshakes++
    socket.on('data', (data: Buffer) => (requestBytes += data.length))
  })
  // A client that refuses the certificate ends the handshake: a handshake all the same.
  server.on('tlsClientError', () => handshakes++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `https://127.0.0.1:${port}`,
    handshakes: () => handshakes,
    requestBytes: () => requestBytes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
