import type { BlockConfig } from '../types.js';
import { secretField, shortInput } from './fields.js';

/** YouTube: video search. */
export const youtubeBlock: BlockConfig = {
  type: 'youtube',
  name: 'YouTube',
  description: 'Search for videos on YouTube',
  longDescription: 'Find relevant videos on YouTube using the YouTube Data API. Returns video ids, titles, descriptions and thumbnails.',
  docsLink: 'https://docs.weft.dev/tools/youtube',
  category: 'tools',
  bgColor: '#FF0000',
  icon: 'YouTubeIcon',
  subBlocks: [
    shortInput('query', 'Search Query', 'Enter search query'),
    secretField('apiKey', 'YouTube API Key', 'Enter YouTube API Key'),
    { id: 'maxResults', title: 'Max Results', type: 'slider', layout: 'half', min: 0, max: 20, step: 1, integer: true, defaultValue: 5 },
  ],
  tools: { access: ['youtube_search'] },
  inputs: {
    apiKey: { type: 'string', required: true },
    query: { type: 'string', required: true },
    maxResults: { type: 'number', required: false },
  },
  outputs: { items: 'json', totalResults: 'number' },
};
