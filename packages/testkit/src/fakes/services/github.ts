import type { FakeServer, RecordedRequest } from '../server.js';
import { createServiceFake } from './kit.js';

const origin = (req: RecordedRequest) => `http://${String(req.headers.host)}`;

/** Recorded GitHub REST answers (API version 2022-11-28). */
export const GITHUB_FIXTURES = {
  pull: {
    number: 42,
    title: 'Add retries',
    state: 'open',
    body: 'Retries transient failures.',
    html_url: 'https://github.com/acme/app/pull/42',
    created_at: '2025-05-01T10:00:00Z',
    updated_at: '2025-05-02T11:00:00Z',
    head: { sha: 'abc123' },
  },
  diff: 'diff --git a/src/a.ts b/src/a.ts\n+retry()\n',
  files: [
    { filename: 'src/a.ts', additions: 3, deletions: 1, changes: 4, patch: '@@ -1 +1 @@', blob_url: 'https://github.com/b', raw_url: 'https://github.com/r', status: 'modified' },
  ],
  review: { id: 9001, body: 'Looks good', html_url: 'https://github.com/acme/app/pull/42#pullrequestreview-9001', submitted_at: '2025-05-03T09:00:00Z', commit_id: 'abc123' },
  comment: { id: 77, body: 'nit', html_url: 'https://github.com/acme/app/pull/42#discussion_r77', path: 'src/a.ts', line: 3, side: 'RIGHT', commit_id: 'abc123', created_at: '2025-05-03T09:00:00Z', updated_at: '2025-05-03T09:00:00Z' },
  repo: { name: 'app', full_name: 'acme/app', description: 'The app', stargazers_count: 120, forks_count: 7, open_issues_count: 3, language: 'TypeScript', default_branch: 'main', html_url: 'https://github.com/acme/app' },
  commit: {
    sha: 'def456',
    html_url: 'https://github.com/acme/app/commit/def456',
    commit: { message: 'Fix build', author: { name: 'Ada', email: 'ada@acme.example.invalid', date: '2025-05-04T08:00:00Z' }, committer: { name: 'Ada', email: 'ada@acme.example.invalid', date: '2025-05-04T08:00:00Z' } },
    author: { login: 'ada', avatar_url: 'https://avatars/ada', html_url: 'https://github.com/ada' },
    committer: { login: 'ada', avatar_url: 'https://avatars/ada', html_url: 'https://github.com/ada' },
    stats: { additions: 5, deletions: 2, total: 7 },
    files: [{ filename: 'build.ts', additions: 5, deletions: 2, changes: 7, status: 'modified' }],
  },
} as const;

/** A fake GitHub REST API; the pull's diff_url points back at the fake. */
export function createFakeGithub(): Promise<FakeServer> {
  return createServiceFake([
    ['GET', '/repos/:owner/:repo/pulls/:n', (req) => ({ json: { ...GITHUB_FIXTURES.pull, diff_url: `${origin(req)}/diffs/42.diff` } })],
    ['GET', '/diffs/:file', { text: GITHUB_FIXTURES.diff }],
    ['GET', '/repos/:owner/:repo/pulls/:n/files', { json: GITHUB_FIXTURES.files }],
    ['POST', '/repos/:owner/:repo/pulls/:n/reviews', { json: GITHUB_FIXTURES.review }],
    ['POST', '/repos/:owner/:repo/pulls/:n/comments', { status: 201, json: GITHUB_FIXTURES.comment }],
    ['GET', '/repos/:owner/:repo', { json: GITHUB_FIXTURES.repo }],
    ['GET', '/repos/:owner/:repo/commits/:ref', { json: GITHUB_FIXTURES.commit }],
  ]);
}
