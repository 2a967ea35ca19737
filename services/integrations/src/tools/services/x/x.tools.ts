import { X_SEARCH_RESULTS, clamp, commaList, parseJson, text, toBoolean, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, RATE_LIMITED, seg, serviceTool, type ApiResponse, type Obj } from '../http.js';

type Kind = 'write' | 'tweet' | 'search' | 'user';

const TWEET_FIELDS = 'created_at,conversation_id,in_reply_to_user_id,attachments,author_id';
const USER_FIELDS = 'description,profile_image_url,verified,public_metrics';

/** The §8 message for a failed X answer. */
function failure(res: ApiResponse, kind: Kind): ToolError {
  const s = res.status;
  if (s === 401) return new ToolError('Invalid or expired access token. Please reconnect your X account.', s);
  if (s === 403 && kind === 'write') return new ToolError('You do not have permission to post on X. Please check that your X account granted the tweet.write scope.', s);
  if (s === 404) return new ToolError(kind === 'user' ? 'The specified user was not found.' : 'The specified tweet was not found.', s);
  if (s === 400 && kind === 'search') return new ToolError('Invalid search query. Please check your search parameters.', s);
  if (s === 429) {
    const reset = Number(res.headers.get('x-rate-limit-reset'));
    return new ToolError(
      Number.isFinite(reset) && reset > 0
        ? `X API rate limit exceeded. Please try again after ${new Date(reset * 1000).toISOString()}.`
        : 'X API rate limit exceeded. Please try again later.',
      s,
    );
  }
  return new ToolError(`X API error: ${apiMessage(res)}`, s);
}

async function x(io: ToolIO, p: Obj, kind: Kind, path: string, init: { method?: string; query?: Obj; json?: unknown } = {}): Promise<Obj> {
  const res = await call(io, { ...init, url: `${io.baseUrl('x')}${path}`, headers: bearer(p.accessToken), answerStatuses: RATE_LIMITED });
  if (!res.ok) throw failure(res, kind);
  const data = obj(res.data);
  // X answers 200 with only errors when the object does not exist.
  if (data.data === undefined && list(data.errors).some((e) => obj(e).title === 'Not Found Error')) throw failure({ ...res, status: 404 }, kind);
  return data;
}

/** A tweet as the tools answer it (§3). */
export function xTweet(value: unknown) {
  const t = obj(value);
  const a = obj(t.attachments);
  return {
    id: t.id,
    text: t.text,
    createdAt: t.created_at,
    authorId: t.author_id,
    conversationId: t.conversation_id,
    inReplyToUserId: t.in_reply_to_user_id,
    attachments: t.attachments ? { mediaKeys: a.media_keys, pollId: list(a.poll_ids)[0] } : undefined,
  };
}

function xUser(value: unknown) {
  const u = obj(value);
  const m = obj(u.public_metrics);
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    description: u.description,
    profileImageUrl: u.profile_image_url,
    verified: u.verified === true,
    metrics: { followersCount: m.followers_count, followingCount: m.following_count, tweetCount: m.tweet_count },
  };
}

/** X tools: post (reply, media, poll), read (with replies and context), search recent, user. */
export const xTools: ServiceTool[] = [
  serviceTool('x_write', async (p, io) => {
    const body: Obj = { text: String(p.text ?? '') };
    if (text(p.replyTo)) body.reply = { in_reply_to_tweet_id: text(p.replyTo) };
    const mediaIds = commaList(p.mediaIds);
    if (mediaIds.length) body.media = { media_ids: mediaIds };
    const parsedPoll = parseJson(p.poll);
    const poll = obj(parsedPoll.ok ? parsedPoll.value : undefined);
    if (list(poll.options).length) body.poll = { options: list(poll.options), duration_minutes: toInt(poll.duration_minutes, 1440) };
    const d = await x(io, p, 'write', '/tweets', { method: 'POST', json: body });
    return { tweet: xTweet(d.data) };
  }),
  serviceTool('x_read', async (p, io) => {
    const d = await x(io, p, 'tweet', `/tweets/${seg(text(p.tweetId))}`, {
      query: { expansions: 'author_id,in_reply_to_user_id,referenced_tweets.id', 'tweet.fields': TWEET_FIELDS, 'user.fields': 'name,username' },
    });
    const tweet = xTweet(d.data);
    // The parent is the tweet this one replies to; includes.tweets also holds quoted and retweeted ones.
    const parentId = obj(list(obj(d.data).referenced_tweets).find((r) => obj(r).type === 'replied_to')).id;
    const parent = parentId === undefined ? undefined : list(obj(d.includes).tweets).find((t) => obj(t).id === parentId);
    const out: Obj = { tweet, context: { parentTweet: parent === undefined ? undefined : xTweet(parent) } };
    if (toBoolean(p.includeReplies) === true) {
      const replies = await x(io, p, 'search', '/tweets/search/recent', {
        query: { query: `conversation_id:${String(tweet.conversationId ?? tweet.id)}`, 'tweet.fields': TWEET_FIELDS, max_results: X_SEARCH_RESULTS.max },
      });
      out.replies = list(replies.data).map(xTweet);
    }
    return out;
  }),
  serviceTool('x_search', async (p, io) => {
    const d = await x(io, p, 'search', '/tweets/search/recent', {
      query: {
        query: text(p.query),
        max_results: clamp(toInt(p.maxResults, X_SEARCH_RESULTS.default), X_SEARCH_RESULTS.min, X_SEARCH_RESULTS.max),
        start_time: text(p.startTime),
        end_time: text(p.endTime),
        sort_order: text(p.sortOrder) || 'recency',
        expansions: 'author_id',
        'tweet.fields': TWEET_FIELDS,
        'user.fields': USER_FIELDS,
      },
    });
    const m = obj(d.meta);
    return {
      tweets: list(d.data).map(xTweet),
      includes: { users: list(obj(d.includes).users).map(xUser) },
      meta: { resultCount: m.result_count, newestId: m.newest_id, oldestId: m.oldest_id, nextToken: m.next_token },
    };
  }),
  serviceTool('x_user', async (p, io) => {
    const username = text(p.username).replace(/^@/, '');
    const d = await x(io, p, 'user', `/users/by/username/${seg(username)}`, { query: { 'user.fields': USER_FIELDS } });
    const user = xUser(d.data);
    // Recent tweets are a bonus: a failure here keeps the profile.
    const recent = await call(io, { url: `${io.baseUrl('x')}/users/${seg(String(user.id))}/tweets`, query: { max_results: 5, 'tweet.fields': TWEET_FIELDS }, headers: bearer(p.accessToken) });
    return { user, recentTweets: recent.ok ? list(obj(recent.data).data).map(xTweet) : [] };
  }),
];
