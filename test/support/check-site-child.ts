// The site check over the folder named by the first argument, in a process of its own: prints what it found and
// the process's peak RSS, so that a test measures the check's memory apart from the test runner's.
import { checkSite } from '../../src/verify/site.js'

const check = await checkSite(process.argv[2] as string)
process.stdout.write(JSON.stringify({ check, maxRssBytes: process.resourceUsage().maxRSS * 1024 }))
