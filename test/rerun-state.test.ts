// The rerun's state, table by table: each row is what a first attempt went through, the marker
// its reply carries at the end (written and read back), when each step's marker had to be on
// GitHub, and what a rerun of the workflow run then does.
import { describe, expect, test } from '@jest/globals'
import {
  type MarkerWrite,
  type ReplyState,
  type RerunDecision,
  type RerunEvent,
  advance,
  carryOn,
  formatReplyMarker,
  readReplyMarker
} from '../src/reply/rerun-state.js'

const PROJECT = 'proj_123'
const JOB = { projectId: PROJECT, jobId: 'job_abc' }
const ELSEWHERE = { projectId: 'proj_other', jobId: 'job_xyz' }
const START: ReplyState = { run: '4242', comment: 123456 }

const asking = (asked: 'message' | 'create', job = asked === 'message' ? JOB : undefined): RerunEvent => ({
  kind: 'asking',
  asked,
  job,
  at: 1000
})
const answered = (asked: 'message' | 'create' | 'read', job = JOB, seen = false): RerunEvent => ({
  kind: 'answered',
  asked,
  at: 1000,
  job,
  seen
})
const REFUSED: RerunEvent = { kind: 'refused' }
const TOOK_UP: RerunEvent = { kind: 'took-up' }

/** Runs `events` from START: the state, and each step's write. */
function play(events: RerunEvent[]): { state: ReplyState; writes: MarkerWrite[] } {
  let state = START
  const writes: MarkerWrite[] = []
  for (const event of events) {
    const next = advance(state, event)
    state = next.state
    writes.push(next.write)
  }
  return { state, writes }
}

type Row = [
  what: string,
  events: RerunEvent[],
  marker: Partial<ReplyState>,
  decision: RerunDecision['kind'] | { follow: { answered: boolean; seen: boolean; asked: string } }
]

const ROWS: Row[] = [
  ['nothing asked (a failure before the service)', [], { asked: undefined, outcome: undefined }, 'ask'],
  ['a create with no clear answer', [asking('create')], { asked: 'create', outcome: 'pending' }, 'refuse'],
  ['a create the service refused', [asking('create'), REFUSED], { asked: 'create', outcome: 'refused' }, 'ask'],
  [
    'a create the service answered',
    [asking('create'), answered('create')],
    { asked: 'create', outcome: 'answered', job: JOB },
    { follow: { answered: true, seen: false, asked: 'create' } }
  ],
  [
    'a message with no clear answer: followed, not sent again',
    [asking('message')],
    { asked: 'message', outcome: 'pending', job: JOB },
    { follow: { answered: false, seen: false, asked: 'message' } }
  ],
  ['a message the service refused', [asking('message'), REFUSED], { outcome: 'refused' }, 'ask'],
  [
    'a message answered, and the job took it up',
    [asking('message'), answered('message'), TOOK_UP],
    { outcome: 'answered', seen: true },
    { follow: { answered: true, seen: true, asked: 'message' } }
  ],
  [
    'a message answered by a job that showed at once it took it up',
    [asking('message'), answered('message', JOB, true)],
    { outcome: 'answered', seen: true },
    { follow: { answered: true, seen: true, asked: 'message' } }
  ],
  [
    'a message refused, then a successor job with no clear answer',
    [asking('message'), REFUSED, asking('create')],
    { asked: 'create', outcome: 'pending', job: undefined },
    'refuse'
  ],
  [
    'a read answered',
    [answered('read')],
    { asked: 'read', outcome: 'answered' },
    { follow: { answered: true, seen: false, asked: 'read' } }
  ],
  ['a read of a job of another project', [answered('read', ELSEWHERE)], { asked: 'read' }, 'ask'],
  ['a message to a job of another project', [asking('message', ELSEWHERE)], { job: ELSEWHERE }, 'refuse'],
  ['a job created in another project', [asking('create'), answered('create', ELSEWHERE)], { job: ELSEWHERE }, 'refuse']
]

describe('the rerun state: what a first attempt leaves, and what a rerun does with it', () => {
  test.each(ROWS)('%s', (_, events, marker, decision) => {
    const { state, writes } = play(events)
    // Only a request that creates something waits for its marker; every other step rides on the next edit.
    expect(writes).toEqual(
      events.map((event): MarkerWrite => (event.kind === 'asking' ? 'before-asking' : 'with-the-next-edit'))
    )
    // What the rerun reads is what the marker holds, written and read back.
    const read = readReplyMarker(`${formatReplyMarker(state)}⏳ text`)
    expect(read).toMatchObject({ run: START.run, comment: START.comment, ...marker })
    const expected = typeof decision === 'string' ? { kind: decision } : { kind: 'follow', resumed: decision.follow }
    expect(carryOn(read, PROJECT)).toMatchObject(expected)
  })

  test('a refusal says why: a create that may exist, a job this workflow cannot follow', () => {
    const pending = carryOn(play([asking('create')]).state, PROJECT)
    expect(pending).toMatchObject({ kind: 'refuse', message: expect.stringContaining('may have asked the service') })
    const elsewhere = carryOn(play([asking('message', ELSEWHERE)]).state, PROJECT)
    expect(elsewhere).toMatchObject({
      kind: 'refuse',
      message: expect.stringContaining("(agent job job_xyz of project proj_other, not this workflow's `project-id`)")
    })
  })

  test('no earlier reply, or a marker that does not read: a rerun asks as if new', () => {
    expect(carryOn(undefined, PROJECT)).toEqual({ kind: 'ask' })
    expect(readReplyMarker('<!-- docs-admin-action:reply comment=x -->\n')).toBeUndefined()
  })
})
