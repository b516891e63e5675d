/**
 * The site check before a deployment (`verify`), as the export flow reports it: the figures in
 * the log and the summary, the first broken links as warnings with their page and line, the
 * `broken-links` output, and with `verify: strict` a failure that keeps the previous site.
 */
import type { FlowContext } from '../action/context.js'
import type { ExportSettings } from '../action/settings.js'
import { ActionError } from '../common/errors.js'
import { serviceText } from '../common/text.js'
import { type SiteCheck, checkSite } from '../verify/site.js'

/**
 * The review of one unpacking's staged site before the swap, or undefined when the site is not
 * checked: it checks the site (`files`: its files as site paths, from the unpacking's walk of the
 * staged tree) and judges the result; a throw keeps the previous site.
 */
export function siteVerifier(
  settings: ExportSettings,
  context: FlowContext
): ((stagedRoot: string, files: readonly string[]) => Promise<void>) | undefined {
  if (!settings.extract || settings.verify === 'off') return undefined
  const reported = Number(context.outputs.get('page-count'))
  const expectedPages = Number.isInteger(reported) && reported > 0 ? reported : undefined
  return async (stagedRoot, files) =>
    judge(await checkSite(stagedRoot, { files, expectedPages, signal: context.signal }), settings, context)
}

function judge(check: SiteCheck, settings: ExportSettings, context: FlowContext): void {
  const { log } = context.host
  const { outputs, report } = context
  outputs.set('broken-links', check.brokenCount)
  log.info(
    `Checked the site: ${check.htmlPages} pages, ${check.links} internal links, ${check.brokenCount} broken (${Math.round(check.reviewMs)} ms after unpacking).`
  )
  report.rows.push(['Broken links', String(check.brokenCount)])
  for (const problem of check.problems) log.warning(problem)
  for (const broken of check.broken) {
    const more = broken.count > 1 ? ` (and ${broken.count - 1} more ${broken.count === 2 ? 'place' : 'places'})` : ''
    log.warning(
      broken.link === undefined
        ? `Broken link in ${serviceText(broken.file)}, a page that changed while the site was checked: it leads to no file of the site${more}.`
        : // JSON.stringify escapes only C0 controls: the link is the archive's text like the page name.
          `Broken link in ${serviceText(broken.file)} line ${broken.line}: ${JSON.stringify(serviceText(broken.link))} leads to no file of the site${more}.`
    )
  }
  const distinct = check.broken.length
  if (check.brokenCount > 0 && distinct < check.brokenCount)
    report.notes.push(
      `${check.brokenCount} internal links lead to no file of the site; the log shows where the first ${distinct} distinct ones are.`
    )
  if (settings.verify !== 'strict' || (check.problems.length === 0 && check.brokenCount === 0)) return
  const what = [
    ...check.problems,
    ...(check.brokenCount > 0 ? [`${check.brokenCount} internal links lead to no file of the site.`] : [])
  ]
  throw new ActionError(
    `The site check failed (\`verify: strict\`): ${what.join(' ')} The previous site was left as it was.`
  )
}
