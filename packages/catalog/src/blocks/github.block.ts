import { operationTool } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { dropdown, longInput, operationField, secretField, shortInput, when } from './fields.js';

/** GitHub operation → tool id. */
export const GITHUB_TOOLS = {
  github_pr: 'github_pr',
  github_comment: 'github_comment',
  github_repo_info: 'github_repo_info',
  github_latest_commit: 'github_latest_commit',
} as const;

const PR_OPS = ['github_pr', 'github_comment'];
const COMMENT = when('operation', 'github_comment');

/** GitHub: pull requests, review comments, repository info and latest commit. */
export const githubBlock: BlockConfig = {
  type: 'github',
  name: 'GitHub',
  description: 'Interact with GitHub',
  longDescription:
    'Access GitHub repositories, pull requests and comments through the GitHub API (version 2022-11-28). Read pull request details and diffs, comment on pull requests, read repository information and the latest commit.',
  docsLink: 'https://docs.weft.dev/tools/github',
  category: 'tools',
  bgColor: '#181C1E',
  icon: 'GithubIcon',
  subBlocks: [
    operationField([['github_pr', 'Get PR details'], ['github_comment', 'Create PR comment'], ['github_repo_info', 'Get repository info'], ['github_latest_commit', 'Get latest commit']]),
    shortInput('owner', 'Repository Owner', 'e.g., microsoft', { layout: 'half' }),
    shortInput('repo', 'Repository Name', 'e.g., vscode', { layout: 'half' }),
    shortInput('pullNumber', 'Pull Request Number', 'e.g., 123', { condition: when('operation', PR_OPS) }),
    longInput('body', 'Comment', 'Enter comment text', { condition: COMMENT }),
    shortInput('path', 'File Path', 'e.g., src/main.ts', { condition: COMMENT }),
    shortInput('line', 'Line Number', 'e.g., 42', { layout: 'half', condition: COMMENT }),
    dropdown('side', 'Side', [['RIGHT', 'RIGHT'], ['LEFT', 'LEFT']], { layout: 'half', condition: COMMENT }),
    shortInput('commitId', 'Commit ID', 'Latest commit SHA', { condition: COMMENT }),
    shortInput('branch', 'Branch Name', 'e.g., main (leave empty for default)', { condition: when('operation', 'github_latest_commit') }),
    secretField('apiKey', 'GitHub Token', 'Enter GitHub Token'),
  ],
  tools: { access: Object.values(GITHUB_TOOLS), config: { tool: operationTool(GITHUB_TOOLS, (op) => `Invalid GitHub operation: ${op}`) } },
  inputs: {
    operation: { type: 'string', required: true },
    owner: { type: 'string', required: true },
    repo: { type: 'string', required: true },
    pullNumber: { type: 'number', required: false },
    body: { type: 'string', required: false },
    path: { type: 'string', required: false },
    line: { type: 'number', required: false },
    side: { type: 'string', required: false },
    commitId: { type: 'string', required: false },
    branch: { type: 'string', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { content: 'string', metadata: 'json' },
};
