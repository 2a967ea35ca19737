import { text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, call, list, obj, seg, serviceTool, str, type ApiResponse, type CallSpec, type Obj } from '../http.js';

/** GitHub REST API version header value (§7). */
export const GITHUB_API_VERSION = '2022-11-28';

const headers = (p: Obj) => ({ Accept: 'application/vnd.github+json', Authorization: `Bearer ${text(p.apiKey)}`, 'X-GitHub-Api-Version': GITHUB_API_VERSION });

function failure(res: ApiResponse, p: Obj): ToolError {
  if (res.status === 401) return new ToolError('Authentication failed. Please check your GitHub token.', 401);
  if (res.status === 404) return new ToolError(`Repository not found: ${text(p.owner)}/${text(p.repo)}`, 404);
  return new ToolError(`GitHub API error (${res.status}): ${apiMessage(res)}`, res.status);
}

/** One call under repos/{owner}/{repo}; a failed answer throws the §8 message. */
async function repoCall(io: ToolIO, p: Obj, path: string, spec: Omit<CallSpec, 'url'> = {}): Promise<ApiResponse> {
  const url = `${io.baseUrl('github')}/repos/${seg(text(p.owner))}/${seg(text(p.repo))}${path}`;
  const res = await call(io, { ...spec, url, headers: { ...headers(p), ...spec.headers } });
  if (!res.ok) throw failure(res, p);
  return res;
}

const person = (commitPerson: unknown, account: unknown) => {
  const c = obj(commitPerson);
  const a = obj(account);
  return { name: c.name, email: c.email, date: c.date, login: a.login, avatar_url: a.avatar_url, html_url: a.html_url };
};

/** A pull request's files as GitHub lists them: pages of 100 (30 unless asked), at most 3000 files in all. */
const PR_FILES = { perPage: 100, max: 3000 } as const;

/** Every file of a pull request, page by page until a short page or GitHub's 3000-file cap. */
async function pullFiles(io: ToolIO, p: Obj, n: number): Promise<unknown[]> {
  const files: unknown[] = [];
  for (let page = 1; files.length < PR_FILES.max; page++) {
    const batch = list((await repoCall(io, p, `/pulls/${n}/files`, { query: { per_page: PR_FILES.perPage, page } })).data);
    files.push(...batch);
    if (batch.length < PR_FILES.perPage) break;
  }
  return files.slice(0, PR_FILES.max);
}

/** GitHub tools: PR reader (details, diff, files), PR commenter, repository info, latest commit. */
export const githubTools: ServiceTool[] = [
  serviceTool('github_pr', async (p, io) => {
    const n = toInt(p.pullNumber, 0);
    const pr = obj((await repoCall(io, p, `/pulls/${n}`)).data);
    const diffUrl = str(pr.diff_url) ?? '';
    const diffRes = diffUrl ? await call(io, { url: diffUrl, headers: headers(p) }) : undefined;
    const files = (await pullFiles(io, p, n)).map((f) => {
      const x = obj(f);
      return { filename: x.filename, additions: x.additions, deletions: x.deletions, changes: x.changes, patch: x.patch, blob_url: x.blob_url, raw_url: x.raw_url, status: x.status };
    });
    const diff = diffRes?.ok ? diffRes.text : '';
    const content = [
      `PR #${String(pr.number)}: "${String(pr.title)}" (${String(pr.state)}) - Created: ${String(pr.created_at)}, Updated: ${String(pr.updated_at)}`,
      `Description: ${str(pr.body) ?? 'No description'}`,
      `Files changed: ${files.length}`,
      `URL: ${String(pr.html_url)}`,
      ...(diff ? ['', diff] : []),
    ].join('\n');
    return {
      content,
      metadata: { number: pr.number, title: pr.title, state: pr.state, html_url: pr.html_url, diff_url: pr.diff_url, created_at: pr.created_at, updated_at: pr.updated_at, files },
    };
  }),
  serviceTool('github_comment', async (p, io) => {
    const n = toInt(p.pullNumber, 0);
    const fileComment = text(p.commentType) === 'file_comment' || (text(p.commentType) === '' && text(p.path) !== '');
    let data: Obj;
    if (fileComment) {
      let commitId = text(p.commitId);
      if (commitId === '') commitId = text(obj(obj((await repoCall(io, p, `/pulls/${n}`)).data).head).sha);
      const body: Obj = { body: String(p.body ?? ''), commit_id: commitId, path: text(p.path) };
      // A line of the file (with its side); else GitHub's (deprecated) diff position, which is no line number; else the whole file.
      if (text(p.line) !== '') Object.assign(body, { line: toInt(p.line, 1), side: text(p.side) || 'RIGHT' });
      else if (text(p.position) !== '') body.position = toInt(p.position, 1);
      else body.subject_type = 'file';
      data = obj((await repoCall(io, p, `/pulls/${n}/comments`, { method: 'POST', json: body })).data);
    } else {
      data = obj((await repoCall(io, p, `/pulls/${n}/reviews`, { method: 'POST', json: { body: String(p.body ?? ''), event: 'COMMENT' } })).data);
    }
    return {
      content: `Comment created: ${String(data.html_url)}`,
      metadata: { id: data.id, html_url: data.html_url, created_at: data.created_at ?? data.submitted_at, updated_at: data.updated_at ?? data.submitted_at, path: data.path, line: data.line, side: data.side, commit_id: data.commit_id },
    };
  }),
  serviceTool('github_repo_info', async (p, io) => {
    const r = obj((await repoCall(io, p, '')).data);
    const metadata = { name: r.name, description: r.description ?? '', stars: r.stargazers_count, forks: r.forks_count, openIssues: r.open_issues_count, language: r.language ?? 'Not specified', url: r.html_url };
    const content = `Repository: ${String(r.full_name ?? r.name)}\nDescription: ${String(metadata.description || 'No description')}\nLanguage: ${String(metadata.language)}\nStars: ${String(r.stargazers_count)}\nForks: ${String(r.forks_count)}\nOpen Issues: ${String(r.open_issues_count)}\nURL: ${String(r.html_url)}`;
    return { content, metadata };
  }),
  serviceTool('github_latest_commit', async (p, io) => {
    let branch = text(p.branch);
    if (branch === '') branch = text(obj((await repoCall(io, p, '')).data).default_branch);
    const c = obj((await repoCall(io, p, `/commits/${seg(branch)}`)).data);
    const commit = obj(c.commit);
    const metadata = {
      sha: c.sha,
      html_url: c.html_url,
      commit_message: commit.message,
      author: person(commit.author, c.author),
      committer: person(commit.committer, c.committer),
      stats: c.stats,
      files: list(c.files),
    };
    const content = `Latest commit on ${branch}: ${String(c.sha)}\nMessage: ${String(commit.message)}\nAuthor: ${String(obj(commit.author).name)}\nDate: ${String(obj(commit.author).date)}\nURL: ${String(c.html_url)}`;
    return { content, metadata };
  }),
];
