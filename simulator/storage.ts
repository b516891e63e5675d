// The "object storage" side: presigned-style bundle links and their download endpoint.
//
// Why a separate origin: real bundle links point at a storage host, not the API host, so a
// client must not forward its API credentials there (storage rejects a second auth mechanism).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { buildTar, buildZip, countHtmlPages, fixtureSiteEntries } from './archives.js'
import type { ArchiveEntry } from './archives.js'
import type { Reply, RequestContext, Route } from './http.js'

export interface BundleOptions {
  format?: 'tar.gz' | 'tar' | 'zip'
  entries?: ArchiveEntry[]
  /** Served verbatim instead of building an archive from `entries`. */
  body?: Buffer
  /** Link lifetime, default 15 minutes. */
  linkTtlMs?: number
  /** Include sizeBytes in the bundle response, default true. */
  reportSize?: boolean
  /**
   * `presigned` (the default): an S3-style link whose signature is in its query. `path-token`: the
   * credential is a signed JWT that is a segment of the link's path (`/dl/<jwt>/site.tar.gz`), with
   * no query, as some CDNs hand out downloads.
   */
  linkStyle?: 'presigned' | 'path-token'
}

export interface IssuedBundle {
  bundleUrl: string
  expiresAt: string
  sizeBytes?: number
}

interface IssuedLink {
  jobId: string
  expiresAtMs: number
  archive: Promise<Buffer>
}

const DEFAULT_TTL_MS = 15 * 60 * 1000

export class BundleStore {
  private config: BundleOptions
  private generation = 0
  // Per-simulator secret: links from one simulator never validate on another.
  private readonly secret = randomBytes(32)
  private readonly links = new Map<string, IssuedLink>()
  private readonly archives = new Map<string, { generation: number; data: Promise<Buffer> }>()
  private issued = 0
  /** Every link handed out, in order (tests check that no signature leaks). */
  readonly issuedLinks: string[] = []

  constructor(
    config: BundleOptions | undefined,
    private readonly now: () => number,
    private readonly storageUrl: () => string
  ) {
    this.config = config ?? {}
  }

  /** Replaces the archive served for links issued from now on (existing links keep theirs). */
  setBundle(config: BundleOptions | undefined): void {
    this.config = config ?? {}
    this.generation += 1
  }

  /** Default final pageCount of an export: HTML pages of the configured bundle entries. */
  htmlPageCount(): number {
    return countHtmlPages(this.config.entries ?? fixtureSiteEntries())
  }

