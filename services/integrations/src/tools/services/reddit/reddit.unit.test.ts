import { createFakeReddit } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { blockPayload, useFamily } from '../testSupport.js';
import { redditTools } from './reddit.tools.js';

const rd = useFamily(createFakeReddit, ['reddit'], redditTools);
const t = { accessToken: 'rd-tok' };

describe('reddit', () => {
  it('reddit_get_posts strips r/, clamps the limit and sends time only for top', async () => {
    const r = await rd.run('reddit_get_posts', { ...t, subreddit: 'r/typescript', sort: 'top', limit: 500, time: 'week' });
    rd.expectRequest('reddit_get_posts', 'GET', '/r/typescript/top', { headers: { authorization: 'Bearer rd-tok' }, query: { limit: '100', t: 'week', raw_json: '1' } });
    expect(r).toMatchObject({
      success: true,
      output: {
        subreddit: 'typescript',
        posts: [
          { id: 'p1', title: 'TS 6 is out', author: 'ada', permalink: 'https://www.reddit.com/r/typescript/comments/p1/slug/', score: 42, is_self: true, thumbnail: '' },
          { id: 'p2', author: '[deleted]' },
        ],
      },
    });
    await rd.run('reddit_get_posts', { ...t, subreddit: 'typescript', time: 'week' });
    rd.expectRequest('reddit_get_posts', 'GET', '/r/typescript/hot', { query: { limit: '10', raw_json: '1' } });
  });

  it('without the account\'s access token both tools are refused before any request (§5: the forum needs an access token)', async () => {
    await rd.expectError('reddit_get_posts', { subreddit: 'typescript' }, 'Access token is required');
    await rd.expectError('reddit_get_comments', { accessToken: ' ', subreddit: 'typescript', postId: 'p1' }, 'Access token is required');
    expect(rd.fake.requests).toHaveLength(0);
  });

  it('reddit_get_posts: blocked, not JSON, and other errors are prefixed', async () => {
    rd.fake.once('GET', '/r/:sub/:sort', { status: 429, json: {} });
    await rd.expectError('reddit_get_posts', { ...t, subreddit: 'a' }, 'Error fetching Reddit posts: Reddit API access blocked or rate limited. Please try again later.');
    rd.fake.once('GET', '/r/:sub/:sort', { text: '<html>blocked</html>' });
    await rd.expectError('reddit_get_posts', { ...t, subreddit: 'a' }, 'Error fetching Reddit posts: Failed to parse Reddit response: <html>blocked</html>');
    rd.fake.once('GET', '/r/:sub/:sort', { status: 404, json: { message: 'Not Found', error: 404 } });
    await rd.expectError('reddit_get_posts', { ...t, subreddit: 'a' }, 'Error fetching Reddit posts: Not Found');
  });

  it('reddit_get_comments reads the post and its nested comments', async () => {
    const r = await rd.run('reddit_get_comments', { ...t, subreddit: '/r/typescript', postId: 'p1', sort: 'top' });
    rd.expectRequest('reddit_get_comments', 'GET', '/r/typescript/comments/p1', { headers: { authorization: 'Bearer rd-tok' }, query: { sort: 'top', limit: '50', raw_json: '1' } });
    expect(r).toMatchObject({
      success: true,
      output: {
        post: { id: 'p1', title: 'TS 6 is out' },
        comments: [{ id: 'c1', body: 'Great news', author: 'bob', replies: [{ id: 'c2', body: 'Agreed', replies: [] }] }],
      },
    });
    rd.fake.once('GET', '/r/:sub/comments/:post', { status: 403, json: {} });
    await rd.expectError('reddit_get_comments', { ...t, subreddit: 'a', postId: 'b' }, 'Error fetching Reddit comments: Reddit API access blocked or rate limited. Please try again later.');
  });
});

describe('§7 Reddit block payload keys: postId, subreddit, sort, limit, time, credential', () => {
  it('get_posts sends credential, subreddit (r/ stripped), sort, limit and time (for top)', async () => {
    const { toolId, params } = blockPayload('reddit', { operation: 'get_posts', credential: 'cred-rd', subreddit: 'r/typescript', sort: 'top', time: 'week', limit: '5' });
    expect(toolId).toBe('reddit_get_posts');
    expect(params).toEqual({ credential: 'cred-rd', subreddit: 'typescript', sort: 'top', limit: 5, time: 'week' });
    expect(await rd.run(toolId, params)).toMatchObject({ success: true, output: { subreddit: 'typescript' } });
    rd.expectRequest('reddit_get_posts', 'GET', '/r/typescript/top', { headers: { authorization: 'Bearer oauth-cred-rd' }, query: { limit: '5', t: 'week', raw_json: '1' } });
  });

  it('get_comments sends credential, subreddit, postId, sort and limit', async () => {
    const { toolId, params } = blockPayload('reddit', { operation: 'get_comments', credential: 'cred-rd', subreddit: 'typescript', postId: 'p1', commentSort: 'new', commentLimit: '20' });
    expect(toolId).toBe('reddit_get_comments');
    expect(params).toEqual({ credential: 'cred-rd', subreddit: 'typescript', postId: 'p1', sort: 'new', limit: 20 });
    expect(await rd.run(toolId, params)).toMatchObject({ success: true, output: { post: { id: 'p1' } } });
    rd.expectRequest('reddit_get_comments', 'GET', '/r/typescript/comments/p1', { headers: { authorization: 'Bearer oauth-cred-rd' }, query: { sort: 'new', limit: '20', raw_json: '1' } });
  });
});
