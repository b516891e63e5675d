/**
 * A receiver with the site staging folder the transfer would make for it beside `siteDir`, and
 * the transfer's cleanup: what the archive tests drive in place of a download.
 */
import { ArchiveReceiver, type ReceivedArchive, type ReceiverOptions } from '../../src/archive/receiver.js'
import { createStagingFolder, discardFolder } from '../../src/site/staging.js'

export class TestUnpacking {
  private constructor(
    private readonly receiver: ArchiveReceiver,
    private readonly siteDir: string | undefined,
    private readonly staging: string | undefined
  ) {}

  static async open(options: Omit<ReceiverOptions, 'into'> & { siteDir: string | undefined }): Promise<TestUnpacking> {
    const staging = options.siteDir === undefined ? undefined : await createStagingFolder(options.siteDir)
    return new TestUnpacking(await ArchiveReceiver.open({ ...options, into: staging }), options.siteDir, staging)
  }

  write(chunk: Buffer): Promise<void> | undefined {
    return this.receiver.write(chunk)
  }

  complete(): Promise<ReceivedArchive> {
    return this.receiver.complete()
  }

  async discard(cancelled = false): Promise<void> {
    await this.receiver.discard()
    if (this.staging !== undefined) {
      await discardFolder(this.staging, this.siteDir as string, { cancelled, entries: this.receiver.entries })
    }
  }
}
