import * as path from 'node:path'
import { describe, expect, test } from '@jest/globals'
import type { InputName } from '../src/action/inputs.js'
import { readSettings } from '../src/action/settings.js'
import { titleOf } from '../src/action/title.js'

/** The title of a run with these inputs (on a comment event when `eventName` says so), about `subject`. */
function title(values: Partial<Record<InputName, string>>, subject?: number, eventName?: string): string {
  const settings = readSettings(
    (name) => ({ 'api-key': 'mint_key', 'base-url': 'https://api.example', ...values })[name],
    {
      workspace: path.resolve('/work/space'),
      eventName,
      warn: () => undefined
    }
  )
  return titleOf(settings, subject)
}

describe("the job summary's title says what the run did, in words", () => {
  test('each operation, with what it is about', () => {
    expect(title({ operation: 'export', domain: 'docs.acme.com' })).toBe('Static export of docs.acme.com')
    expect(title({ operation: 'export', 'job-id': 'exp_1' })).toBe('Static export job exp_1')
    expect(title({ operation: 'deploy', 'project-id': 'proj_docs' })).toBe('Deployment of proj_docs')
    expect(title({ operation: 'deploy', 'job-id': 'st_1' })).toBe('Deployment st_1')
    expect(title({ operation: 'automation', 'project-id': 'proj_docs', 'automation-id': 'wf_1' })).toBe(
      'Automation wf_1 in project proj_docs'
    )
    const agent = { 'project-id': 'proj_docs', prompt: 'Fix it' }
    expect(title({ operation: 'agent', ...agent }, 42, 'issue_comment')).toBe('Agent conversation on #42')
    expect(title({ operation: 'agent', ...agent })).toBe('Agent conversation in project proj_docs')
    expect(title({ operation: 'agent-create', ...agent })).toBe('New agent job in project proj_docs')
    expect(title({ operation: 'agent-message', 'job-id': 'job_1', ...agent })).toBe('Message to agent job job_1')
    expect(title({ operation: 'agent-message', ...agent }, 42, 'issue_comment')).toBe('Message to the agent job of #42')
    expect(title({ operation: 'agent-status', 'project-id': 'proj_docs', 'job-id': 'job_1' })).toBe(
      'Status of agent job job_1'
    )
    expect(title({ operation: 'agent-status', 'project-id': 'proj_docs' }, undefined, 'issue_comment')).toBe(
      'Status of the agent job of the pull request'
    )
  })
})
