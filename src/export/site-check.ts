/**
 * The site check before a deployment (`verify`), as the export flow reports it: the figures in
 * the log and the summary, the first broken links with their page and line (as warnings, and as
 * a list in the summary), the `broken-links` output, and a failure that keeps the previous site for a
 * bundle with no page at all, and with `verify: strict` for any finding.
 */
import type { FlowContext } from '../action/context.js'
import type { ExportSettings } from '../action/settings.js'
import { startEarly } from '../common/cancellation.js'
import { ActionError } from '../common/errors.js'
import type { Fold } from '../action/summary.js'
import type { Secrets } from '../common/secrets.js'
import { serviceText } from '../common/text.js'
import { counted } from '../common/units.js'
import type { BrokenLink, SiteCheck } from '../verify/site.js'

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
  // The site check is loaded only by a run that checks: it loads while the bundle downloads.
  const loading = startEarly(import('../verify/site.js'))
  return async (stagedRoot, files) => {
    const { checkSite } = await loading
    judge(await checkSite(stagedRoot, { files, expectedPages, signal: context.signal }), settings, context)
  }
}

function judge(check: SiteCheck, settings: ExportSettings, context: FlowContext): void {
  const { log } = context.host
  const { outputs, report } = context
  outputs.set('broken-links', check.brokenCount)
  const links = counted(check.links, 'internal link')
  const after = `${Math.round(check.reviewMs)} ms after unpacking`
  log.info(`Checked the site: ${counted(check.htmlPages, 'page')}, ${links}, ${check.brokenCount} broken (${after}).`)
  report.rows.push(['Broken links', String(check.brokenCount)])
  for (const problem of check.problems) log.warning(problem)
  for (const broken of check.broken) {
    // JSON.stringify escapes only C0 controls: the link is the archive's text like the page name.
    const link = JSON.stringify(serviceText(broken.link))
    const nowhere = `leads to no file of the site${morePlaces(broken)}`
    log.warning(`Broken link in ${serviceText(broken.file)} line ${broken.line}: ${link} ${nowhere}.`)
  }
  if (check.broken.length > 0) report.folds.push(brokenLinksFold(check, context.secrets))
  // A bundle without a page would replace the site with none: whatever the check's warnings, that is refused.
  if (check.htmlPages === 0) {
    throw new ActionError(
      'The site check failed: the bundle has no HTML page at all, which only `verify: false` lets replace ' +
        'the site. The previous site was left as it was.'
    )
  }
  if (settings.verify !== 'strict' || (check.problems.length === 0 && check.brokenCount === 0)) return
  const what = [...check.problems, ...(check.brokenCount > 0 ? [`${leadNowhere(check.brokenCount)}.`] : [])]
  throw new ActionError(
    `The site check failed (\`verify: strict\`): ${what.join(' ')} The previous site was left as it was.`
  )
}

/** The longest page name or link a summary's line shows: a site's text, of no bound of its own. */
const SHOWN_CHARS = 300

/**
 * The broken links for the job summary, shown open: one line each, `page line N -> link`, of the
 * first distinct ones (what the site check reports), then how many places the others are in.
 * The archive's text: made safe, the run's secrets taken out before it is cut.
 */
export function brokenLinksFold(check: SiteCheck, secrets: Secrets): Fold {
  const shown = (value: string): string =>
    secrets.cut(serviceText(value), SHOWN_CHARS, `(cut short: ${value.length} characters)`)
  const lines = check.broken.map(
    (broken) => `${shown(broken.file)} line ${broken.line} → ${shown(broken.link)}${morePlaces(broken)}`
  )
  const listed = check.broken.reduce((sum, broken) => sum + broken.count, 0)
  if (listed < check.brokenCount) {
    const shownLinks = counted(check.broken.length, 'link')
    lines.push(`… and ${counted(check.brokenCount - listed, 'more place')} (the first ${shownLinks} shown)`)
  }
  return { title: `${leadNowhere(check.brokenCount)}: page and line → link`, kind: 'list', lines, open: true }
}

/** `3 internal links lead to no file of the site`, `1 internal link leads ...`. */
function leadNowhere(count: number): string {
  return `${counted(count, 'internal link')} ${count === 1 ? 'leads' : 'lead'} to no file of the site`
}

/** ` (and 2 more places)`: where else a broken link appears; empty when it appears once. */
function morePlaces(broken: BrokenLink): string {
  return broken.count > 1 ? ` (and ${counted(broken.count - 1, 'more place')})` : ''
}
