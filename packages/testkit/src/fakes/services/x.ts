import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

const tweet = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
  id,
  text,
  created_at: '2025-05-01T10:00:00.000Z',
  author_id: 'u-1',
  conversation_id: 'tw-1',
  ...extra,
});

/** Recorded X API v2 answers. */
export const X_FIXTURES = {
  tweet,
  created: { data: { id: 'tw-new', text: 'Hello X', edit_history_tweet_ids: ['tw-new'] } },
  read: {
    // A reply that also quotes a tweet: both referenced tweets come in includes.tweets, the quoted one first.
    data: tweet('tw-1', 'Root tweet', {
      attachments: { media_keys: ['3_1'], poll_ids: ['p1'] },
      referenced_tweets: [
        { type: 'quoted', id: 'tw-q' },
        { type: 'replied_to', id: 'tw-0' },
      ],
    }),
    includes: { users: [{ id: 'u-1', username: 'ada', name: 'Ada' }], tweets: [tweet('tw-q', 'Quoted tweet'), tweet('tw-0', 'Parent tweet')] },
  },
  search: {
    data: [tweet('tw-2', 'reply one', { in_reply_to_user_id: 'u-1' }), tweet('tw-3', 'reply two')],
    includes: { users: [{ id: 'u-2', username: 'bob', name: 'Bob' }] },
    meta: { result_count: 2, newest_id: 'tw-3', oldest_id: 'tw-2', next_token: 'nt-1' },
  },
  user: {
    data: {
      id: 'u-1',
      username: 'ada',
      name: 'Ada',
      description: 'Builds things',
      profile_image_url: 'https://images.example.invalid/ada.jpg',
      verified: true,
      public_metrics: { followers_count: 100, following_count: 10, tweet_count: 1000 },
    },
  },
  userTweets: { data: [tweet('tw-9', 'latest from ada')] },
};

/** A fake X API v2 under /2. */
export function createFakeX(): Promise<FakeServer> {
  const f = X_FIXTURES;
  return createServiceFake([
    ['POST', '/2/tweets', { status: 201, json: f.created }],
    ['GET', '/2/tweets/search/recent', { json: f.search }],
    ['GET', '/2/tweets/:id', { json: f.read }],
    ['GET', '/2/users/by/username/:name', { json: f.user }],
    ['GET', '/2/users/:id/tweets', { json: f.userTweets }],
  ]);
}
