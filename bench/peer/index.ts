// The peer of the download + unpack benchmark, written as an action author would write it with
// @actions/tool-cache: download the link to a file in RUNNER_TEMP, then the system tar or unzip.
// Bundled apart by the benchmark (ncc, as dist/ is) and run as `node index.js` with INPUT_* set.
import * as core from '@actions/core'
import * as tc from '@actions/tool-cache'

try {
  const url = core.getInput('url', { required: true })
  const path = core.getInput('path', { required: true })
  const format = core.getInput('format')
  if (format !== 'tar.gz' && format !== 'zip') throw new Error(`format must be tar.gz or zip, not ${format}`)
  const file = await tc.downloadTool(url)
  const dir = format === 'zip' ? await tc.extractZip(file, path) : await tc.extractTar(file, path)
  core.setOutput('site-path', dir)
} catch (error) {
  core.setFailed(error instanceof Error ? error.message : String(error))
}
