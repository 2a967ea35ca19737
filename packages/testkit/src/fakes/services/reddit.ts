import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

const post = (id: string, title: string, extra: Record<string, unknown> = {}) => ({
  kind: 't3',
  data: {
    id,
    title,
    author: 'ada',
    url: `https://example.com/${id}`,
    permalink: `/r/typescript/comments/${id}/slug/`,
    created_utc: 1714557600,
    score: 42,
    num_comments: 3,
    selftext: 'Body text',
    thumbnail: 'self',
    is_self: true,
    subreddit: 'typescript',
    ...extra,
  },
});

const comment = (id: string, body: string, replies: unknown = '') => ({
  kind: 't1',
  data: { id, author: 'bob', body, created_utc: 1714557700, score: 5, permalink: `/r/typescript/comments/p1/slug/${id}/`, replies },
});

/** Recorded Reddit API answers (oauth.reddit.com, raw_json=1). */
export const REDDIT_FIXTURES = {
  listing: { kind: 'Listing', data: { children: [post('p1', 'TS 6 is out'), post('p2', 'Removed', { author: undefined })] } },
  comments: [
    { kind: 'Listing', data: { children: [post('p1', 'TS 6 is out')] } },
    {
      kind: 'Listing',
      data: {
        children: [
          comment('c1', 'Great news', { kind: 'Listing', data: { children: [comment('c2', 'Agreed')] } }),
          { kind: 'more', data: { id: 'more1', children: ['c9'] } },
        ],
      },
    },
  ],
};

/** A fake Reddit API: subreddit listings by sort and a post's comments. */
export function createFakeReddit(): Promise<FakeServer> {
  return createServiceFake([
    ['GET', '/r/:sub/comments/:post', { json: REDDIT_FIXTURES.comments }],
    ['GET', '/r/:sub/:sort', { json: REDDIT_FIXTURES.listing }],
  ]);
}
