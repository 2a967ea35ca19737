import type { ToolConfig } from '../types.js';
import { accessToken, bearer, defineTool, may, need, oauth } from './define.js';
import { SCOPES } from './scopes.js';

const API = 'https://oauth.reddit.com';

/** Reddit posts and comments. */
export const redditTools: ToolConfig[] = [
  defineTool({
    id: 'reddit_get_posts',
    name: 'Get Reddit Posts',
    description: 'Fetch posts from a subreddit with different sorting options',
    params: {
      accessToken: accessToken('Reddit'),
      subreddit: need('string', 'llm', 'The name of the subreddit to fetch posts from (without the r/ prefix)'),
      sort: may('string', 'llm', 'Sort method for posts: hot, new, top or rising', 'hot'),
      limit: may('number', 'llm', 'Maximum number of posts to return (1-100)', 10),
      time: may('string', 'llm', 'Time filter for top posts: day, week, month, year or all'),
    },
    request: { method: 'GET', url: `${API}/r/{subreddit}/{sort}?limit={limit}&raw_json=1`, headers: bearer() },
    oauth: oauth('reddit', SCOPES.reddit),
  }),
  defineTool({
    id: 'reddit_get_comments',
    name: 'Get Reddit Comments',
    description: 'Fetch comments from a specific Reddit post',
    params: {
      accessToken: accessToken('Reddit'),
      postId: need('string', 'llm', 'The ID of the Reddit post to fetch comments from'),
      subreddit: need('string', 'llm', 'The subreddit where the post is located (without the r/ prefix)'),
      sort: may('string', 'llm', 'Sort method for comments', 'confidence'),
      limit: may('number', 'llm', 'Maximum number of comments to return (1-100)', 50),
    },
    request: { method: 'GET', url: `${API}/r/{subreddit}/comments/{postId}?sort={sort}&limit={limit}&raw_json=1`, headers: bearer() },
    oauth: oauth('reddit', SCOPES.reddit),
  }),
];
