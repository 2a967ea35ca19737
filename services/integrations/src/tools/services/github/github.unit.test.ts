import { GITHUB_FIXTURES, createFakeGithub } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { githubTools } from './github.tools.js';

const gh = useFamily(createFakeGithub, ['github'], githubTools);
const auth = { owner: 'acme', repo: 'app', apiKey: 'ghp_1' };
const headers = { authorization: 'Bearer ghp_1', accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' };

describe('github', () => {
  it('github_pr reads the pull, its diff url and its files', async () => {
    const r = await gh.run('github_pr', { ...auth, pullNumber: 42 });
    gh.expectRequest('github_pr', 'GET', '/repos/acme/app/pulls/42', { headers });
    gh.expectRequest('github_pr', 'GET', '/diffs/42.diff', { headers: { authorization: 'Bearer ghp_1' } });
    gh.expectRequest('github_pr', 'GET', '/repos/acme/app/pulls/42/files', { headers, query: { per_page: '100', page: '1' } });
    expect(r.success).toBe(true);
    const out = r.success ? (r.output as { content: string; metadata: Record<string, unknown> }) : undefined;
    expect(out?.content).toContain('PR #42: "Add retries" (open)');
    expect(out?.content).toContain(GITHUB_FIXTURES.diff);
    expect(out?.metadata).toMatchObject({ number: 42, title: 'Add retries', state: 'open', html_url: GITHUB_FIXTURES.pull.html_url, created_at: '2025-05-01T10:00:00Z' });
    expect(out?.metadata.diff_url).toMatch(/\/diffs\/42\.diff$/);
    expect(out?.metadata.files).toEqual(GITHUB_FIXTURES.files);
  });

  it('github_pr pages through the files 100 at a time until a short page', async () => {
    const all = Array.from({ length: 205 }, (_, i) => ({ ...GITHUB_FIXTURES.files[0], filename: `src/f${i}.ts` }));
    // GitHub's paging: per_page (default 30) and page (default 1).
    const paged = (req: { search: string }) => {
      const q = new URLSearchParams(req.search);
      const perPage = Number(q.get('per_page') ?? 30);
      const page = Number(q.get('page') ?? 1);
      return { json: all.slice((page - 1) * perPage, page * perPage) };
    };
    for (let i = 0; i < 3; i++) gh.fake.once('GET', '/repos/acme/app/pulls/42/files', paged);
    const r = await gh.run('github_pr', { ...auth, pullNumber: 42 });
    for (const nth of [0, 1, 2]) gh.expectRequest('github_pr', 'GET', '/repos/acme/app/pulls/42/files', { nth, query: { per_page: '100', page: String(nth + 1) } });
    expect(gh.fake.received('GET', '/repos/acme/app/pulls/42/files')).toHaveLength(3);
    const out = r.success ? (r.output as { content: string; metadata: { files: Array<{ filename: string }> } }) : undefined;
    expect(out?.metadata.files.map((f) => f.filename)).toEqual(all.map((f) => f.filename));
    expect(out?.content).toContain('Files changed: 205');
  });

  it('github_pr: 401 and 404 give the §8 messages', async () => {
    gh.fake.once('GET', '/repos/acme/app/pulls/1', { status: 401, json: { message: 'Bad credentials' } });
    await gh.expectError('github_pr', { ...auth, pullNumber: 1 }, 'Authentication failed. Please check your GitHub token.');
    gh.fake.once('GET', '/repos/acme/app/pulls/1', { status: 404, json: { message: 'Not Found' } });
    await gh.expectError('github_pr', { ...auth, pullNumber: 1 }, 'Repository not found: acme/app');
  });

  it('github_comment posts a COMMENT review for a PR comment', async () => {
    const r = await gh.run('github_comment', { ...auth, pullNumber: 42, body: 'Looks good' });
    gh.expectRequest('github_comment', 'POST', '/repos/acme/app/pulls/42/reviews', { headers: { ...headers, 'content-type': 'application/json' }, body: { body: 'Looks good', event: 'COMMENT' } });
    expect(r).toMatchObject({ success: true, output: { content: `Comment created: ${GITHUB_FIXTURES.review.html_url}`, metadata: { id: 9001 } } });
  });

  it('github_comment posts a file comment with the head commit when none is given', async () => {
    const r = await gh.run('github_comment', { ...auth, pullNumber: 42, body: 'nit', commentType: 'file_comment', path: 'src/a.ts', line: '3' });
    gh.expectRequest('github_comment', 'GET', '/repos/acme/app/pulls/42', { headers });
    gh.expectRequest('github_comment', 'POST', '/repos/acme/app/pulls/42/comments', { headers, body: { body: 'nit', commit_id: 'abc123', path: 'src/a.ts', line: 3, side: 'RIGHT' } });
    expect(r).toMatchObject({ success: true, output: { metadata: { id: 77, path: 'src/a.ts', line: 3, side: 'RIGHT', commit_id: 'abc123' } } });
  });

  it('github_comment: without a line, a diff position is sent as position, and with neither the comment is on the whole file (side only with a line)', async () => {
    await gh.run('github_comment', { ...auth, pullNumber: 42, body: 'nit', commentType: 'file_comment', path: 'src/a.ts', position: 5, commitId: 'c1' });
    gh.expectRequest('github_comment', 'POST', '/repos/acme/app/pulls/42/comments', { body: { body: 'nit', commit_id: 'c1', path: 'src/a.ts', position: 5 } });
    await gh.run('github_comment', { ...auth, pullNumber: 42, body: 'whole file', path: 'src/a.ts', commitId: 'c1' });
    gh.expectRequest('github_comment', 'POST', '/repos/acme/app/pulls/42/comments', { body: { body: 'whole file', commit_id: 'c1', path: 'src/a.ts', subject_type: 'file' } });
  });

  it('github_comment passes an API error through', async () => {
    gh.fake.once('POST', '/repos/acme/app/pulls/42/reviews', { status: 422, json: { message: 'Validation Failed' } });
    await gh.expectError('github_comment', { ...auth, pullNumber: 42, body: 'x' }, 'GitHub API error (422): Validation Failed');
  });

  it('github_repo_info answers the repository metadata', async () => {
    const r = await gh.run('github_repo_info', auth);
    gh.expectRequest('github_repo_info', 'GET', '/repos/acme/app', { headers });
    expect(r).toMatchObject({ success: true, output: { metadata: { name: 'app', description: 'The app', stars: 120, forks: 7, openIssues: 3, language: 'TypeScript' } } });
    gh.fake.once('GET', '/repos/acme/app', { status: 401, json: {} });
    await gh.expectError('github_repo_info', auth, 'Authentication failed. Please check your GitHub token.');
  });

  it('github_latest_commit uses the default branch when none is given', async () => {
    const r = await gh.run('github_latest_commit', auth);
    gh.expectRequest('github_latest_commit', 'GET', '/repos/acme/app', { headers });
    gh.expectRequest('github_latest_commit', 'GET', '/repos/acme/app/commits/main', { headers });
    expect(r).toMatchObject({
      success: true,
      output: { metadata: { sha: 'def456', commit_message: 'Fix build', author: { name: 'Ada', login: 'ada' }, stats: { total: 7 } } },
    });
  });

  it('github_latest_commit reads the given branch and fails with 404', async () => {
    await gh.run('github_latest_commit', { ...auth, branch: 'release/1' });
    gh.expectRequest('github_latest_commit', 'GET', '/repos/acme/app/commits/release%2F1', { headers });
    gh.fake.once('GET', '/repos/acme/app/commits/:ref', { status: 404, json: { message: 'No commit found' } });
    await gh.expectError('github_latest_commit', { ...auth, branch: 'x' }, 'Repository not found: acme/app');
  });
});
