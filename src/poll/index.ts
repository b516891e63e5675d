export { pollUntilDone, PollTimeoutError } from './poller.js'
export type { PollOptions, PollResult } from './poller.js'
export { nextPollDelay, blindDelay, fitRate, minimumDelay, usableProgress } from './schedule.js'
export type { PollObservation, PollSettings, RateFit } from './schedule.js'
