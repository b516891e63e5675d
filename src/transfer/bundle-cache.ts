/**
 * A bundle already fetched, kept in the runner's tool cache: on a self-hosted runner a rerun for
 * the same export job (`job-id`) unpacks it from there instead of downloading it again. A
 * completed job's files do not change, so its bundle is keyed by the service and the job.
 */
import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { ToolCache } from '../action/host.js'
import { errorMessage } from '../common/errors.js'
import type { Logger } from '../common/log.js'

const TOOL = 'docs-export-bundle'
/**
 * Bundles kept at most: the tool cache is never emptied by itself, and a run with `domain` starts
 * a new job each time, so each would add a bundle for good. A rerun wants the latest few, and a
 * bundle that reruns keep using (a deployment's pinned `job-id`) stays among them.
 */
const KEPT_BUNDLES = 3

export class BundleCache {
  /** The tool cache wants a semver version: the job and its service, hashed into a prerelease tag. */
  private readonly version: string

  constructor(
    private readonly toolCache: ToolCache,
    baseUrl: string,
    private readonly jobId: string,
    private readonly log: Logger
  ) {
    this.version = `0.0.0-j${createHash('sha256').update(`${baseUrl}\n${jobId}`).digest('hex').slice(0, 24)}`
  }

  /**
   * The cached archive of this job, or undefined; one found is marked used, so that it is the last
   * to be pruned. A cache that cannot be read is no cache.
   */
  async find(): Promise<string | undefined> {
    let archive: string | undefined
    try {
      const folder = await this.toolCache.find(TOOL, this.version)
      const name =
        folder === undefined ? undefined : (await readdir(folder)).find((entry) => entry.startsWith('bundle.'))
      archive = folder === undefined || name === undefined ? undefined : join(folder, name)
    } catch (error) {
      this.log.warning(
        `Could not look up the bundle of export job ${this.jobId} in the tool cache: ${errorMessage(error)}`
      )
      return undefined
    }
    // Only the order of pruning depends on it: a bundle that cannot be marked is still used.
    if (archive !== undefined)
      await this.toolCache
        .markUsed(TOOL, this.version)
        .catch((error: unknown) =>
          this.log.debug(`Could not mark the bundle as used in the tool cache: ${errorMessage(error)}`)
        )
    return archive
  }

  /**
   * Keeps `archiveFile` for later runs, and forgets all but the KEPT_BUNDLES most recently kept or used bundles;
   * a failure is a warning (the bundle is downloaded then).
   */
  async keep(archiveFile: string): Promise<void> {
    try {
      await this.toolCache.cacheFile(archiveFile, basename(archiveFile), TOOL, this.version)
      this.log.info(`Kept the bundle of export job ${this.jobId} in the runner's tool cache for later runs.`)
      const older = (await this.toolCache.versions(TOOL))
        .filter((version) => version !== this.version)
        .slice(KEPT_BUNDLES - 1)
      for (const version of older) await this.toolCache.remove(TOOL, version)
      if (older.length > 0)
        this.log.info(
          `Removed ${older.length} older bundle${older.length === 1 ? '' : 's'} from the tool cache (it keeps ` +
            `the ${KEPT_BUNDLES} most recently used).`
        )
    } catch (error) {
      this.log.warning(
        `Could not keep the bundle of export job ${this.jobId} in the tool cache: ${errorMessage(error)}`
      )
    }
  }
}
