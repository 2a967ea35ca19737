import { clamp, text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, RATE_LIMITED, seg, serviceTool, type Obj } from '../http.js';

const SORTS = ['hot', 'new', 'top', 'rising'];
const USER_AGENT = 'weft-workflows/1.0';

/** The subreddit without an r/ prefix (§5). */
export const subredditName = (value: unknown) => text(value).replace(/^\/?r\//i, '');

/** A Reddit read; without the account's token it is refused before any request (§5: the forum needs an access token). */
async function reddit(io: ToolIO, p: Obj, path: string, query: Obj, what: 'posts' | 'comments'): Promise<unknown> {
  if (text(p.accessToken) === '') throw new ToolError('Access token is required');
  const res = await call(io, { url: `${io.baseUrl('reddit')}${path}`, query: { ...query, raw_json: 1 }, headers: { ...bearer(p.accessToken), 'User-Agent': USER_AGENT }, answerStatuses: RATE_LIMITED });
  const fail = (message: string) => new ToolError(`Error fetching Reddit ${what}: ${message}`, res.status);
  if (res.status === 403 || res.status === 429) throw fail('Reddit API access blocked or rate limited. Please try again later.');
  if (!res.json) throw fail(`Failed to parse Reddit response: ${res.text.slice(0, 200)}`);
  if (!res.ok) throw fail(apiMessage(res));
  return res.data;
}

function post(value: unknown) {
  const d = obj(obj(value).data);
  return {
    id: d.id,
    title: d.title,
    author: d.author ?? '[deleted]',
    url: d.url,
    permalink: d.permalink ? `https://www.reddit.com${String(d.permalink)}` : '',
    created_utc: d.created_utc,
    score: d.score,
    num_comments: d.num_comments,
    selftext: d.selftext ?? '',
    thumbnail: d.thumbnail !== 'self' && d.thumbnail !== 'default' ? d.thumbnail : '',
    is_self: d.is_self === true,
    subreddit: d.subreddit,
  };
}

interface Comment {
  id: unknown;
  author: unknown;
  body: unknown;
  created_utc: unknown;
  score: unknown;
  permalink: string;
  replies: Comment[];
}

function comments(listing: unknown): Comment[] {
  return list(obj(obj(listing).data).children)
    .map(obj)
    .filter((c) => c.kind === 't1')
    .map((c) => {
      const d = obj(c.data);
      return {
        id: d.id,
        author: d.author ?? '[deleted]',
        body: d.body ?? '',
        created_utc: d.created_utc,
        score: d.score,
        permalink: d.permalink ? `https://www.reddit.com${String(d.permalink)}` : '',
        replies: comments(d.replies),
      };
    });
}

/** Reddit tools: a subreddit's posts by sort and a post's comment tree. */
export const redditTools: ServiceTool[] = [
  serviceTool('reddit_get_posts', async (p, io) => {
    const subreddit = subredditName(p.subreddit);
    const sort = SORTS.includes(text(p.sort)) ? text(p.sort) : 'hot';
    const query: Obj = { limit: clamp(toInt(p.limit, 10), 1, 100) };
    if (sort === 'top' && text(p.time)) query.t = text(p.time);
    const data = await reddit(io, p, `/r/${seg(subreddit)}/${sort}`, query, 'posts');
    return { subreddit, posts: list(obj(obj(data).data).children).map(post) };
  }),
  serviceTool('reddit_get_comments', async (p, io) => {
    const subreddit = subredditName(p.subreddit);
    const data = list(
      await reddit(io, p, `/r/${seg(subreddit)}/comments/${seg(text(p.postId))}`, { sort: text(p.sort) || 'confidence', limit: clamp(toInt(p.limit, 50), 1, 100) }, 'comments'),
    );
    const first = list(obj(obj(data[0]).data).children)[0];
    return { post: first ? post(first) : null, comments: comments(data[1]) };
  }),
];
