import { X_FIXTURES, createFakeX } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { xTweet, xTools } from './x.tools.js';

const xx = useFamily(createFakeX, { x: '/2' }, xTools);
const t = { accessToken: 'x-tok' };

describe('x', () => {
  it('x_write posts text, reply, media ids split on commas and a poll', async () => {
    const r = await xx.run('x_write', { ...t, text: 'Hello X', replyTo: 'tw-1', mediaIds: ' 111, ,222 ', poll: '{"options":["a","b"],"duration_minutes":"60"}' });
    const req = xx.only('POST', '/2/tweets');
    expect(req.headers.authorization).toBe('Bearer x-tok');
    expect(req.body).toEqual({ text: 'Hello X', reply: { in_reply_to_tweet_id: 'tw-1' }, media: { media_ids: ['111', '222'] }, poll: { options: ['a', 'b'], duration_minutes: 60 } });
    expect(r).toMatchObject({ success: true, output: { tweet: { id: 'tw-new', text: 'Hello X' } } });
  });

  it('x_write: 401, 403 and 429 with the reset time', async () => {
    xx.fake.once('POST', '/2/tweets', { status: 401, json: { title: 'Unauthorized' } });
    expect(await xx.run('x_write', { ...t, text: 'a' })).toMatchObject({ success: false, error: 'Invalid or expired access token. Please reconnect your X account.' });
    xx.fake.once('POST', '/2/tweets', { status: 403, json: { title: 'Forbidden' } });
    expect(await xx.run('x_write', { ...t, text: 'a' })).toMatchObject({ success: false, error: 'You do not have permission to post on X. Please check that your X account granted the tweet.write scope.' });
    xx.fake.once('POST', '/2/tweets', { status: 429, headers: { 'x-rate-limit-reset': '1767225600' }, json: { title: 'Too Many Requests' } });
    expect(await xx.run('x_write', { ...t, text: 'a' })).toMatchObject({ success: false, error: 'X API rate limit exceeded. Please try again after 2026-01-01T00:00:00.000Z.' });
    xx.fake.once('POST', '/2/tweets', { status: 429, json: {} });
    expect(await xx.run('x_write', { ...t, text: 'a' })).toMatchObject({ success: false, error: 'X API rate limit exceeded. Please try again later.' });
  });

  it('x_read reads the tweet with expansions and, when asked, its replies', async () => {
    const r = await xx.run('x_read', { ...t, tweetId: 'tw-1', includeReplies: 'true' });
    expect(xx.only('GET', '/2/tweets/tw-1').query).toMatchObject({ expansions: 'author_id,in_reply_to_user_id,referenced_tweets.id' });
    expect(xx.only('GET', '/2/tweets/search/recent').query).toMatchObject({ query: 'conversation_id:tw-1', max_results: '100' });
    expect(r).toEqual({
      success: true,
      output: {
        tweet: { ...xTweet(X_FIXTURES.read.data), attachments: { mediaKeys: ['3_1'], pollId: 'p1' } },
        context: { parentTweet: xTweet(X_FIXTURES.read.includes.tweets[0]) },
        replies: X_FIXTURES.search.data.map(xTweet),
      },
    });
  });

  it('x_read: a missing tweet (404 or a Not Found Error answer) has its message', async () => {
    xx.fake.once('GET', '/2/tweets/:id', { status: 404, json: {} });
    expect(await xx.run('x_read', { ...t, tweetId: 'nope' })).toMatchObject({ success: false, error: 'The specified tweet was not found.' });
    xx.fake.once('GET', '/2/tweets/:id', { json: { errors: [{ title: 'Not Found Error', detail: 'Could not find tweet' }] } });
    expect(await xx.run('x_read', { ...t, tweetId: 'gone' })).toMatchObject({ success: false, error: 'The specified tweet was not found.' });
  });

  it('x_search raises max results below 10 to 10 and sends times and sort order', async () => {
    const r = await xx.run('x_search', { ...t, query: '#weft', maxResults: '3', startTime: '2025-05-01T00:00:00Z', sortOrder: 'relevancy' });
    expect(xx.only('GET', '/2/tweets/search/recent').query).toMatchObject({ query: '#weft', max_results: '10', start_time: '2025-05-01T00:00:00Z', sort_order: 'relevancy' });
    expect(r).toMatchObject({ success: true, output: { tweets: [{ id: 'tw-2', inReplyToUserId: 'u-1' }, { id: 'tw-3' }], includes: { users: [{ username: 'bob' }] }, meta: { resultCount: 2, newestId: 'tw-3', oldestId: 'tw-2', nextToken: 'nt-1' } } });
    xx.fake.once('GET', '/2/tweets/search/recent', { status: 400, json: { title: 'Invalid Request' } });
    expect(await xx.run('x_search', { ...t, query: '(' })).toMatchObject({ success: false, error: 'Invalid search query. Please check your search parameters.' });
  });

  it('x_user strips @ and answers the profile with recent tweets', async () => {
    const r = await xx.run('x_user', { ...t, username: '@ada' });
    expect(xx.only('GET', '/2/users/by/username/ada').query).toEqual({ 'user.fields': 'description,profile_image_url,verified,public_metrics' });
    xx.only('GET', '/2/users/u-1/tweets');
    expect(r).toEqual({
      success: true,
      output: {
        user: { id: 'u-1', username: 'ada', name: 'Ada', description: 'Builds things', profileImageUrl: 'https://pbs.twimg.com/ada.jpg', verified: true, metrics: { followersCount: 100, followingCount: 10, tweetCount: 1000 } },
        recentTweets: X_FIXTURES.userTweets.data.map(xTweet),
      },
    });
    xx.fake.once('GET', '/2/users/by/username/:name', { status: 404, json: {} });
    expect(await xx.run('x_user', { ...t, username: 'nobody' })).toMatchObject({ success: false, error: 'The specified user was not found.' });
  });
});
