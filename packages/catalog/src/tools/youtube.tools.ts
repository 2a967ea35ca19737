import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** YouTube video search (part snippet, type video, default 5 results). */
export const youtubeTools: ToolConfig[] = [
  defineTool({
    id: 'youtube_search',
    name: 'YouTube Search',
    description: 'Search for videos on YouTube using the YouTube Data API',
    params: {
      query: need('string', 'llm', 'Search query for YouTube videos'),
      maxResults: may('number', 'user', 'Maximum number of videos to return', 5),
      apiKey: need('string', 'user', 'YouTube API Key'),
      pageToken: may('string', 'hidden', 'Page token for pagination'),
    },
    request: { method: 'GET', url: 'https://www.googleapis.com/youtube/v3/search?part=snippet&type=video&q={query}&maxResults={maxResults}&key={apiKey}' },
  }),
];
