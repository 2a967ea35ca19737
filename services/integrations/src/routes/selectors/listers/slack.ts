import { list, obj, str, type Obj } from '../../../tools/services/http.js';
import { choice, collectPages, PAGE_LIMIT, type SelectorItem } from '../paging.js';
import type { SelectorLister } from '../lister.js';

/** A channel as the selector shows it: `#name`, a private one marked. */
function channelItem(c: Obj): SelectorItem {
  return choice(c.id, `#${String(c.name ?? c.id ?? '')}`, c.is_private === true && 'Private channel');
}

/**
 * Slack channels: `conversations.list` (public and private, archived left out) by its cursor. Slack
 * has no name search there, so a search filters the channels by name here.
 */
export const slackChannels: SelectorLister = {
  provider: 'Slack',
  what: 'Slack channels',
  list: ({ client, search, position }) =>
    collectPages(
      async (cursor) => {
        const data = obj(await client.request({
          url: `${client.io.baseUrl('slack')}/conversations.list`,
          query: { types: 'public_channel,private_channel', exclude_archived: true, limit: PAGE_LIMIT, cursor },
        }));
        // Slack answers its refusals with 200 and `ok: false` (`invalid_auth`, `missing_scope`).
        if (data.ok !== true) throw client.refused(200, str(data.error) ?? 'Slack API error');
        const items = list(data.channels).map(obj).map(channelItem);
        return { items, next: str(obj(data.response_metadata).next_cursor) };
      },
      position,
      { filter: search },
    ),
  /** One channel by id: `conversations.info` (`channel_not_found`: none; an archived one is none too, as the list leaves it out). */
  async get({ client }, id) {
    const data = obj(await client.request({ url: `${client.io.baseUrl('slack')}/conversations.info`, query: { channel: id } }));
    if (data.ok !== true) {
      if (data.error === 'channel_not_found') return null;
      throw client.refused(200, str(data.error) ?? 'Slack API error');
    }
    const channel = obj(data.channel);
    return channel.is_archived === true ? null : channelItem(channel);
  },
};
