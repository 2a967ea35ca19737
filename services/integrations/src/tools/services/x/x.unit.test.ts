import { X_FIXTURES, createFakeX } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { xTweet, xTools } from './x.tools.js';

const xx = useFamily(createFakeX, { x: '/2' }, xTools);
const t = { accessToken: 'x-tok' };
const auth = { authorization: 'Bearer x-tok' };
const TWEET_FIELDS = 'created_at,conversation_id,in_reply_to_user_id,attachments,author_id';
const USER_FIELDS = 'description,profile_image_url,verified,public_metrics';

describe('x', () => {
  it('x_write posts text, reply, media ids split on commas and a poll', async () => {
    const r = await xx.run('x_write', { ...t, text: 'Hello X', replyTo: 'tw-1', mediaIds: ' 111, ,222 ', poll: '{"options":["a","b"],"duration_minutes":"60"}' });
    xx.expectRequest('x_write', 'POST', '/2/tweets', {
      headers: { ...auth, 'content-type': 'application/json' },
      body: { text: 'Hello X', reply: { in_reply_to_tweet_id: 'tw-1' }, media: { media_ids: ['111', '222'] }, poll: { options: ['a', 'b'], duration_minutes: 60 } },
    });
    expect(r).toMatchObject({ success: true, output: { tweet: { id: 'tw-new', text: 'Hello X' } } });
  });

  it('x_write: 401, 403 and 429 with the reset time', async () => {
    xx.fake.once('POST', '/2/tweets', { status: 401, json: { title: 'Unauthorized' } });
    await xx.expectError('x_write', { ...t, text: 'a' }, 'Invalid or expired access token. Please reconnect your X account.');
    xx.fake.once('POST', '/2/tweets', { status: 403, json: { title: 'Forbidden' } });
    await xx.expectError('x_write', { ...t, text: 'a' }, 'You do not have permission to post on X. Please check that your X account granted the tweet.write scope.');
    xx.fake.once('POST', '/2/tweets', { status: 429, headers: { 'x-rate-limit-reset': '1767225600' }, json: { title: 'Too Many Requests' } });
    await xx.expectError('x_write', { ...t, text: 'a' }, 'X API rate limit exceeded. Please try again after 2026-01-01T00:00:00.000Z.');
    xx.fake.once('POST', '/2/tweets', { status: 429, json: {} });
    await xx.expectError('x_write', { ...t, text: 'a' }, 'X API rate limit exceeded. Please try again later.');
  });

  it('x_read reads the tweet with expansions and, when asked, its replies', async () => {
    const r = await xx.run('x_read', { ...t, tweetId: 'tw-1', includeReplies: 'true' });
    xx.expectRequest('x_read', 'GET', '/2/tweets/tw-1', {
      headers: auth,
      query: { expansions: 'author_id,in_reply_to_user_id,referenced_tweets.id', 'tweet.fields': TWEET_FIELDS, 'user.fields': 'name,username' },
    });
    xx.expectRequest('x_read', 'GET', '/2/tweets/search/recent', { headers: auth, query: { query: 'conversation_id:tw-1', 'tweet.fields': TWEET_FIELDS, max_results: '100' } });
    expect(r).toEqual({
      success: true,
      output: {
        tweet: { ...xTweet(X_FIXTURES.read.data), attachments: { mediaKeys: ['3_1'], pollId: 'p1' } },
        context: { parentTweet: xTweet(X_FIXTURES.read.includes.tweets[1]) },
        replies: X_FIXTURES.search.data.map(xTweet),
      },
    });
  });

  it('x_read: the parent is the replied_to tweet, none when the tweet replies to nothing (a quoted tweet is no parent)', async () => {
    const r = await xx.run('x_read', { ...t, tweetId: 'tw-1' });
    expect(r).toMatchObject({ success: true, output: { context: { parentTweet: { id: 'tw-0', text: 'Parent tweet' } } } });
    xx.fake.once('GET', '/2/tweets/:id', { json: { data: X_FIXTURES.tweet('tw-5', 'Quoting', { referenced_tweets: [{ type: 'quoted', id: 'tw-q' }] }), includes: { tweets: [X_FIXTURES.tweet('tw-q', 'Quoted tweet')] } } });
    const quoting = await xx.run('x_read', { ...t, tweetId: 'tw-5' });
    expect(quoting).toMatchObject({ success: true, output: { tweet: { id: 'tw-5' } } });
    expect(quoting.success && (quoting.output as { context: { parentTweet?: unknown } }).context.parentTweet).toBeUndefined();
  });

  it('x_read: a missing tweet (404 or a Not Found Error answer) has its message', async () => {
    xx.fake.once('GET', '/2/tweets/:id', { status: 404, json: {} });
    await xx.expectError('x_read', { ...t, tweetId: 'nope' }, 'The specified tweet was not found.');
    xx.fake.once('GET', '/2/tweets/:id', { json: { errors: [{ title: 'Not Found Error', detail: 'Could not find tweet' }] } });
    await xx.expectError('x_read', { ...t, tweetId: 'gone' }, 'The specified tweet was not found.');
  });

  it('x_search raises max results below 10 to 10 and sends times and sort order', async () => {
    const r = await xx.run('x_search', { ...t, query: '#weft', maxResults: '3', startTime: '2025-05-01T00:00:00Z', sortOrder: 'relevancy' });
    xx.expectRequest('x_search', 'GET', '/2/tweets/search/recent', {
      headers: auth,
      query: { query: '#weft', max_results: '10', start_time: '2025-05-01T00:00:00Z', sort_order: 'relevancy', expansions: 'author_id', 'tweet.fields': TWEET_FIELDS, 'user.fields': USER_FIELDS },
    });
    expect(r).toMatchObject({ success: true, output: { tweets: [{ id: 'tw-2', inReplyToUserId: 'u-1' }, { id: 'tw-3' }], includes: { users: [{ username: 'bob' }] }, meta: { resultCount: 2, newestId: 'tw-3', oldestId: 'tw-2', nextToken: 'nt-1' } } });
    xx.fake.once('GET', '/2/tweets/search/recent', { status: 400, json: { title: 'Invalid Request' } });
    await xx.expectError('x_search', { ...t, query: '(' }, 'Invalid search query. Please check your search parameters.');
  });

  it('x_user strips @ and answers the profile with recent tweets', async () => {
    const r = await xx.run('x_user', { ...t, username: '@ada' });
    xx.expectRequest('x_user', 'GET', '/2/users/by/username/ada', { headers: auth, query: { 'user.fields': USER_FIELDS } });
    xx.expectRequest('x_user', 'GET', '/2/users/u-1/tweets', { headers: auth, query: { max_results: '5', 'tweet.fields': TWEET_FIELDS } });
    expect(r).toEqual({
      success: true,
      output: {
        user: { id: 'u-1', username: 'ada', name: 'Ada', description: 'Builds things', profileImageUrl: 'https://images.example.invalid/ada.jpg', verified: true, metrics: { followersCount: 100, followingCount: 10, tweetCount: 1000 } },
        recentTweets: X_FIXTURES.userTweets.data.map(xTweet),
      },
    });
    xx.fake.once('GET', '/2/users/by/username/:name', { status: 404, json: {} });
    await xx.expectError('x_user', { ...t, username: 'nobody' }, 'The specified user was not found.');
  });
});