  /** Creates a fresh presigned-style link for a completed job. */
  async issue(jobId: string): Promise<IssuedBundle> {
    const archive = this.archiveFor(jobId)
    const data = await archive
    const issuedAt = this.now()
    const ttl = this.config.linkTtlMs ?? DEFAULT_TTL_MS
    const expiresAtMs = issuedAt + ttl
    const ext = this.config.body ? 'bin' : (this.config.format ?? 'tar.gz')
    this.issued += 1
    if (this.config.linkStyle === 'path-token') {
      const token = this.signToken({ job: jobId, exp: Math.ceil(expiresAtMs / 1000), n: this.issued })
      this.links.set(token, { jobId, expiresAtMs, archive })
      return this.recordIssued({ bundleUrl: `${this.storageUrl()}/dl/${token}/site.${ext}`, expiresAtMs, data })
    }
    const path = `/bundles/${encodeURIComponent(jobId)}/site.${ext}`
    const amzDate = new Date(issuedAt)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '')
    const query = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      // The counter makes every call yield a distinct link, even within one clock tick.
      'X-Amz-Credential': `SIMULATOR${this.issued}/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`,
      'X-Amz-Date': amzDate,
      'X-Amz-Expires': String(Math.max(1, Math.ceil(ttl / 1000))),
      'X-Amz-SignedHeaders': 'host'
    })
    const signature = this.sign(path, query)
    query.set('X-Amz-Signature', signature)
    // The exact expiry (ms) is kept server-side so a fake clock can expire links precisely.
    this.links.set(signature, { jobId, expiresAtMs, archive })
    return this.recordIssued({ bundleUrl: `${this.storageUrl()}${path}?${query}`, expiresAtMs, data })
  }

  private recordIssued(link: { bundleUrl: string; expiresAtMs: number; data: Buffer }): IssuedBundle {
    const result: IssuedBundle = { bundleUrl: link.bundleUrl, expiresAt: new Date(link.expiresAtMs).toISOString() }
    this.issuedLinks.push(result.bundleUrl)
    if (this.config.reportSize !== false) result.sizeBytes = link.data.length
    return result
  }

  routes(): Route[] {
    return [
      {
        name: 'download',
        method: ['GET', 'HEAD'],
        pattern: '/bundles/:jobId/:file',
        handle: (ctx) => this.download(ctx)
      },
      {
        name: 'download',
        method: ['GET', 'HEAD'],
        pattern: '/dl/:token/:file',
        handle: (ctx) => this.downloadByToken(ctx)
      }
    ]
  }

  private archiveFor(jobId: string): Promise<Buffer> {
    const cached = this.archives.get(jobId)
    if (cached && cached.generation === this.generation) return cached.data
    const config = this.config
    const data = config.body
      ? Promise.resolve(config.body)
      : buildArchive(config.entries ?? fixtureSiteEntries(), config.format ?? 'tar.gz')
    this.archives.set(jobId, { generation: this.generation, data })
    return data
  }

  private sign(path: string, query: URLSearchParams): string {
    const canonical = [path, query.get('X-Amz-Credential'), query.get('X-Amz-Date'), query.get('X-Amz-Expires')].join(
      '\n'
    )
    return createHmac('sha256', this.secret).update(canonical).digest('hex')
  }

  /** A JWT (HS256) of `claims`: header, claims and signature, each base64url, joined by dots. */
  private signToken(claims: Record<string, unknown>): string {
    const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')
    const signed = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`
    return `${signed}.${createHmac('sha256', this.secret).update(signed).digest('base64url')}`
  }

  private async downloadByToken(ctx: RequestContext): Promise<Reply> {
    const token = ctx.params.token ?? ''
    const link = this.links.get(token)
    const [header = '', claims = '', signature = ''] = token.split('.')
    const expected = createHmac('sha256', this.secret).update(`${header}.${claims}`).digest('base64url')
    if (
      link === undefined ||
      signature.length !== expected.length ||
      !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
    ) {
      return s3Error(403, 'AccessDenied', 'Invalid token')
    }
    if (this.now() >= link.expiresAtMs) return s3Error(403, 'AccessDenied', 'Token has expired')
    return this.serve(ctx, await link.archive)
  }

  private async download(ctx: RequestContext): Promise<Reply> {
    // S3 refuses a request that carries both a presigned query and an Authorization header.
    if (ctx.headers.authorization !== undefined) {
      return s3Error(
        400,
        'InvalidArgument',
        'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, ' +
          'Signature query string parameter or the Authorization header should be specified'
      )
    }
    const params = new URLSearchParams(ctx.query)
    const given = ctx.query['X-Amz-Signature'] ?? ''
    const expected = this.sign(ctx.path, params)
    const link = this.links.get(given)
    if (!/^[0-9a-f]{64}$/.test(given) || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)) || !link) {
      return s3Error(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.'
      )
    }
    if (this.now() >= link.expiresAtMs) return s3Error(403, 'AccessDenied', 'Request has expired')
    return this.serve(ctx, await link.archive)
  }

  /** The archive, whole or the range asked for. */
  private serve(ctx: RequestContext, data: Buffer): Reply {
    const etag = `"${createHash('md5').update(data).digest('hex')}"`
    const headers: Record<string, string> = {
      'content-type': 'application/octet-stream',
      etag,
      'accept-ranges': 'bytes'
    }
    const ifRange = ctx.headers['if-range']
    const range =
      ctx.headers.range !== undefined && (ifRange === undefined || ifRange === etag)
        ? parseRange(ctx.headers.range, data.length)
        : undefined
    if (range === 'unsatisfiable') {
      return {
        status: 416,
        headers: { ...headers, 'content-range': `bytes */${data.length}`, 'content-type': 'application/xml' },
        raw: xmlError('InvalidRange', 'The requested range is not satisfiable')
      }
    }
    if (range) {
      headers['content-range'] = `bytes ${range.start}-${range.end}/${data.length}`
      return { status: 206, headers, raw: data.subarray(range.start, range.end + 1) }
    }
    return { status: 200, headers, raw: data }
  }
}

async function buildArchive(entries: ArchiveEntry[], format: 'tar.gz' | 'tar' | 'zip'): Promise<Buffer> {
  if (format === 'zip') return buildZip(entries)
  return buildTar(entries, { gzip: format === 'tar.gz' })
}

/** Single byte ranges only (`bytes=N-`, `bytes=N-M`, `bytes=-K`); anything else serves the whole body. */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  let start: number
  let end: number
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]))
    end = size - 1
  } else {
    start = Number(match[1])
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  }
  if (start >= size || start > end) return 'unsatisfiable'
  return { start, end }
}

function xmlError(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`
}

function s3Error(status: number, code: string, message: string): Reply {
  return { status, headers: { 'content-type': 'application/xml' }, raw: xmlError(code, message) }
}
