import { createFakeReddit } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { redditTools } from './reddit.tools.js';

const rd = useFamily(createFakeReddit, ['reddit'], redditTools);
const t = { accessToken: 'rd-tok' };

describe('reddit', () => {
  it('reddit_get_posts strips r/, clamps the limit and sends time only for top', async () => {
    const r = await rd.run('reddit_get_posts', { ...t, subreddit: 'r/typescript', sort: 'top', limit: 500, time: 'week' });
    const req = rd.only('GET', '/r/typescript/top');
    expect(req.headers.authorization).toBe('Bearer rd-tok');
    expect(req.query).toEqual({ limit: '100', t: 'week', raw_json: '1' });
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
    rd.fake.requests.length = 0;
    await rd.run('reddit_get_posts', { ...t, subreddit: 'typescript', time: 'week' });
    expect(rd.only('GET', '/r/typescript/hot').query).toEqual({ limit: '10', raw_json: '1' });
  });

  it('reddit_get_posts: blocked, not JSON, and other errors are prefixed', async () => {
    rd.fake.once('GET', '/r/:sub/:sort', { status: 429, json: {} });
    expect(await rd.run('reddit_get_posts', { ...t, subreddit: 'a' })).toMatchObject({ success: false, error: 'Error fetching Reddit posts: Reddit API access blocked or rate limited. Please try again later.' });
    rd.fake.once('GET', '/r/:sub/:sort', { text: '<html>blocked</html>' });
    expect(await rd.run('reddit_get_posts', { ...t, subreddit: 'a' })).toMatchObject({ success: false, error: 'Error fetching Reddit posts: Failed to parse Reddit response: <html>blocked</html>' });
    rd.fake.once('GET', '/r/:sub/:sort', { status: 404, json: { message: 'Not Found', error: 404 } });
    expect(await rd.run('reddit_get_posts', { ...t, subreddit: 'a' })).toMatchObject({ success: false, error: 'Error fetching Reddit posts: Not Found' });
  });

  it('reddit_get_comments reads the post and its nested comments', async () => {
    const r = await rd.run('reddit_get_comments', { ...t, subreddit: '/r/typescript', postId: 'p1', sort: 'top' });
    expect(rd.only('GET', '/r/typescript/comments/p1').query).toEqual({ sort: 'top', limit: '50', raw_json: '1' });
    expect(r).toMatchObject({
      success: true,
      output: {
        post: { id: 'p1', title: 'TS 6 is out' },
        comments: [{ id: 'c1', body: 'Great news', author: 'bob', replies: [{ id: 'c2', body: 'Agreed', replies: [] }] }],
      },
    });
    rd.fake.once('GET', '/r/:sub/comments/:post', { status: 403, json: {} });
    expect(await rd.run('reddit_get_comments', { ...t, subreddit: 'a', postId: 'b' })).toMatchObject({ success: false, error: 'Error fetching Reddit comments: Reddit API access blocked or rate limited. Please try again later.' });
  });
});
