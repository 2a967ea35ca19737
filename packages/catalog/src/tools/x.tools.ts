import type { ToolConfig } from '../types.js';
import { accessToken, bearer, defineTool, may, need, oauth } from './define.js';
import { SCOPES } from './scopes.js';

const API = 'https://api.twitter.com/2';
const xOAuth = oauth('x', SCOPES.x);
const token = accessToken('X');

/** X tools: post, read, search, user. */
export const xTools: ToolConfig[] = [
  defineTool({
    id: 'x_write',
    name: 'X Write',
    description: 'Post new tweets, reply to tweets, or create polls on X (Twitter)',
    params: {
      accessToken: token,
      text: need('string', 'llm', 'The text content of your tweet'),
      replyTo: may('string', 'llm', 'ID of the tweet to reply to'),
      mediaIds: may('array', 'llm', 'Array of media IDs to attach to the tweet'),
      poll: may('object', 'llm', 'Poll configuration (options, duration_minutes)'),
    },
    request: { method: 'POST', url: `${API}/tweets`, headers: bearer() },
    oauth: xOAuth,
  }),
  defineTool({
    id: 'x_read',
    name: 'X Read',
    description: 'Read tweet details, including replies and conversation context',
    params: {
      accessToken: token,
      tweetId: need('string', 'llm', 'ID of the tweet to read'),
      includeReplies: may('boolean', 'llm', 'Whether to include replies to the tweet', false),
    },
    request: { method: 'GET', url: `${API}/tweets/{tweetId}?expansions=author_id,in_reply_to_user_id,referenced_tweets.id`, headers: bearer() },
    oauth: xOAuth,
  }),
  defineTool({
    id: 'x_search',
    name: 'X Search',
    description: 'Search for recent tweets using keywords, hashtags, or advanced queries',
    params: {
      accessToken: token,
      query: need('string', 'llm', 'Search query (supports X search operators)'),
      maxResults: may('number', 'llm', 'Maximum number of results to return (10-100)', 10),
      startTime: may('string', 'llm', 'Start time for search (ISO 8601 format)'),
      endTime: may('string', 'llm', 'End time for search (ISO 8601 format)'),
      sortOrder: may('string', 'llm', 'Sort order for results (recency or relevancy)', 'recency'),
    },
    request: { method: 'GET', url: `${API}/tweets/search/recent?query={query}&max_results={maxResults}`, headers: bearer() },
    oauth: xOAuth,
  }),
  defineTool({
    id: 'x_user',
    name: 'X User',
    description: 'Get user profile information',
    params: { accessToken: token, username: need('string', 'llm', 'Username to look up (without @ symbol)') },
    request: { method: 'GET', url: `${API}/users/by/username/{username}?user.fields=description,profile_image_url,verified,public_metrics`, headers: bearer() },
    oauth: xOAuth,
  }),
];
