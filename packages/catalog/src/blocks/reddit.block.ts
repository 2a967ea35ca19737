import { clamp, operationTool, text, toInt } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, dropdown, operationField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { get_posts: 'reddit_get_posts', get_comments: 'reddit_get_comments' } as const;
const POSTS = when('operation', 'get_posts');
const COMMENTS = when('operation', 'get_comments');

/** Limits are integers clamped 1..100 (posts default 10, comments 50); r/ is stripped; time only for sort top. */
export function redditParams(p: Record<string, unknown>): Record<string, unknown> {
  const subreddit = text(p.subreddit).replace(/^\/?r\//i, '');
  if (p.operation === 'get_comments') {
    return { credential: p.credential, subreddit, postId: text(p.postId), sort: text(p.commentSort) || 'confidence', limit: clamp(toInt(p.commentLimit, 50), 1, 100) };
  }
  const sort = text(p.sort) || 'hot';
  const out: Record<string, unknown> = { credential: p.credential, subreddit, sort, limit: clamp(toInt(p.limit, 10), 1, 100) };
  if (sort === 'top' && text(p.time) !== '') out.time = text(p.time);
  return out;
}

/** Reddit: posts of a subreddit and comments of a post. */
export const redditBlock: BlockConfig = {
  type: 'reddit',
  name: 'Reddit',
  description: 'Access Reddit data and content',
  longDescription: 'Access Reddit data to retrieve posts and comments from any subreddit, sorted as you choose.',
  docsLink: 'https://docs.weft.dev/tools/reddit',
  category: 'tools',
  bgColor: '#FF5700',
  icon: 'RedditIcon',
  subBlocks: [
    operationField([['get_posts', 'Get Posts'], ['get_comments', 'Get Comments']]),
    credentialField('reddit', 'reddit', 'Reddit Account', SCOPES.reddit),
    shortInput('subreddit', 'Subreddit', 'Enter subreddit name (without r/)'),
    dropdown('sort', 'Sort By', [['hot', 'Hot'], ['new', 'New'], ['top', 'Top'], ['rising', 'Rising']], { layout: 'half', condition: POSTS }),
    dropdown('time', 'Time Filter (for Top sort)', [['day', 'Day'], ['week', 'Week'], ['month', 'Month'], ['year', 'Year'], ['all', 'All Time']], {
      layout: 'half',
      condition: { field: 'operation', value: 'get_posts', and: { field: 'sort', value: 'top' } },
    }),
    shortInput('limit', 'Max Posts', '10', { layout: 'half', max: 10, condition: POSTS }),
    shortInput('postId', 'Post ID', 'Enter post ID', { condition: COMMENTS }),
    dropdown('commentSort', 'Sort Comments By', [['confidence', 'Best'], ['top', 'Top'], ['new', 'New'], ['controversial', 'Controversial'], ['old', 'Old'], ['random', 'Random'], ['qa', 'Q&A']], { layout: 'half', condition: COMMENTS }),
    shortInput('commentLimit', 'Number of Comments', '50', { layout: 'half', max: 50, condition: COMMENTS }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: { tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Reddit operation: ${op}`), params: redditParams },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    subreddit: { type: 'string', required: true },
    sort: { type: 'string', required: false },
    time: { type: 'string', required: false },
    limit: { type: 'number', required: false },
    postId: { type: 'string', required: false },
    commentSort: { type: 'string', required: false },
    commentLimit: { type: 'number', required: false },
  },
  outputs: { subreddit: 'string', posts: 'json', post: 'json', comments: 'json' },
};
