import type { ToolConfig } from '../types.js';
import { may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

const tool = toolFamily({
  baseUrl: 'https://api.github.com/repos/{owner}/{repo}',
  headers: { Accept: 'application/vnd.github+json', Authorization: 'Bearer {apiKey}', 'X-GitHub-Api-Version': '2022-11-28' },
  common: {
    owner: need('string', 'user', 'Repository owner (user or organization)'),
    repo: need('string', 'user', 'Repository name'),
    apiKey: need('string', 'user', 'GitHub Personal Access Token'),
  },
  oauth: oauth('github', SCOPES.github, false),
});

/** GitHub tools (API version 2022-11-28). */
export const githubTools: ToolConfig[] = [
  tool('github_pr', 'GitHub PR Reader', 'Fetch PR details including diff and files changed', 'GET', '/pulls/{pullNumber}', {
    pullNumber: need('number', 'llm', 'Pull request number'),
  }),
  tool('github_comment', 'GitHub PR Commenter', 'Create comments on GitHub PRs', 'POST', '/pulls/{pullNumber}/reviews', {
    body: need('string', 'llm', 'Comment content'),
    pullNumber: need('number', 'llm', 'Pull request number'),
    path: may('string', 'llm', 'File path for a review comment'),
    position: may('number', 'llm', "Position in the diff (lines below the hunk's @@ header; GitHub deprecates it for line), used when no line is given"),
    commentType: may('string', 'llm', 'Type of comment (pr_comment or file_comment)'),
    line: may('number', 'llm', 'Line number of the file for a review comment (none and no position: a comment on the whole file)'),
    side: may('string', 'llm', 'Side of the diff (LEFT or RIGHT)', 'RIGHT'),
    commitId: may('string', 'llm', 'The SHA of the commit to comment on'),
  }),
  tool('github_repo_info', 'GitHub Repository Info', 'Retrieve comprehensive GitHub repository metadata including stars, forks, issues, and primary language', 'GET', '', {}),
  tool('github_latest_commit', 'GitHub Latest Commit', 'Retrieve the latest commit from a GitHub repository', 'GET', '/commits/{branch}', {
    branch: may('string', 'llm', 'Branch name (defaults to the repository default branch)'),
  }),
];
